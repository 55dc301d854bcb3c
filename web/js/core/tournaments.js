// @ts-check
// Tournaments for the pages (pages/tournaments.js, pages/tournament.js): the REST calls of
// /v1/tournaments, what this browser keeps of the tournaments it hosts or plays in (host token,
// invite code, which entrant it is), and following one live: the tournament's SSE stream
// (GET /v1/tournaments/{id}/stream, resumed with Last-Event-ID by the browser itself) when the
// server offers it, else re-reading the REST views every few seconds.

import { api, call } from "./api.js";
import { playerToken, rememberPlayerToken } from "./store.js";

/**
 * @typedef {object} Entrant
 * @property {string} player_id
 * @property {string} name
 * @property {number} rating
 * @property {boolean} withdrawn
 */

/**
 * @typedef {object} Tournament
 * @property {string} id
 * @property {string} name
 * @property {string} game_type
 * @property {"round_robin" | "swiss" | "single_elimination"} format
 * @property {{ [name: string]: import("./types.js").Scalar }} options
 * @property {{ mode: string, seconds: number, increment?: number, on_expiry?: string } | null} clock
 * @property {"registering" | "running" | "finished" | "cancelled"} status
 * @property {number} rounds
 * @property {number} current_round
 * @property {number} table_size
 * @property {number} min_table_size
 * @property {number} max_players
 * @property {string | null} starts_at
 * @property {string | null} next_round_at
 * @property {string | null} finished_at
 * @property {boolean} private
 * @property {boolean} rated
 * @property {number} pause_seconds
 * @property {string} created_at
 * @property {number} version
 * @property {Entrant[]} entrants
 */

/**
 * @typedef {object} StandingRow
 * @property {number} rank
 * @property {string} player_id
 * @property {string} name
 * @property {number} points
 * @property {number} games
 * @property {number} byes
 * @property {number} buchholz
 * @property {number} sonneborn_berger
 * @property {number} rating
 * @property {boolean} withdrawn
 * @property {number} reached
 * @property {boolean} eliminated
 */

/**
 * @typedef {object} RoundTable
 * @property {number} number
 * @property {string} game_id
 * @property {{ seat: number, player_id: string, name: string, rank: number | null }[]} seats
 * @property {boolean} finished
 */

/** @typedef {{ round: number, tables: RoundTable[], byes: string[] }} Round */

/**
 * What a host sends (POST /v1/tournaments).
 * @typedef {object} TournamentCreate
 * @property {string} name
 * @property {string} game_type
 * @property {string} format
 * @property {{ [name: string]: import("./types.js").Scalar }} options
 * @property {object | undefined} clock
 * @property {number | undefined} rounds
 * @property {number | undefined} table_size
 * @property {number} max_players
 * @property {string | undefined} starts_at
 * @property {boolean} private
 * @property {boolean} rated
 * @property {number} pause_seconds
 */

/** @typedef {import("./api.js").Token} Token */

const base = (/** @type {string} */ id) => `/v1/tournaments/${encodeURIComponent(id)}`;

export const tournamentApi = {
  /** @type {(status: string | undefined) => Promise<Tournament[]>} */
  list: (status) => call("GET", "/v1/tournaments", { query: { status, limit: 50 } }),
  /** @type {(body: TournamentCreate) => Promise<{ tournament: Tournament, host_token: string, invite_code: string | null }>} */
  create: (body) => call("POST", "/v1/tournaments", { body }),
  /** @type {(id: string) => Promise<Tournament>} */
  get: (id) => call("GET", base(id)),
  /** @type {(id: string) => Promise<StandingRow[]>} */
  standings: (id) => call("GET", `${base(id)}/standings`),
  /** @type {(id: string) => Promise<Round[]>} */
  rounds: (id) => call("GET", `${base(id)}/rounds`),
  /** @type {(id: string, token: Token, inviteCode: string | null) => Promise<Tournament>} */
  register: (id, token, inviteCode) => call("POST", `${base(id)}/registrations`, { token, body: inviteCode ? { invite_code: inviteCode } : {} }),
  /** @type {(id: string, token: Token) => Promise<Tournament>} */
  unregister: (id, token) => call("DELETE", `${base(id)}/registrations/me`, { token }),
  /** @type {(id: string, token: Token) => Promise<Tournament>} */
  withdraw: (id, token) => call("POST", `${base(id)}/withdrawal`, { token }),
  /** @type {(id: string, token: Token) => Promise<Tournament>} */
  start: (id, token) => call("POST", `${base(id)}/start`, { token }),
  /** @type {(id: string, token: Token) => Promise<Tournament>} */
  cancel: (id, token) => call("POST", `${base(id)}/cancel`, { token }),
};

// -- what this browser keeps ----------------------------------------------------------------------

/**
 * @typedef {object} Kept
 * @property {string} [host] the host token (the browser that created it)
 * @property {string | null} [invite] a private tournament's invite code
 * @property {string} [me] this browser's entrant (a player id), once known
 * @property {number} [at] when (ms since the epoch) this browser last hosted, joined or opened it
 */

const KEY = "tabletop.tournaments";
const PLAYER_ID = "tabletop.playerId";

/** @returns {{ [id: string]: Kept }} */
function all() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

