// @ts-check
// Table talk: the game's chat beside the board. Every message is drawn as text (text nodes, never
// HTML), isolated from the text around it (dir=auto, CSS unicode-bidi: isolate) and wrapped
// anywhere, so no message can run scripts, reverse its neighbours or widen the page. History comes
// from the server (a reload shows it again); new entries come live on the `chatMessages`
// subscription, which resumes after the last entry it delivered.

import { h, clear } from "../core/dom.js";
import { language, t } from "../core/i18n.js";
import { messageOf } from "../core/api.js";
import { backoff, retryWait } from "../core/live.js";

/**
 * A line of the chat: a message (free text or a phrase) or a note (a seat muted, hidden, ...).
 * @typedef {object} ChatEntry
 * @property {number} seq
 * @property {"message" | "muted" | "unmuted" | "hidden" | "shown"} kind
 * @property {number | null} seat
 * @property {number | null} target
 * @property {string | null} text
 * @property {string | null} phrase
 */

const PHRASES = ["hello", "good_luck", "your_turn", "thinking", "one_moment", "well_played", "oops", "thanks", "good_game", "bye"];
const MAX_LENGTH = 500;
const FOLLOW = "subscription Chat($gameId: ID!, $after: Int!, $lang: String) { chatMessages(gameId: $gameId, after: $after, lang: $lang) { seq kind seat target text phrase } }";

/**
 * @param {string} method
 * @param {string} path
 * @param {string | null} token
 * @param {unknown} [body]
 */
async function request(method, path, token, body) {
  /** @type {Record<string, string>} */
  const headers = { "Accept": "application/json", "Accept-Language": language() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.detail || `HTTP ${response.status}`);
  return data;
}

/**
 * Follow the chat live after `after`: onEntry(entry) in order, each once. Returns {close()}.
 * @param {object} options
 * @param {string} options.gameId
 * @param {string | null} options.token
 * @param {number} options.after
 * @param {(entry: ChatEntry) => void} options.onEntry
 */
