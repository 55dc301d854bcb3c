// Generates both clients from what a running server serves (TABLETOP_URL, e.g. http://127.0.0.1:8000):
// the REST client from /openapi.json (@hey-api/openapi-ts) and the GraphQL types from the schema
// served at /graphql (graphql-codegen, by introspection). Each per-game GraphQL scalar
// (CarcassonneView, KeythedralChoice, ...) names its JSON Schema in @specifiedBy; it is mapped to
// the type openapi-ts generated from that schema, so game data is typed in both clients.
import { createClient } from "@hey-api/openapi-ts";
import { generate } from "@graphql-codegen/cli";

const base = process.env.TABLETOP_URL;
if (!base) throw new Error("set TABLETOP_URL to the server's base URL");

await createClient({
  input: `${base}/openapi.json`,
  output: { path: "src/rest", importFileExtension: ".js" },
  plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
});

const ask = () =>
  fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ __schema { types { kind name specifiedByURL } } }" }),
  });
// Once more if the kept-alive connection was closed by the server while openapi-ts worked.
const introspection = await ask().catch(ask);
const { data } = await introspection.json();
const prefix = "/openapi.json#/components/schemas/";
const scalars = { JSON: "unknown", DateTime: "string" };
for (const type of data.__schema.types) {
  if (type.kind === "SCALAR" && type.specifiedByURL?.startsWith(prefix)) {
    scalars[type.name] = `import('../rest/types.gen.js').${type.specifiedByURL.slice(prefix.length)}`;
  }
}

await generate(
  {
    schema: `${base}/graphql`,
    documents: "src/graphql/*.graphql",
    generates: {
      "src/gql/types.ts": {
        // typescript-operations alone: it writes the input types the operations use (with the
        // `typescript` plugin too, `GameChoice` would be written twice). Inputs keep optional
        // fields: `GameChoice` is @oneOf, one field given, the others absent (never null).
        plugins: ["typescript-operations"],
        config: {
          scalars, strictScalars: true, enumsAsTypes: true,
          avoidOptionals: { field: true, object: true, inputValue: false, defaultValue: false },
        },
      },
    },
  },
  true,
);
console.log(`generated src/rest and src/gql from ${base} (${Object.keys(scalars).length - 2} typed game scalars)`);
