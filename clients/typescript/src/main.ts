// Plays a whole game of each hosted type with the REST client generated from /openapi.json and
// another with the GraphQL types generated from the served schema, against random bots, and checks
// the Standard Webhooks signature of the deliveries a host's endpoint on 127.0.0.1 receives.
// Run: TABLETOP_URL=http://127.0.0.1:8000 npm run play (after npm run generate && npm run build;
// Node 22 has WebSocket built in, Node 20 needs --experimental-websocket, which `play` passes).
import { readFileSync } from "node:fs";
import { client } from "./rest/client.gen.js";
import { createGame, createWebhook, getChoices, getGame, joinGame, listEvents, startGame, submitChoice } from "./rest/sdk.gen.js";
import type { ChoicesPublic, EventsPage, GamePublic, WebhookCreate } from "./rest/types.gen.js";
import type {
  ChoicesQuery, CreateGameMutation, CreateGameMutationVariables, DeliveriesQuery, EventsQuery, GameChoice, GameQuery,
  SubmitChoiceMutation, SubmitChoiceMutationVariables,
} from "./gql/types.js";
import { startReceiver } from "./webhooks.js";

const base = process.env.TABLETOP_URL ?? "http://127.0.0.1:8000";
/** fetch, sent once more when the server closed a kept-alive connection under the request: a
 * client idle for a few seconds meets this. Safe for a move too: it carries its decision_version,
 * so a move that did land the first time is refused (409 version_conflict), never applied twice. */
async function fetchAgainIfClosed(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const copy = input instanceof Request ? input.clone() : input;
  try {
    return await fetch(input, init);
  } catch (error: unknown) {
    const cause = error instanceof Error ? error.cause : null;
    const closed = cause instanceof Error && "code" in cause && cause.code === "UND_ERR_SOCKET";
    if (!closed) throw error;
    return await fetch(copy, init);
  }
}
client.setConfig({ baseUrl: base, fetch: fetchAgainIfClosed });
type Slug = "im-schutze-der-burg" | "keythedral" | "carcassonne";
const GAMES: readonly Slug[] = ["im-schutze-der-burg", "keythedral", "carcassonne"];
const MAX_POLLS = 20000;
const documents = readFileSync(new URL("../../src/graphql/play.graphql", import.meta.url), "utf8");

/** Which listed choice to send: a random one, as the server's random bot does (always the first
 * can make a game of Keythedral last a thousand moves). */
const pick = <T>(choices: readonly T[]): T | undefined => choices[Math.floor(Math.random() * choices.length)];

/** Refusals that say the game moved on between reading our choices and answering: the other
 * seat's move closed our decision (a window to play a law card: 409 version_conflict) or ended
 * the game (409 game_over). Read the choices, and then the game, again. */
const READ_AGAIN: ReadonlySet<string> = new Set(["version_conflict", "game_over"]);

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`missing ${what}`);
  return value;
}

type Seated = { id: string; host: string; token: string; secret: string; webhookId: string };

/** A created game with a host's webhook to our receiver, our seat 0 and a random bot, started. */
async function seated(id: string, host: string, receiverUrl: string): Promise<Seated> {
  const body: WebhookCreate = { url: receiverUrl, filters: ["game_started", "game_over"], game_id: id };
  const hook = (await createWebhook({ body, auth: host, throwOnError: true })).data;
  const me = await joinGame({ path: { game_id: id }, body: { name: "Sample" }, throwOnError: true });
  const token = required(me.data.token, "seat token");
  await joinGame({ path: { game_id: id }, body: { bot: "random" }, auth: host, throwOnError: true });
  await startGame({ path: { game_id: id }, auth: host, throwOnError: true });
  return { id, host, token, secret: required(hook.secret, "webhook secret"), webhookId: hook.id };
}

/** One of the listed choices of our seat, typed by its game's own Choice type (narrowed by
 * `game_type`), or undefined when our seat has nothing to decide. */
function restMove(pending: ChoicesPublic) {
  switch (pending.game_type) {
    case "carcassonne":
      return pick(pending.choices);
    case "keythedral":
      return pick(pending.choices);
    case "im-schutze-der-burg":
      return pick(pending.choices);
    default:
      throw new Error("not a game this sample plays");
  }
}

/** A line about the typed final REST state: fields of each game's own View, Options and result
 * details types. */
