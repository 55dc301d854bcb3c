// @ts-check
// The REST client: every call the page makes goes through here (public API only).

import { language } from "./i18n.js";

/** A refusal by the API: its HTTP status and RFC 9457 problem details (`code`, `detail`, ...). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{ code?: string, detail?: string, title?: string } | null} problem
   */
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem?.code || "http_error";
    this.problem = problem;
  }
}

/** What a failure says to the person: its message (an ApiError's is the problem's detail). */
export function messageOf(/** @type {unknown} */ failure) {
  return failure instanceof Error ? failure.message : String(failure);
}

/**
 * @typedef {object} CallOptions
 * @property {string | null} [token] a seat, host or player token (Bearer)
 * @property {unknown} [body] sent as JSON
 * @property {{ [name: string]: string | number | boolean | null | undefined }} [query]
 * @property {Record<string, string>} [headers] more request headers
 */

/**
 * @param {string} method
 * @param {string} path
 * @param {CallOptions} [options]
 * @returns {Promise<any>} the answer's JSON, as the API documents it for this path
 */
export async function call(method, path, { token, body, query, headers: more } = {}) {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  /** @type {Record<string, string>} */
  const headers = { "Accept": "application/json", "Accept-Language": language(), ...more };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/**
 * An image the API draws for the token's owner only (no JSON): an object URL for an <img>.
 * @param {string} path
 * @param {string} token
 */
async function image(path, token) {
  const response = await fetch(new URL(path, location.origin), {
    headers: { "Accept": "image/svg+xml, application/problem+json", "Accept-Language": language(), Authorization: `Bearer ${token}` },
    cache: "no-store",
  });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  return URL.createObjectURL(await response.blob());
}

/** A new idempotency key: 128 random bits in hex (works on plain http too, unlike randomUUID). */
export function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** @typedef {import("./types.js").GameView} GameView */
/** @typedef {string | null} Token a seat, host or player token; null: anonymous */

export const api = {
  /** @type {() => Promise<import("./types.js").GameType[]>} */
  gameTypes: () => call("GET", "/v1/game-types"),
  /** @type {(slug: string) => Promise<import("./types.js").GameTypeDetail>} */
  gameType: (slug) => call("GET", `/v1/game-types/${encodeURIComponent(slug)}`),
  /**
   * One lobby page.
   * @type {(query: CallOptions["query"]) => Promise<{ items: import("./types.js").GameSummary[], total: number, next_cursor: string | null }>}
   */
  listGames: (query) => call("GET", "/v1/games", { query }),
  /**
   * With a player token the game is listed in the lobby under that player (unless private).
   * `takebacks` undefined: the server's default (off for a game that may be rated).
   * @type {(type: string, options: { [name: string]: import("./types.js").Scalar }, isPrivate: boolean, clock: object | undefined, token: Token, takebacks?: boolean) => Promise<{ id: string, host_token: string, invite_code: string | null }>}
   */
  createGame: (type, options, isPrivate, clock, token, takebacks) => call("POST", "/v1/games", { body: { type, options, private: isPrivate, clock, takebacks }, token }),
  /**
   * A guided game (panels/tutorial.js): private (listed nowhere, not even among the games in
   * play), with the script's seed and no clock (the server rates neither), no player identity.
   * @type {(type: string, options: { [name: string]: import("./types.js").Scalar }, seed: string) => Promise<{ id: string, host_token: string, invite_code: string }>}
   */
  createTutorial: (type, options, seed) => call("POST", "/v1/games", { body: { type, options, seed, private: true } }),
  /** @type {(gameId: string, seat: { name?: string, invite_code?: string, bot?: string }, token: Token) => Promise<{ token: string, seat: number }>} */
  join: (gameId, seat, token) => call("POST", `/v1/games/${gameId}/seats`, { body: seat, token }),
  /**
   * Free a lobby seat; block (host only): its taker cannot sit down in this game again.
   * @type {(gameId: string, seat: number, token: Token, block: boolean) => Promise<unknown>}
   */
  removeSeat: (gameId, seat, token, block) => call("DELETE", `/v1/games/${gameId}/seats/${seat}`, { token, query: { block: block ? "true" : undefined } }),
  /** @type {(gameId: string, token: Token) => Promise<unknown>} */
  start: (gameId, token) => call("POST", `/v1/games/${gameId}/start`, { token }),
  /** @type {(gameId: string, token: Token) => Promise<unknown>} */
  returnToSeat: (gameId, token) => call("POST", `/v1/games/${gameId}/return`, { token }),
  /** @type {(gameId: string, token?: Token) => Promise<GameView>} */
  game: (gameId, token) => call("GET", `/v1/games/${gameId}`, { token }),
  /** @type {(gameId: string, token: Token) => Promise<import("./types.js").PendingChoices>} */
  choices: (gameId, token) => call("GET", `/v1/games/${gameId}/choices`, { token }),
  /**
   * `key`: the move's idempotency key (the same move sent twice is made once).
   * @type {(gameId: string, token: Token, choice: import("./types.js").Choice, decisionVersion: number | null, key?: string) => Promise<{ version: number }>}
   */
  submit: (gameId, token, choice, decisionVersion, key) => call("POST", `/v1/games/${gameId}/choices`, {
    token,
    body: decisionVersion === null || decisionVersion === undefined ? { choice } : { choice, decision_version: decisionVersion },
    headers: key ? { "Idempotency-Key": key } : {},
  }),
  /** @type {(gameId: string, token: Token) => Promise<unknown>} */
  resign: (gameId, token) => call("POST", `/v1/games/${gameId}/resign`, { token }),
  /** @type {(gameId: string, token: Token) => Promise<GameView>} */
  takeBack: (gameId, token) => call("POST", `/v1/games/${gameId}/takebacks`, { token }),
  /** @type {(gameId: string, token: Token, accept: boolean) => Promise<GameView>} */
  answerTakeback: (gameId, token, accept) => call("POST", `/v1/games/${gameId}/takebacks/answer`, { token, body: { accept } }),
  /** @type {(gameId: string, token: Token) => Promise<{ id: string, host_token: string }>} */
  rematch: (gameId, token) => call("POST", `/v1/games/${gameId}/rematch`, { token }),
  /** @type {(name: string) => Promise<{ token: string }>} */
  createPlayer: (name) => call("POST", "/v1/players", { body: { name } }),
  /** @type {(token: string) => Promise<import("./types.js").MyGame[]>} */
  myGames: (token) => call("GET", "/v1/players/me/games", { token }),
  /** @type {(token: string) => Promise<string>} */
  signInQr: (token) => image("/v1/players/me/sign-in-qr", token),
  /** @type {(gameId: string, seat: number, token: Token) => Promise<{ token: string, seat: number }>} */
  reissueSeat: (gameId, seat, token) => call("POST", `/v1/players/me/games/${gameId}/seats/${seat}/token`, { token }),
  /** @type {(gameId: string, token: Token, after: number) => Promise<{ events: import("./types.js").GameEvent[], last_seq: number }>} */
  events: (gameId, token, after) => call("GET", `/v1/games/${gameId}/events`, { token, query: { after } }),
  /**
   * The game after event `at` as `seat` saw it (null: a spectator); a game in progress only as the token's own seat.
   * @type {(gameId: string, at: number, seat: number | null, token: Token) => Promise<import("./types.js").Replay>}
   */
  replay: (gameId, at, seat, token) => call("GET", `/v1/games/${gameId}/replay`, { token, query: { at, seat } }),
  /** @type {(gameType: string, query: CallOptions["query"]) => Promise<import("./types.js").LeaderboardPage>} */
  leaderboard: (gameType, query) => call("GET", `/v1/leaderboards/${encodeURIComponent(gameType)}`, { query }),
  /** @type {(playerId: string) => Promise<import("./types.js").Profile>} */
  profile: (playerId) => call("GET", `/v1/players/${encodeURIComponent(playerId)}/profile`),
  /** @type {(gameId: string) => Promise<{ seats: import("./types.js").TableSeat[] }>} */
  tableRatings: (gameId) => call("GET", `/v1/games/${gameId}/ratings`),
};
