// @ts-check
// Entry point: language, then a hash router between the lobby, a new game's form, a join link, a
// game page, a game's replay, the leaderboards and player profiles.

import { preferredLanguage, setLanguage } from "./core/i18n.js";
import { showLobby, showJoin, showCreate } from "./pages/lobby.js";
import { showGame } from "./pages/game.js";
import { byId, clear } from "./core/dom.js";
import { openMine, signIn } from "./core/identity.js";
import { showLeaderboard } from "./pages/leaderboard.js";
import { showProfile } from "./pages/profile.js";
import { showTournaments } from "./pages/tournaments.js";
import { showTournament } from "./pages/tournament.js";
import { linkBackToTournament } from "./panels/tournament_link.js";
import { showReplay } from "./pages/replay.js";

const main = byId("app", HTMLElement);
/** @type {(() => void) | null} */
let leave = null; // the current page's clean-up (closes its live stream)

async function route() {
  if (leave) { leave(); leave = null; }
  clear(main);
  byId("live-status", HTMLElement).textContent = "";
  const [page, id, code, extra] = location.hash.replace(/^#\/?/, "").split("/");
  if (page === "signin" && id) { signIn(id); location.hash = "#/"; return; }
  if (page === "mine" && id) { await openMine(id, code); location.hash = `#/game/${id}`; return; }
  if (page === "game" && id) { leave = await showGame(main, id); linkBackToTournament(main, id); }
  else if (page === "replay" && id) leave = await showReplay(main, id, code, extra);
  else if (page === "join" && id) await showJoin(main, id, code);
  else if (page === "new") await showCreate(main, id);
  else if (page === "leaderboard") await showLeaderboard(main, id);
  else if (page === "player" && id) await showProfile(main, decodeURIComponent(id));
  else if (page === "tournaments") await showTournaments(main, id);
  else if (page === "tournament" && id) leave = await showTournament(main, id, code);
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