function describeRestState(game: GamePublic): string {
  switch (game.type) {
    case "carcassonne": {
      const details = required(game.result, "result").details;
      return `${required(game.state, "state").board.length} tiles on the board, farm scoring ` +
        `${game.options.farm_scoring}, ${details.breakdown.map((seat) => seat.cities).join("/")} city points`;
    }
    case "keythedral": {
      const details = required(game.result, "result").details;
      return `round ${required(game.state, "state").round}, phase ${required(game.state, "state").phase}, ` +
        `length ${game.options.length}, ${details.rounds} rounds played`;
    }
    case "im-schutze-der-burg": {
      const details = required(game.result, "result").details;
      return `round ${required(game.state, "state").round}, ${required(game.state, "state").players.length} players, ` +
        `winter ${game.options.winter}, game VP ${details.players.map((seat) => seat.game_vp).join("/")}`;
    }
    default:
      throw new Error("not a game this sample plays");
  }
}

/** The typed events of a REST events page: every event's `type` is one of its game's. */
function eventTypes(page: EventsPage): Set<string> {
  switch (page.game_type) {
    case "carcassonne":
      return new Set(page.events.map((event) => event.type));
    case "keythedral":
      return new Set(page.events.map((event) => event.type));
    case "im-schutze-der-burg":
      return new Set(page.events.map((event) => event.type));
    default:
      throw new Error("not a game this sample plays");
  }
}

/** REST: answer every decision of our seat with one of its listed choices until the game ends. */
async function playRest(type: Slug, receiverUrl: string): Promise<Seated> {
  const created = (await createGame({ body: { type }, throwOnError: true })).data;
  const game = await seated(created.id, created.host_token, receiverUrl);
  let moves = 0;
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    const pending = (await getChoices({ path: { game_id: game.id }, auth: game.token, throwOnError: true })).data;
    const first = restMove(pending);
    if (first !== undefined) {
      const sent = await submitChoice({
        path: { game_id: game.id },
        body: { choice: first, decision_version: pending.decision_version },
        auth: game.token,
      });
      if (sent.error !== undefined && !READ_AGAIN.has(sent.error.code)) throw new Error(`submit: ${sent.error.code}`);
      if (sent.error === undefined) moves++;
      continue;
    }
    const state = (await getGame({ path: { game_id: game.id }, auth: game.token, throwOnError: true })).data;
    if (state.status === "finished") {
      const result = required(state.result, "result");
      const page = (await listEvents({ path: { game_id: game.id }, query: { limit: 1000 }, auth: game.token, throwOnError: true })).data;
      console.log(`REST ${type}: finished after ${moves} own moves, scores ${result.scores.join("/")}, ` +
        `${describeRestState(state)}, ${eventTypes(page).size} event types`);
      return game;
    }
    await pause(20);
  }
  throw new Error(`REST ${type}: not finished after ${MAX_POLLS} polls`);
}

type GraphQLAnswer<T> = { data: T | null; errors?: { message: string }[] };

/** One operation of play.graphql, as `token`'s bearer (null: anonymous). */
async function graphql<T>(operationName: string, variables: object, token: string | null): Promise<T> {
  const bearer: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  const answer = await fetchAgainIfClosed(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer },
    body: JSON.stringify({ query: documents, operationName, variables }),
  });
  const body: GraphQLAnswer<T> = await answer.json();
  if (body.errors?.length) throw new Error(`${operationName}: ${body.errors.map((e) => e.message).join("; ")}`);
  return required(body.data, `${operationName} data`);
}

/** A graphql-transport-ws message, as far as this sample reads one. */
type Frame = { id?: string; type: string; payload?: { data?: SubmitChoiceMutation | null; errors?: { message: string }[] } };

function isFrame(value: unknown): value is Frame {
  return typeof value === "object" && value !== null && "type" in value && typeof value.type === "string";
}

/** The websocket a seat would follow its game on (graphql-transport-ws), carrying its moves:
 * each `submitChoice` is an operation of its own, answered by one `next` (then `complete`). */
class MoveSocket {
  private readonly waiting = new Map<string, (frame: Frame) => void>();
  private sent = 0;

  private constructor(private readonly socket: WebSocket) {}

