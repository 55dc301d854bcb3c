// @ts-check
// Entry point: language, then a hash router between the lobby, a new game's form, a join link, a
// game page, a game's replay, the leaderboards and player profiles.

import { preferredLanguage, setLanguage } from "./core/i18n.js";
import { showLobby, showJoin, showCreate } from "./pages/lobby.js";
import { showGame } from "./pages/game.js";
import { byId } from "./core/dom.js";
import { openMine, signIn } from "./core/identity.js";
import { showLeaderboard } from "./pages/leaderboard.js";
import { showProfile } from "./pages/profile.js";
import { showTournaments } from "./pages/tournaments.js";
import { showTournament } from "./pages/tournament.js";
import { linkBackToTournament } from "./panels/tournament_link.js";
import { showReplay } from "./pages/replay.js";

/** @type {(() => void) | null} */
let leave = null; // the current page's clean-up (closes its live stream)

/**
 * A new, empty <main id="app"> in place of the last one. A page still loading when the person
 * moves on finishes into the old element, which is no longer in the document, so two pages never
 * show at once (before, a slow lobby appended its heading under the tournaments page).
 */
function freshMain() {
  const main = document.createElement("main");
  main.id = "app";
  main.tabIndex = -1;
  byId("app", HTMLElement).replaceWith(main);
  return main;
}

/**
 * Show a page's answer once it is drawn; if another route began meanwhile, close it at once.
 * @param {Promise<(() => void) | void>} shown
 * @param {HTMLElement} main
 */
async function settle(shown, main) {
  const close = (await shown) ?? null;
  if (main.isConnected) leave = close;
  else close?.();
}

async function route() {
  if (leave) { leave(); leave = null; }
  const main = freshMain();
  byId("live-status", HTMLElement).textContent = "";
  const [page, id, code, extra] = location.hash.replace(/^#\/?/, "").split("/");
  if (page === "signin" && id) { signIn(id); location.hash = "#/"; return; }
  if (page === "mine" && id) { await openMine(id, code); location.hash = `#/game/${id}`; return; }
  if (page === "game" && id) { await settle(showGame(main, id), main); linkBackToTournament(main, id); }
  else if (page === "replay" && id) await settle(showReplay(main, id, code, extra), main);
  else if (page === "join" && id) await showJoin(main, id, code);
  else if (page === "new") await showCreate(main, id);
  else if (page === "leaderboard") await showLeaderboard(main, id);
  else if (page === "player" && id) await showProfile(main, decodeURIComponent(id));
  else if (page === "tournaments") await showTournaments(main, id);
  else if (page === "tournament" && id) await settle(showTournament(main, id, code), main);
  else await showLobby(main);
}

async function boot() {
  const select = byId("lang-select", HTMLSelectElement);
  const lang = preferredLanguage();
  await setLanguage(lang);
  select.value = lang;
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    route();
  });
  window.addEventListener("hashchange", route);
  await route();
}

boot();