function followChat({ gameId, token, after, onEntry }) {
  let last = after;
  /** @type {WebSocket | null} */
  let socket = null;
  let closed = false;
  let retry = 0;
  /** @type {number | null} milliseconds a retryable error asked to wait before following again */
  let pausedFor = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  function connect() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql?game=${encodeURIComponent(gameId)}`;
    const open = new WebSocket(url, "graphql-transport-ws");
    socket = open;
    open.onopen = () => open.send(JSON.stringify({ type: "connection_init", payload: token ? { authorization: `Bearer ${token}` } : {} }));
    open.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "connection_ack") {
        retry = 0;
        open.send(JSON.stringify({ id: "chat", type: "subscribe", payload: { query: FOLLOW, variables: { gameId, after: last, lang: language() } } }));
      } else if (frame.type === "ping") {
        open.send(JSON.stringify({ type: "pong" }));
      } else if (frame.type === "next" && frame.payload.errors) {
        failed(frame.payload.errors);
      } else if (frame.type === "next" && frame.payload.data) {
        const entry = frame.payload.data.chatMessages;
        if (entry.seq <= last) return;
        last = entry.seq;
        onEntry(entry);
      } else if (frame.type === "error") {
        failed(frame.payload);
      }
    };
    /**
     * The stream's failure: a retryable one (database_unavailable, with its seconds to wait) is
     * followed again after that wait, from the last entry (the guide's rule, as for the game's
     * events); another leaves the chat as it is.
     * @param {any} errors
     */
    function failed(errors) {
      pausedFor = retryWait(errors);
      if (pausedFor !== null) open.close();
    }
    open.onclose = () => {
      if (closed) return;
      const delay = pausedFor ?? backoff(retry++);
      pausedFor = null;
      timer = setTimeout(connect, delay);
    };
  }
  connect();
  return {
    get last() { return last; },
    close() { closed = true; clearTimeout(timer); if (socket) socket.close(); },
  };
}

/**
 * The chat panel of a game page. `seatBadge(seat)` draws a seat's name; `game()` is the current
 * game view (its seats and the viewer's seat). Returns {element, update(), close()}.
 * @param {object} options
 * @param {string} options.gameId
 * @param {string | null} options.token the viewer's seat token (null: a spectator)
 * @param {string | null} options.hostToken
 * @param {() => import("../core/types.js").GameView | null} options.game
 * @param {(seat: number | null) => HTMLElement} options.seatBadge
 */
export function chatPanel({ gameId, token, hostToken, game, seatBadge }) {
  /** @type {{ seat: number | null, canWrite: boolean, muted: number[], hidden: number[], last: number, live: { close(): void } | null, busy: boolean }} */
  const state = { seat: null, canWrite: false, muted: [], hidden: [], last: 0, live: null, busy: false };
  const log = h("ol", { id: "chat-log", class: "chat-log", "aria-live": "polite", tabindex: 0, "aria-label": t("chat.title") });
  const input = h("input", { id: "chat-input", type: "text", maxlength: MAX_LENGTH, autocomplete: "off", "aria-label": t("chat.message") });
  const send = h("button", { type: "submit", id: "chat-send" }, [t("chat.send")]);
  const error = h("p", { id: "chat-error", class: "error", role: "alert" });
  const phrases = h("div", { class: "chat-phrases", id: "chat-phrases" }, PHRASES.map((code) =>
    h("button", { type: "button", class: "phrase", dataset: { phrase: code }, onclick: () => post({ phrase: code }) }, [t(`chat.phrase.${code}`)])));
  const form = h("form", { id: "chat-form", class: "chat-form", onsubmit: (/** @type {SubmitEvent} */ event) => { event.preventDefault(); post({ text: input.value }); } }, [input, send]);
  const settings = h("div", { id: "chat-seats", class: "chat-seats" });
  const readOnly = h("p", { id: "chat-read-only", class: "muted-note" });
  const element = h("section", { id: "chat", class: "card chat" }, [
    h("h2", {}, [t("chat.title")]), log, readOnly, phrases, form, error,
    // Its seats are listed again when it opens: seats may have joined since.
    h("details", { class: "chat-settings", ontoggle: controls }, [h("summary", {}, [t("chat.settings")]), settings]),
  ]);

  let followEnd = true;
  log.addEventListener("scroll", () => { followEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24; });

  /**
   * @param {ChatEntry} entry
   */
  function line(entry) {
    if (entry.kind === "message") {
      const text = h("span", { class: "chat-text", dir: "auto" }, [entry.text ?? ""]);
      return h("li", { class: entry.phrase ? "phrase-line" : null, dataset: { seq: entry.seq, seat: entry.seat } }, [seatBadge(entry.seat), ": ", text]);
    }
    const key = { muted: "chat.was_muted", unmuted: "chat.was_unmuted", hidden: "chat.you_hid", shown: "chat.you_showed" }[entry.kind];
    const name = h("span", { class: "chat-text", dir: "auto" }, [seatBadge(entry.target)]);
    return h("li", { class: "chat-note", dataset: { seq: entry.seq, kind: entry.kind } }, [t(key), " ", name]);
  }

  /**
   * @param {ChatEntry} entry
   */
  function add(entry) {
    if (log.querySelector(`li[data-seq="${entry.seq}"]`)) return;
    log.append(line(entry));
    if (followEnd) log.scrollTop = log.scrollHeight;
  }

  function controls() {
    const mySeat = state.seat;
    readOnly.textContent = state.canWrite ? "" : t(mySeat === null ? "chat.read_only" : "chat.you_are_muted");
    readOnly.hidden = state.canWrite;
    for (const node of [input, send, ...phrases.querySelectorAll("button")]) node.disabled = !state.canWrite || state.busy;
    clear(settings);
    const list = h("ul", { class: "chat-seat-list" });
    for (const seat of game()?.seats || []) {
      const row = h("li", { dataset: { seat: seat.seat } }, [seatBadge(seat.seat)]);
      if (mySeat !== null && seat.seat !== mySeat) {
        const hidden = state.hidden.includes(seat.seat);
        row.append(" ", h("button", { type: "button", class: "chat-hide", dataset: { seat: seat.seat }, "aria-pressed": String(hidden), onclick: () => change(hidden ? "DELETE" : "PUT", `hidden/${seat.seat}`, token) }, [t(hidden ? "chat.show" : "chat.hide")]));
      }
      if (hostToken) {
        const muted = state.muted.includes(seat.seat);
        row.append(" ", h("button", { type: "button", class: "chat-mute", dataset: { seat: seat.seat }, "aria-pressed": String(muted), onclick: () => change(muted ? "DELETE" : "PUT", `mutes/${seat.seat}`, hostToken) }, [t(muted ? "chat.unmute" : "chat.mute")]));
      }
      list.append(row);
    }
    settings.append(list);
  }

  let generation = 0; // a newer load() makes an older one stop where it is
  async function load() {
    const mine = ++generation;
    if (state.live) { state.live.close(); state.live = null; }
    let after = 0;
    const entries = [];
    for (;;) {
      const page = await request("GET", `/v1/games/${gameId}/chat?after=${after}&limit=500`, token || hostToken);
      if (mine !== generation) return;
      Object.assign(state, { seat: page.seat, canWrite: page.can_write, muted: page.muted, hidden: page.hidden });
      entries.push(...page.entries);
      if (page.last_seq <= after) break;
      after = page.last_seq;
    }
    clear(log);
    entries.forEach(add);
    state.last = after;
    controls();
    state.live = followChat({ gameId, token: token || hostToken, after, onEntry });
    element.dataset.ready = "true";
  }

  /**
   * @param {ChatEntry} entry
   */
  function onEntry(entry) {
    if (entry.kind === "hidden" || entry.kind === "shown") { load(); return; } // who is hidden changed: read again
    if (entry.kind === "muted" || entry.kind === "unmuted") {
      const target = entry.target ?? -1;
      state.muted = entry.kind === "muted" ? [...new Set([...state.muted, target])] : state.muted.filter((seat) => seat !== entry.target);
      if (entry.target === state.seat) state.canWrite = entry.kind === "unmuted";
      controls();
    }
    add(entry);
  }

  /**
   * @param {{ text?: string, phrase?: string }} body
   */
  async function post(body) {
    if (state.busy) return;
    error.textContent = "";
    state.busy = true;
    controls();
    try {
      add(await request("POST", `/v1/games/${gameId}/chat`, token, body));
      if (body.text !== undefined) input.value = "";
    } catch (failure) {
      error.textContent = messageOf(failure);
    } finally {
      state.busy = false;
      controls();
      if (body.text !== undefined) input.focus();
    }
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {string | null} bearer
   */
  async function change(method, path, bearer) {
    error.textContent = "";
    try {
      await request(method, `/v1/games/${gameId}/chat/${path}`, bearer);
      await load();
    } catch (failure) {
      error.textContent = messageOf(failure);
    }
  }

  load().catch((failure) => { error.textContent = messageOf(failure); });
  return {
    element,
    update: controls,
    close() { if (state.live) state.live.close(); },
  };
}
