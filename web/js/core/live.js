// @ts-check
// The live stream: the GraphQL `gameEvents` subscription over graphql-transport-ws.
// It resubscribes by itself after any drop with `after` = the last sequence number it delivered,
// and drops anything at or below it, so no event is lost and none comes twice.
// Moves ride the same socket while it is live (`submit`): a `submitChoice` operation beside the
// subscription, answered by one `next` and `complete`.

import { ApiError } from "./api.js";
import { language } from "./i18n.js";

const QUERY = "subscription Live($gameId: ID!, $after: Int!) { gameEvents(gameId: $gameId, after: $after) { seq type data } }";
const MOVE = "mutation Move($gameId: ID!, $choice: JSON!, $decisionVersion: Int, $key: String) { submitChoice(gameId: $gameId, choice: $choice, decisionVersion: $decisionVersion, idempotencyKey: $key) { __typename ... on SubmitResult { version } ... on Problem { code httpStatus detail } } }";
const TERMINAL = new Set(["game_over", "game_aborted"]);
const EVENTS = "events";

/** The socket closed before a move's answer came: whether it was made is unknown, so send it
 * again with the same idempotency key (it is made once). */
export class SocketLost extends Error {}

/**
 * The milliseconds a stream's errors ask to wait before subscribing again (a retryable error such
 * as database_unavailable carries `extensions.retry_after` in seconds), or null for an error that
 * is not retryable: the guide's rule, for the game's events and the chat alike.
 * @param {any} errors a `next` frame's `errors`, or an `error` frame's payload
 * @returns {number | null}
 */
export function retryWait(errors) {
  const wait = (Array.isArray(errors) ? errors[0] : null)?.extensions?.retry_after;
  return typeof wait === "number" ? wait * 1000 : null;
}

/**
 * How long to wait before the next attempt after `retry` failed ones in a row: doubling from
 * 0.3 s, at most 5 s.
 * @param {number} retry
 */
export function backoff(retry) {
  return Math.min(5000, 300 * 2 ** retry);
}

/**
 * Follow a game (`token`: a seat token, or a function giving the current one at each connect):
 * onEvent(event) for each new event in order; onStatus("live" | "reconnecting" |
 * "ended" | "error", detail, the token the socket used). Returns {close()}.
 * @param {object} options
 * @param {string} options.gameId
 * @param {string | null | (() => string | null)} options.token
 * @param {number} options.after the last sequence number already shown
 * @param {(event: import("./types.js").GameEvent) => void} options.onEvent
 * @param {(status: "live" | "reconnecting" | "ended" | "error", detail?: string, used?: string | null) => void} options.onStatus
 */
