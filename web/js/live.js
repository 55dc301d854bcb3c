// The live stream: the GraphQL `gameEvents` subscription over graphql-transport-ws.
// It resubscribes by itself after any drop with `after` = the last sequence number it delivered,
// and drops anything at or below it, so no event is lost and none comes twice.

const QUERY = "subscription Live($gameId: ID!, $after: Int!) { gameEvents(gameId: $gameId, after: $after) { seq type data } }";
const TERMINAL = new Set(["game_over", "game_aborted"]);

/**
 * Follow a game: onEvent(event) for each new event in order; onStatus("live" | "reconnecting" |
 * "ended" | "error", detail). Returns {close()}.
 */
export function followGame({ gameId, token, after, onEvent, onStatus }) {
  let last = after;
  let socket = null;
  let closed = false;
  let retry = 0;
  let timer = null;

  function connect() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
    socket = new WebSocket(url, "graphql-transport-ws");
    let ended = false;
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: "connection_init", payload: token ? { authorization: `Bearer ${token}` } : {} }));
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "connection_ack") {
        retry = 0;
        onStatus("live");
        socket.send(JSON.stringify({ id: "events", type: "subscribe", payload: { query: QUERY, variables: { gameId, after: last } } }));
      } else if (frame.type === "ping") {
        socket.send(JSON.stringify({ type: "pong" }));
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
        socket.close();
      }
    };
    socket.onclose = () => {
      if (closed || ended) { if (ended && !closed) { closed = true; onStatus("ended"); } return; }
      onStatus("reconnecting");
      const delay = Math.min(5000, 300 * 2 ** retry++);
      timer = setTimeout(connect, delay);
    };
  }

  connect();
  return {
    get last() { return last; },
    close() {
      closed = true;
      clearTimeout(timer);
      if (socket) socket.close();
    },
  };
}
