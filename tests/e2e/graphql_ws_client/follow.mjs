// Follows a game with the standard graphql-ws client (graphql-transport-ws), one JSON line per
// event on stdout, until an event of type STOP arrives; then completes the subscription and exits.
// Usage: node follow.mjs WS_URL GAME_ID TOKEN AFTER STOP
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const [url, gameId, token, after, stop] = process.argv.slice(2);
const query = `subscription Follow($g: ID!, $after: Int!) {
  gameEvents(gameId: $g, after: $after) { seq type data next { decisionVersion choices } }
}`;

const client = createClient({
  url,
  webSocketImpl: WebSocket,
  connectionParams: { authorization: `Bearer ${token}` },
  retryAttempts: 0,
});

const fail = (error) => {
  console.error(JSON.stringify({ error: String(error?.message ?? JSON.stringify(error)) }));
  process.exit(1);
};

const subscription = client.iterate({ query, variables: { g: gameId, after: Number(after) } });
try {
  for await (const result of subscription) {
    if (result.errors) fail(result.errors);
    const event = result.data.gameEvents;
    console.log(JSON.stringify(event));
    if (event.type === stop) break; // ends the iteration: the client sends `complete`
  }
} catch (error) {
  fail(error);
}
await client.dispose();
console.log(JSON.stringify({ done: true }));
