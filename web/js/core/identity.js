// @ts-check
// A player identity the person can carry: every seat taken in this browser is tied to one player
// (POST /v1/players, once), so "my games" (GET /v1/players/me/games) lists them with whose turn it
// is on any device that holds the sign-in link. Opening one of them on another device asks for a
// fresh seat token; the old device's token then stops working, and that device asks for a fresh
// one the same way the next time the server refuses its token (renewSeat).

import { api } from "./api.js";
import { gameTokens, playerToken, rememberPlayerToken, rememberTokens } from "./store.js";

/**
 * This browser's player token, created under `name` the first time a seat is taken.
 * @param {string} name
 */
export async function playerFor(name) {
  let token = playerToken();
  if (!token) {
    token = (await api.createPlayer(name)).token;
    rememberPlayerToken(token);
  }
  return token;
}

/**
 * #/signin/<token>: this browser takes the identity of the link.
 * @param {string} token
 */
export function signIn(token) {
  rememberPlayerToken(decodeURIComponent(token));
}

/**
 * #/mine/<game>/<seat>: open one of my games, with a fresh seat token if this browser has none.
 * @param {string} gameId
 * @param {string} seat
 */
export async function openMine(gameId, seat) {
  if (!gameTokens(gameId).seat) {
    const fresh = await api.reissueSeat(gameId, Number(seat), playerToken());
    rememberTokens(gameId, { seat: fresh.token, seatIndex: fresh.seat });
  }
}

/**
 * A fresh seat token for this browser's seat in `gameId` after its own stopped working (another
 * device of the same player opened the game and was issued a new one). Null when this browser
 * holds no identity or does not know its seat: the failure then stands.
 * @param {string} gameId
 * @returns {Promise<string | null>}
 */
export async function renewSeat(gameId) {
  const seat = gameTokens(gameId).seatIndex;
  const player = playerToken();
  if (!player || !Number.isInteger(Number(seat)) || seat === null || seat === undefined) return null;
  const fresh = await api.reissueSeat(gameId, Number(seat), player);
  rememberTokens(gameId, { seat: fresh.token, seatIndex: fresh.seat });
  return fresh.token;
}
