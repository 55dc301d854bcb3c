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
 */

/**
 * @param {string} method
 * @param {string} path
 * @param {CallOptions} [options]
 * @returns {Promise<any>} the answer's JSON, as the API documents it for this path
 */
async function call(method, path, { token, body, query } = {}) {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  /** @type {Record<string, string>} */
  const headers = { "Accept": "application/json", "Accept-Language": language() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** An image the API draws for the token's owner only (no JSON): an object URL for an <img>. */
async function image(path, token) {
  const response = await fetch(new URL(path, location.origin), {
    headers: { "Accept": "image/svg+xml, application/problem+json", "Accept-Language": language(), Authorization: `Bearer ${token}` },
    cache: "no-store",
  });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  return URL.createObjectURL(await response.blob());
}

export const api = {
  gameTypes: () => call("GET", "/v1/game-types"),
  gameType: (slug) => call("GET", `/v1/game-types/${encodeURIComponent(slug)}`),
  /** One lobby page: {items, total, next_cursor}. */
  listGames: (query) => call("GET", "/v1/games", { query }),
  /** With a player token the game is listed in the lobby under that player (unless private). */
  createGame: (type, options, isPrivate, clock, token) => call("POST", "/v1/games", { body: { type, options, private: isPrivate, clock }, token }),
  join: (gameId, seat, token) => call("POST", `/v1/games/${gameId}/seats`, { body: seat, token }),
  /** Free a lobby seat; block (host only): its taker cannot sit down in this game again. */
  removeSeat: (gameId, seat, token, block) => call("DELETE", `/v1/games/${gameId}/seats/${seat}`, { token, query: { block: block ? "true" : undefined } }),
  start: (gameId, token) => call("POST", `/v1/games/${gameId}/start`, { token }),
  game: (gameId, token) => call("GET", `/v1/games/${gameId}`, { token }),
  choices: (gameId, token) => call("GET", `/v1/games/${gameId}/choices`, { token }),
  submit: (gameId, token, choice, decisionVersion) => call("POST", `/v1/games/${gameId}/choices`, {
    token, body: decisionVersion === null || decisionVersion === undefined ? { choice } : { choice, decision_version: decisionVersion },
  }),
  resign: (gameId, token) => call("POST", `/v1/games/${gameId}/resign`, { token }),
  rematch: (gameId, token) => call("POST", `/v1/games/${gameId}/rematch`, { token }),
  createPlayer: (name) => call("POST", "/v1/players", { body: { name } }),
  myGames: (token) => call("GET", "/v1/players/me/games", { token }),
  signInQr: (token) => image("/v1/players/me/sign-in-qr", token),
  reissueSeat: (gameId, seat, token) => call("POST", `/v1/players/me/games/${gameId}/seats/${seat}/token`, { token }),
  events: (gameId, token, after) => call("GET", `/v1/games/${gameId}/events`, { token, query: { after } }),
  leaderboard: (gameType, query) => call("GET", `/v1/leaderboards/${encodeURIComponent(gameType)}`, { query }),
  profile: (playerId) => call("GET", `/v1/players/${encodeURIComponent(playerId)}/profile`),
  tableRatings: (gameId) => call("GET", `/v1/games/${gameId}/ratings`),
};
