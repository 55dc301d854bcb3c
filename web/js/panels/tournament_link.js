// @ts-check
// "Back to the tournament" on the page of a tournament's game. A game's view does not say that it
// belongs to a tournament, so the tournament page (pages/tournament.js) notes the games of the
// rounds it shows in this browser, and the game page links back to the tournament of a noted one.

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

const KEY = "tabletop.tournamentGames";
/** How many games are noted at most (the oldest are forgotten first). */
const MOST = 300;

/** @returns {{ [gameId: string]: { id: string, name: string } }} */
function noted() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

/**
 * Note that these games are played in the tournament `id` called `name`.
 * @param {string} id
 * @param {string} name
 * @param {string[]} gameIds
 */
export function noteTournamentGames(id, name, gameIds) {
  const games = noted();
  let changed = false;
  for (const gameId of gameIds) {
    if (games[gameId]?.id === id && games[gameId]?.name === name) continue;
    delete games[gameId]; // re-inserted last: the newest are kept
    games[gameId] = { id, name };
    changed = true;
  }
  if (!changed) return;
  const kept = Object.entries(games).slice(-MOST);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
}

/**
 * On a tournament game's page: a link back to its tournament, above the game's title.
 * @param {HTMLElement} main
 * @param {string} gameId
 */
export function linkBackToTournament(main, gameId) {
  const tournament = noted()[gameId];
  if (!tournament || main.querySelector("#tournament-back")) return;
  main.prepend(h("p", { class: "tournament-back" }, [
    h("a", { href: `#/tournament/${tournament.id}`, id: "tournament-back", class: "button back" }, [t("tournaments.back_to", { name: tournament.name })]),
  ]));
}