  static async open(token: string): Promise<MoveSocket> {
    const socket = new WebSocket(`${base.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    const moves = new MoveSocket(socket);
    await new Promise<void>((ready, failed) => {
      socket.onopen = () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${token}` } }));
      socket.onclose = (closed) => failed(new Error(`websocket closed: ${closed.code} ${closed.reason}`));
      socket.onmessage = (message) => {
        const frame: unknown = JSON.parse(String(message.data));
        if (!isFrame(frame)) return;
        if (frame.type === "connection_ack") ready();
        else if (frame.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
        else if (frame.id !== undefined) moves.waiting.get(frame.id)?.(frame);
      };
    });
    socket.onclose = (closed) => {
      for (const answer of moves.waiting.values()) answer({ type: `closed ${closed.code}` });
      moves.waiting.clear();
    };
    return moves;
  }

  /** `submitChoice` over the socket: its data, as over HTTP. */
  submit(variables: SubmitChoiceMutationVariables): Promise<SubmitChoiceMutation> {
    const id = `move-${++this.sent}`;
    return new Promise((done, failed) => {
      this.waiting.set(id, (frame) => {
        this.waiting.delete(id);
        const data = frame.type === "next" ? frame.payload?.data : null;
        if (data) done(data);
        else failed(new Error(`submitChoice over the socket: ${JSON.stringify(frame)}`));
      });
      const payload = { query: documents, operationName: "SubmitChoice", variables };
      this.socket.send(JSON.stringify({ id, type: "subscribe", payload }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

/** One of the legal choices of our seat under its game's field of the `@oneOf` input
 * `GameChoice`, each typed by the game's own Choice type; undefined when there is none. */
function graphqlMove(type: Slug, answer: ChoicesQuery["choices"]): GameChoice | undefined {
  if (answer.__typename !== "Choices") throw new Error(`choices: ${answer.code}`);
  switch (type) {
    case "carcassonne": {
      const choice = pick(answer.carcassonneChoices ?? []);
      return choice === undefined ? undefined : { carcassonne: choice };
    }
    case "keythedral": {
      const choice = pick(answer.keythedralChoices ?? []);
      return choice === undefined ? undefined : { keythedral: choice };
    }
    case "im-schutze-der-burg": {
      const choice = pick(answer.imSchutzeDerBurgChoices ?? []);
      return choice === undefined ? undefined : { imSchutzeDerBurg: choice };
    }
  }
}

/** A line about the typed final state: reads fields of each game's own View, Options and result
 * details types. */
function describeState(type: Slug, game: GameQuery["game"]): string {
  if (game.__typename !== "Game") throw new Error(`game: ${game.code}`);
  const result = required(game.result, "result");
  if (type === "carcassonne") {
    const state = required(game.carcassonneState, "carcassonneState");
    const options = required(game.carcassonneOptions, "carcassonneOptions");
    const details = required(result.carcassonneDetails, "carcassonneDetails");
    return `${state.board.length} tiles on the board, farm scoring ${options.farm_scoring}, ` +
      `${details.breakdown.map((seat) => seat.cities).join("/")} city points`;
  }
  if (type === "keythedral") {
    const state = required(game.keythedralState, "keythedralState");
    const options = required(game.keythedralOptions, "keythedralOptions");
    const details = required(result.keythedralDetails, "keythedralDetails");
    return `round ${state.round}, phase ${state.phase}, length ${options.length}, ${details.rounds} rounds played`;
  }
  const state = required(game.imSchutzeDerBurgState, "imSchutzeDerBurgState");
  const options = required(game.imSchutzeDerBurgOptions, "imSchutzeDerBurgOptions");
  const details = required(result.imSchutzeDerBurgDetails, "imSchutzeDerBurgDetails");
  return `round ${state.round}, ${state.players.length} players, winter ${options.winter}, ` +
    `game VP ${details.players.map((seat) => seat.game_vp).join("/")}`;
}

/** The option values this sample sets, under the game's field of the `@oneOf` input
 * `GameOptions`, each typed by its game's `<Game>OptionsInput`. */
function graphqlOptions(type: Slug): CreateGameMutationVariables["options"] {
  switch (type) {
    case "carcassonne":
      return { carcassonne: { farm_scoring: "v2" } };
    case "keythedral":
      return { keythedral: { length: "short" } };
    case "im-schutze-der-burg":
      return { imSchutzeDerBurg: { winter: true } };
  }
}

/** How many of the game's webhook deliveries GraphQL lists with their payload typed by the
 * game's `<Game>WebhookEventPayload` (its event's `type` read from it). */
async function typedDeliveries(type: Slug, game: Seated): Promise<number> {
  const listed = await graphql<DeliveriesQuery>("Deliveries", { webhookId: game.webhookId }, game.host);
  if (listed.webhookDeliveries.__typename !== "WebhookDeliveries") throw new Error(`deliveries: ${listed.webhookDeliveries.code}`);
  const types = listed.webhookDeliveries.deliveries.map((delivery) => {
    if (type === "carcassonne") return delivery.carcassonnePayload?.event.type;
    if (type === "keythedral") return delivery.keythedralPayload?.event.type;
    return delivery.imSchutzeDerBurgPayload?.event.type;
  });
  if (types.some((eventType) => eventType === undefined)) throw new Error(`${type}: a delivery its game does not type`);
  if (!types.includes("game_over")) throw new Error(`${type}: no game_over delivery listed`);
  return types.length;
}

type EventPage = Extract<EventsQuery["events"], { __typename: "EventPage" }>;

/** Every event of the game, one page after the other (`after`: the last page's `lastSeq`). */
async function allEvents(game: Seated): Promise<EventPage["events"]> {
  const events: EventPage["events"] = [];
  for (let after = 0; ;) {
    const page = (await graphql<EventsQuery>("Events", { gameId: game.id, after }, game.token)).events;
    if (page.__typename !== "EventPage") throw new Error(`events: ${page.code}`);
    events.push(...page.events);
    if (page.lastSeq === after) return events;
    after = page.lastSeq;
  }
}

/** GraphQL: a game created with typed options, the same game loop through `choices` and
 * `submitChoice` (over the seat's websocket), then typed state, options, result, events and
 * webhook deliveries. */
async function playGraphQL(type: Slug, receiverUrl: string): Promise<Seated> {
  const variables: CreateGameMutationVariables = { type, options: graphqlOptions(type) };
  const created = (await graphql<CreateGameMutation>("CreateGame", variables, null)).createGame;
  if (created.__typename !== "GameCreated") throw new Error(`create: ${created.code}`);
  const asked = created.carcassonneOptions?.farm_scoring ?? created.keythedralOptions?.length ?? created.imSchutzeDerBurgOptions?.winter;
  if (asked === undefined) throw new Error(`${type}: the created game's options are not typed by its game`);
  const game = await seated(created.id, created.hostToken, receiverUrl);
  const socket = await MoveSocket.open(game.token);
  try {
    return await playOverSocket(type, game, socket);
  } finally {
    socket.close();
  }
}

/** The GraphQL game loop: choices read over HTTP, each move sent over the seat's websocket. */
async function playOverSocket(type: Slug, game: Seated, socket: MoveSocket): Promise<Seated> {
  let moves = 0;
  for (let poll = 0; poll < MAX_POLLS; poll++) {
    const pending = await graphql<ChoicesQuery>("Choices", { gameId: game.id }, game.token);
    const first = graphqlMove(type, pending.choices);
    if (first !== undefined && pending.choices.__typename === "Choices") {
      const variables: SubmitChoiceMutationVariables = {
        gameId: game.id, choice: first, decisionVersion: pending.choices.decisionVersion,
      };
      const sent = await socket.submit(variables);
      if (sent.submitChoice.__typename === "Problem") {
        if (!READ_AGAIN.has(sent.submitChoice.code)) throw new Error(`submit: ${sent.submitChoice.code}`);
        continue; // as over REST: read the choices (and the game) again
      }
      moves++;
      continue;
    }
    const seen = await graphql<GameQuery>("Game", { id: game.id }, game.token);
    if (seen.game.__typename === "Game" && seen.game.status === "finished") {
      const events = await allEvents(game);
      const typed = events.filter((e) => (e.carcassonne ?? e.keythedral ?? e.imSchutzeDerBurg) !== null);
      if (typed.length !== events.length) throw new Error(`${type}: an event its gameType does not type`);
      console.log(`GraphQL ${type}: finished after ${moves} own moves over the websocket, ${describeState(type, seen.game)}, ` +
        `${typed.length}/${events.length} events typed`);
      return game;
    }
    await pause(20);
  }
  throw new Error(`GraphQL ${type}: not finished after ${MAX_POLLS} polls`);
}

async function main(): Promise<void> {
  const receiver = await startReceiver();
  try {
    for (const type of GAMES) {
      const played = await playRest(type, receiver.url);
      const verified = await receiver.verifiedFor(played.id, played.secret);
      console.log(`webhook ${type}: ${verified} deliveries verified (Standard Webhooks signature)`);
      const viaGraphQL = await playGraphQL(type, receiver.url);
      const signed = await receiver.verifiedFor(viaGraphQL.id, viaGraphQL.secret);
      const typed = await typedDeliveries(type, viaGraphQL);
      console.log(`GraphQL webhook ${type}: ${signed} deliveries verified, ${typed} listed with typed payloads`);
    }
  } finally {
    receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
