// @ts-check
// The live stream: the GraphQL `gameEvents` subscription over graphql-transport-ws.
// It resubscribes by itself after any drop with `after` = the last sequence number it delivered,
// and drops anything at or below it, so no event is lost and none comes twice.

const QUERY = "subscription Live($gameId: ID!, $after: Int!) { gameEvents(gameId: $gameId, after: $after) { seq type data } }";
const TERMINAL = new Set(["game_over", "game_aborted"]);

/**
 * Follow a game (`token`: a seat token, or a function giving the current one at each connect):
 * onEvent(event) for each new event in order; onStatus("live" | "reconnecting" |
 * "ended" | "error", detail). Returns {close()}.
 * @param {object} options
 * @param {string} options.gameId
 * @param {string | null | (() => string | null)} options.token
 * @param {number} options.after the last sequence number already shown
 * @param {(event: import("./types.js").GameEvent) => void} options.onEvent
 * @param {(status: "live" | "reconnecting" | "ended" | "error", detail?: string) => void} options.onStatus
 */
export function followGame({ gameId, token, after, onEvent, onStatus }) {
  let last = after;
  /** @type {WebSocket | null} */
  let socket = null;
  let closed = false;
  let retry = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  function connect() {
    // ?game= takes the socket to the worker that owns the game (README, "One owner per game").
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql?game=${encodeURIComponent(gameId)}`;
    const open = new WebSocket(url, "graphql-transport-ws");
    socket = open;
    let ended = false;
    open.onopen = () => {
      const bearer = typeof token === "function" ? token() : token;
      open.send(JSON.stringify({ type: "connection_init", payload: bearer ? { authorization: `Bearer ${bearer}` } : {} }));
    };
    open.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "connection_ack") {
        retry = 0;
        onStatus("live");
        open.send(JSON.stringify({ id: "events", type: "subscribe", payload: { query: QUERY, variables: { gameId, after: last } } }));
      } else if (frame.type === "ping") {
        open.send(JSON.stringify({ type: "pong" }));
      } else if (frame.type === "next") {
        if (frame.payload.errors) { onStatus("error", frame.payload.errors[0]?.message); return; }
        const event = frame.payload.data.gameEvents;
        if (event.seq <= last) return;
        last = event.seq;
        onEvent(event);
        if (TERMINAL.has(event.type)) ended = true;
      } else if (frame.type === "error") {
        onStatus("error", frame.payload?.[0]?.message);
      } else if (frame.type === "complete") {
        ended = true;
        closed = true;
        onStatus("ended");
        open.close();
      }
    };
    open.onclose = () => {
      if (closed || ended) { if (ended && !closed) { closed = true; onStatus("ended"); } return; }
      onStatus("reconnecting");
      const delay = Math.min(5000, 300 * 2 ** retry++);
      timer = setTimeout(connect, delay);
    };
  }

  connect();
  return {
    get last() { return last; },
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