export function followGame({ gameId, token, after, onEvent, onStatus }) {
  let last = after;
  /** @type {WebSocket | null} */
  let socket = null;
  let closed = false;
  let retry = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** The token the live socket was opened with (undefined: no socket acknowledged). */
  /** @type {string | null | undefined} */
  let liveToken;
  let moves = 0;
  /** Moves sent over the socket and not answered yet, by operation id. */
  /** @type {Map<string, { resolve: (answer: { version: number }) => void, reject: (failure: Error) => void }>} */
  const inFlight = new Map();

  function connect() {
    // ?game= takes the socket to the worker that owns the game (README, "One owner per game").
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql?game=${encodeURIComponent(gameId)}`;
    const open = new WebSocket(url, "graphql-transport-ws");
    socket = open;
    let ended = false;
    /** @type {number | null} Milliseconds to wait before following again, set by a retryable error. */
    let pausedFor = null;
    /** @type {string | null} */
    let bearer = null;
    open.onopen = () => {
      bearer = (typeof token === "function" ? token() : token) || null;
      /** @type {Record<string, string>} */
      const payload = { "accept-language": language() };
      if (bearer) payload.authorization = `Bearer ${bearer}`;
      open.send(JSON.stringify({ type: "connection_init", payload }));
    };
    open.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      const move = frame.id !== undefined && frame.id !== EVENTS ? inFlight.get(frame.id) : undefined;
      if (move) {
        answered(frame, move);
      } else if (frame.id !== undefined && frame.id !== EVENTS) {
        // the rest of a move already answered (its `complete`)
      } else if (frame.type === "connection_ack") {
        retry = 0;
        liveToken = bearer;
        onStatus("live");
        open.send(JSON.stringify({ id: "events", type: "subscribe", payload: { query: QUERY, variables: { gameId, after: last } } }));
      } else if (frame.type === "ping") {
        open.send(JSON.stringify({ type: "pong" }));
      } else if (frame.type === "next") {
        if (frame.payload.errors) { failed(frame.payload.errors); return; }
        const event = frame.payload.data.gameEvents;
        if (event.seq <= last) return;
        last = event.seq;
        onEvent(event);
        if (TERMINAL.has(event.type)) ended = true;
      } else if (frame.type === "error") {
        failed(frame.payload);
      } else if (frame.type === "complete") {
        if (pausedFor !== null) return; // the end of a stream a retryable error stopped
        ended = true;
        closed = true;
        onStatus("ended");
        open.close();
      }
    };
    /**
     * The stream's failure: a retryable one (database_unavailable, with its seconds to wait) is
     * followed again after that wait, from the last event (the guide's rule); another is shown.
     * @param {any} errors
     */
    function failed(errors) {
      pausedFor = retryWait(errors);
      if (pausedFor !== null) {
        open.close();
        return;
      }
      onStatus("error", (Array.isArray(errors) ? errors[0] : null)?.message, bearer);
    }
    open.onclose = () => {
      liveToken = undefined;
      for (const move of inFlight.values()) move.reject(new SocketLost("the connection closed before the move's answer"));
      inFlight.clear();
      if (closed || ended) { if (ended && !closed) { closed = true; onStatus("ended"); } return; }
      onStatus("reconnecting");
      const delay = pausedFor ?? backoff(retry++);
      timer = setTimeout(connect, delay);
    };
  }

  /**
   * A move's answer: its `next` settles the move, a `Problem` or an error as the REST call would fail.
   * @param {any} frame
   * @param {{ resolve: (answer: { version: number }) => void, reject: (failure: Error) => void }} move
   */
  function answered(frame, move) {
    inFlight.delete(frame.id);
    const result = frame.type === "next" ? frame.payload?.data?.submitChoice : null;
    if (result?.__typename === "SubmitResult") {
      move.resolve({ version: result.version });
    } else if (result?.__typename === "Problem") {
      move.reject(new ApiError(result.httpStatus, { code: result.code, detail: result.detail }));
    } else {
      const errors = frame.type === "error" ? frame.payload : frame.payload?.errors;
      const first = Array.isArray(errors) ? errors[0] : null;
      move.reject(new ApiError(500, { code: first?.extensions?.code, detail: first?.extensions?.detail || first?.message }));
    }
  }

  connect();
  return {
    get last() { return last; },
    /**
     * Send a move over the live socket, if it is open with this token: its answer as the REST
     * submit's (`{version}`), an ApiError for a refusal, SocketLost if the socket closes first.
     * Null when there is no such socket (then send it over REST).
     * @param {string | null} seat the seat token
     * @param {import("./types.js").Choice} choice
     * @param {number | null} decisionVersion
     * @param {string} key the move's idempotency key
     * @returns {Promise<{ version: number }> | null}
     */
    submit(seat, choice, decisionVersion, key) {
      if (!socket || socket.readyState !== WebSocket.OPEN || liveToken === undefined || liveToken !== seat || !seat) return null;
      const id = `move-${++moves}`;
      const sent = socket;
      return new Promise((resolve, reject) => {
        inFlight.set(id, { resolve, reject });
        const variables = { gameId, choice, decisionVersion: decisionVersion ?? null, key };
        sent.send(JSON.stringify({ id, type: "subscribe", payload: { query: MOVE, variables } }));
      });
    },
    /** Drop the connection and follow again at once (with the token as it is now). */
    reconnect() {
      if (closed) return;
      retry = 0;
      if (socket) socket.close();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (socket) socket.close();
    },
  };
}
