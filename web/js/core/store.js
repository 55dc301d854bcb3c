// @ts-check
// What the browser remembers: the player's name, the language, the tokens of games it joined and
// the player identity (player token) that ties those seats together across devices.

const KEY = "tabletop.games";

function all() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function gameTokens(gameId) {
  return all()[gameId] || {};
}

export function rememberTokens(gameId, tokens) {
  const games = all();
  games[gameId] = { ...(games[gameId] || {}), ...tokens };
  localStorage.setItem(KEY, JSON.stringify(games));
}

export function playerName() {
  return localStorage.getItem("tabletop.name") || "";
}

export function rememberName(name) {
  localStorage.setItem("tabletop.name", name);
}

/** The player identity this browser carries (a player token), or null. */
export function playerToken() {
  return localStorage.getItem("tabletop.player") || null;
}

export function rememberPlayerToken(token) {
  localStorage.setItem("tabletop.player", token);
}
