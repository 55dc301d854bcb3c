// @ts-check
// What the browser remembers: the player's name, the language, the tokens of games it joined and
// the player identity (player token) that ties those seats together across devices.

/**
 * What this browser holds for one game.
 * @typedef {object} GameTokens
 * @property {string | null} [seat] its seat token
 * @property {number | null} [seatIndex] which seat that is
 * @property {string} [host] the host token (the browser that created the game)
 * @property {string | null} [invite] a private game's invite code (the host's browser)
 * @property {number | null} [fillAt] "Play now": when (ms since the epoch) bots take the free seats and the host's page starts the game
 * @property {number | null} [fillTo] how many seats the game has once bots filled it
 */

const KEY = "tabletop.games";

/** @returns {{ [gameId: string]: GameTokens }} */
function all() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

/**
 * @param {string} gameId
 * @returns {GameTokens}
 */
export function gameTokens(gameId) {
  return all()[gameId] || {};
}

/**
 * @param {string} gameId
 * @param {GameTokens} tokens
 */
export function rememberTokens(gameId, tokens) {
  const games = all();
  games[gameId] = { ...(games[gameId] || {}), ...tokens };
  localStorage.setItem(KEY, JSON.stringify(games));
}

/** The game type this browser last played or created ("Play now" offers it first). */
export function lastGameType() {
  return localStorage.getItem("tabletop.lastType") || "";
}

/**
 * @param {string} slug
 */
export function rememberGameType(slug) {
  localStorage.setItem("tabletop.lastType", slug);
}

export function playerName() {
  return localStorage.getItem("tabletop.name") || "";
}

/**
 * @param {string} name
 */
export function rememberName(name) {
  localStorage.setItem("tabletop.name", name);
}

/** The player identity this browser carries (a player token), or null. */
export function playerToken() {
  return localStorage.getItem("tabletop.player") || null;
}

/**
 * @param {string} token
 */
export function rememberPlayerToken(token) {
  localStorage.setItem("tabletop.player", token);
}