/**
 * @param {string} id
 * @returns {Kept}
 */
export function kept(id) {
  return all()[id] || {};
}

/**
 * @param {string} id
 * @param {Kept} values
 */
export function keep(id, values) {
  const every = all();
  every[id] = { ...(every[id] || {}), ...values, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(every));
}

/**
 * The tournaments this browser hosts or plays in (a private one is listed nowhere else), the
 * latest first.
 * @param {number} most
 */
export function myTournamentIds(most) {
  return Object.entries(all())
    .filter(([, values]) => values.host || values.me)
    .sort(([, a], [, b]) => (b.at ?? 0) - (a.at ?? 0))
    .slice(0, most)
    .map(([id]) => id);
}

/** This browser's player id when it is known (it made the player, or found itself in a tournament). */
export function myPlayerId() {
  return localStorage.getItem(PLAYER_ID) || null;
}

/**
 * This browser's player token, made under `name` when it has none (the id is kept too).
 * @param {string} name
 */
export async function playerTokenFor(name) {
  const token = playerToken();
  if (token) return token;
  const created = await api.createPlayer(name);
  rememberPlayerToken(created.token);
  localStorage.setItem(PLAYER_ID, /** @type {{ id: string }} */ (/** @type {unknown} */ (created)).id);
  return created.token;
}

/**
 * Which entrant this browser is in `tournament`: the one it registered as, else its player id, else
 * a seat of one of its games among the rounds (a browser that was signed in by a link knows no id).
 * @param {Tournament} tournament
 * @param {Round[]} rounds
 * @param {import("./types.js").MyGame[]} mine
 * @returns {string | null}
 */
export function whoAmI(tournament, rounds, mine) {
  const ids = new Set(tournament.entrants.map((entrant) => entrant.player_id));
  for (const candidate of [kept(tournament.id).me, myPlayerId()]) {
    if (candidate && ids.has(candidate)) return candidate;
  }
  const seats = new Map(mine.map((game) => [game.game_id, game.seat]));
  for (const round of rounds) {
    for (const table of round.tables) {
      const seat = seats.get(table.game_id);
      const player = table.seats.find((entry) => entry.seat === seat)?.player_id;
      if (player) {
        keep(tournament.id, { me: player });
        return player;
      }
    }
  }
  return null;
}

// -- one page at a time ---------------------------------------------------------------------------

let views = 0;
/** @type {(() => void) | null} */
let following = null;

/**
 * A tournament page being drawn: the router may start the next one (a language chosen, a link
 * followed) before this one has read what it shows. `current()` says whether it is still the
 * latest (else it must draw nothing), and the live updates of an earlier one are stopped.
 */
export function newView() {
  const number = ++views;
  following?.();
  following = null;
  return { current: () => number === views };
}

/**
 * The live updates of the page now shown, stopped when the next one starts.
 * @param {() => void} stop
 */
export function nowFollowing(stop) {
  following = stop;
  return () => { stop(); if (following === stop) following = null; };
}

// -- following one live ---------------------------------------------------------------------------

/** What the stream's events are called (domain/tournaments/tournament.py). */
const KINDS = [
  "player_registered", "player_unregistered", "player_withdrew", "tournament_started",
  "tournament_cancelled", "round_started", "game_finished", "round_finished", "tournament_finished",
];

/** How often the page reads the tournament again while no stream is open. */
export const POLL_MS = 3000;
/** While the stream is open, the page reads everything again every this many POLL_MS anyway. */
const STREAMING_EVERY = 10;

/**
 * Call `refresh` whenever the tournament may have changed: on each event of its SSE stream (and
 * every 30 s besides), and every POLL_MS while the stream is not open (none on this server, or lost: the browser retries it
 * with Last-Event-ID). `onMode` hears "live" or "polling". Returns the function that stops it all.
 * @param {string} id
 * @param {() => Promise<void>} refresh
 * @param {(mode: "live" | "polling") => void} onMode
 */
export function followTournament(id, refresh, onMode) {
  let stopped = false;
  /** @type {EventSource | null} */
  let source = null;
  let busy = false;
  let again = false;
  async function run() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      do { again = false; await refresh(); } while (again && !stopped);
    } catch {
      // a failed read is tried again at the next event or poll
    } finally {
      busy = false;
    }
  }
  const streaming = () => source !== null && source.readyState === EventSource.OPEN;
  let mode = "";
  /** @param {"live" | "polling"} next */
  const tell = (next) => { if (next !== mode) { mode = next; onMode(next); } };
  if (typeof EventSource !== "undefined") {
    source = new EventSource(`${base(id)}/stream`);
    source.onopen = () => { tell("live"); run(); };
    source.onmessage = () => run();
    for (const kind of KINDS) source.addEventListener(kind, () => run());
    source.onerror = () => {
      if (source && source.readyState === EventSource.CLOSED) source = null; // not offered: poll from now on
      tell("polling");
    };
  }
  tell("polling");
  // While the stream is open the page still reads everything now and then (an event of a kind it
  // does not know yet); while it is not, every POLL_MS.
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
    if (stopped || document.hidden) return;
    if (!streaming() || ticks % STREAMING_EVERY === 0) run();
  }, POLL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
    source?.close();
  };
}
