// Entry point: language, then a hash router between the lobby, a join link, a game page, the
// leaderboards and player profiles.

import { preferredLanguage, setLanguage } from "./i18n.js";
import { showLobby, showJoin } from "./lobby.js";
import { showGame } from "./game.js";
import { clear } from "./dom.js";
import { openMine, signIn } from "./identity.js";
import { showLeaderboard } from "./leaderboard.js";
import { showProfile } from "./profile.js";

const main = document.getElementById("app");
let leave = null; // the current page's clean-up (closes its live stream)

async function route() {
  if (leave) { leave(); leave = null; }
  clear(main);
  document.getElementById("live-status").textContent = "";
  const [page, id, code] = location.hash.replace(/^#\/?/, "").split("/");
  if (page === "signin" && id) { signIn(id); location.hash = "#/"; return; }
  if (page === "mine" && id) { await openMine(id, code); location.hash = `#/game/${id}`; return; }
  if (page === "game" && id) leave = await showGame(main, id);
  else if (page === "join" && id) await showJoin(main, id, code);
  else if (page === "leaderboard") await showLeaderboard(main, id);
  else if (page === "player" && id) await showProfile(main, decodeURIComponent(id));
  else await showLobby(main);
}

async function boot() {
  const select = document.getElementById("lang-select");
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
