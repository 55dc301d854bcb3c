// A player identity the person can carry: every seat taken in this browser is tied to one player
// (POST /v1/players, once), so "my games" (GET /v1/players/me/games) lists them with whose turn it
// is on any device that holds the sign-in link. Opening one of them on another device asks for a
// fresh seat token; the old device's token then stops working, and that device asks for a fresh
// one the same way the next time the server refuses its token (renewSeat).

import { api } from "./api.js";
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { gameTokens, playerToken, rememberPlayerToken, rememberTokens } from "./store.js";

/** This browser's player token, created under `name` the first time a seat is taken. */
export async function playerFor(name) {
  let token = playerToken();
  if (!token) {
    token = (await api.createPlayer(name)).token;
    rememberPlayerToken(token);
  }
  return token;
}

/** #/signin/<token>: this browser takes the identity of the link. */
export function signIn(token) {
  rememberPlayerToken(decodeURIComponent(token));
}

/** #/mine/<game>/<seat>: open one of my games, with a fresh seat token if this browser has none. */
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
 */
export async function renewSeat(gameId) {
  const seat = gameTokens(gameId).seatIndex;
  const player = playerToken();
  if (!player || !Number.isInteger(Number(seat)) || seat === null || seat === undefined) return null;
  const fresh = await api.reissueSeat(gameId, Number(seat), player);
  rememberTokens(gameId, { seat: fresh.token, seatIndex: fresh.seat });
  return fresh.token;
}

function signInLink(token) {
  const link = `${location.origin}${location.pathname}#/signin/${encodeURIComponent(token)}`;
  const input = h("input", { id: "signin-link", readonly: true, value: link, "aria-describedby": "signin-help" });
  const qr = h("figure", { class: "signin-qr" }, [h("figcaption", {}, [t("me.qr_help")])]);
  const details = h("details", { class: "signin", ontoggle: () => { if (details.open) showQr(qr, token); } }, [
    h("summary", {}, [t("me.carry")]),
    h("p", { class: "help", id: "signin-help" }, [t("me.carry_help")]),
    h("p", {}, [h("label", { for: "signin-link" }, [t("me.link")]), " ", input, " ",
      h("button", { type: "button", id: "copy-signin", onclick: () => { input.select(); navigator.clipboard?.writeText(link); } }, [t("game.copy")])]),
    qr,
  ]);
  return details;
}

/** The sign-in link as a QR code a phone's camera reads, drawn by our server (the link is a
 * secret: no third-party service sees it), fetched once the person opens the panel. */
async function showQr(figure, token) {
  if (figure.querySelector("img, .error")) return;
  try {
    const url = await api.signInQr(token);
    figure.prepend(h("img", { id: "signin-qr", src: url, alt: t("me.qr_alt"), width: 220, height: 220 }));
  } catch (failure) {
    figure.prepend(h("p", { class: "error" }, [failure.message]));
  }
}

/** The lobby's "My games" card (null while this browser has no identity). */
export async function myGamesCard(types) {
  const token = playerToken();
  if (!token) return null;
  const names = Object.fromEntries(types.map((type) => [type.slug, type.name]));
  const list = h("ul", { id: "my-games", class: "games" });
  const card = h("section", { class: "card" }, [h("h2", {}, [t("me.title")]), list, signInLink(token)]);
  let games = [];
  try { games = await api.myGames(token); } catch (failure) { list.append(h("li", { class: "error" }, [failure.message])); }
  const order = { in_progress: 0, lobby: 1, finished: 2, aborted: 3 };
  games.sort((a, b) => (b.your_turn - a.your_turn) || (order[a.status] - order[b.status]) || String(b.joined_at).localeCompare(String(a.joined_at)));
  if (!games.length) clear(list).append(h("li", {}, [t("me.none")]));
  for (const game of games.slice(0, 30)) {
    const state = game.your_turn ? h("strong", { class: "your-turn" }, [t("notice.your_turn")]) : t(`me.status.${game.status}`);
    list.append(h("li", { dataset: { game: game.game_id, yourTurn: String(game.your_turn) } }, [
      h("a", { href: `#/mine/${game.game_id}/${game.seat}`, class: "button" }, [names[game.type] || game.type]), " ", state,
    ]));
  }
  return card;
}
