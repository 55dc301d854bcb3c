// @ts-check
// The lobby's first screen for a returning player: "Your turn" (the games waiting for this
// browser's player identity) and "My games" (the others, a finished one with "Play again" in one
// tap), and the sign-in link (with its QR code) that carries the identity to another device.

import { api, messageOf } from "../core/api.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { gameTokens, playerToken, rememberTokens } from "../core/store.js";
import { openMine } from "../core/identity.js";

/** How many of "My games" show before "Show all". */
const SHOWN = 6;

/**
 * @param {string} token
 */
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
 * secret: no third-party service sees it), fetched once the person opens the panel.
 * @param {HTMLElement} figure
 * @param {string} token
 */
async function showQr(figure, token) {
  if (figure.querySelector("img, .error")) return;
  try {
    const url = await api.signInQr(token);
    figure.prepend(h("img", { id: "signin-qr", src: url, alt: t("me.qr_alt"), width: 220, height: 220 }));
  } catch (failure) {
    figure.prepend(h("p", { class: "error" }, [messageOf(failure)]));
  }
}

/**
 * "Play again" on a finished game of mine: its rematch if one was offered, else a new one offered
 * now; this browser takes its held seat there and opens it.
 * @param {import("../core/types.js").MyGame} mine
 */
export async function playAgain(mine) {
  await openMine(mine.game_id, String(mine.seat));
  const token = gameTokens(mine.game_id).seat || null;
  const game = await api.game(mine.game_id, token);
  let next = game.rematch_id;
  if (!next) {
    const created = await api.rematch(mine.game_id, token);
    rememberTokens(created.id, { host: created.host_token });
    next = created.id;
  }
  if (token && !gameTokens(next).seat) {
    const seat = await api.join(next, {}, token);
    rememberTokens(next, { seat: seat.token, seatIndex: seat.seat });
  }
  location.hash = `#/game/${next}`;
}

/**
 * One of my games: its name opens it; a finished one offers "Play again".
 * @param {import("../core/types.js").MyGame} game
 * @param {{ [slug: string]: string }} names
 * @param {HTMLElement} error
 */
function gameItem(game, names, error) {
  const state = game.your_turn ? h("strong", { class: "your-turn" }, [t("notice.your_turn")]) : h("span", {}, [t(`me.status.${game.status}`)]);
  const again = game.status === "finished"
    ? h("button", { type: "button", class: "play-again", onclick: () => playAgain(game).catch((failure) => { error.textContent = messageOf(failure); }) }, [t("me.play_again")])
    : null;
  return h("li", { dataset: { game: game.game_id, yourTurn: String(game.your_turn) } }, [
    h("a", { href: `#/mine/${game.game_id}/${game.seat}`, class: "button" }, [names[game.type] || game.type]), " ", state,
    again ? " " : null, again,
  ]);
}

/**
 * The lobby's "Your turn" and "My games" cards (nulls while this browser has no identity).
 * @param {import("../core/types.js").GameType[]} types
 * @returns {Promise<{ yourTurn: HTMLElement | null, mine: HTMLElement | null }>}
 */
export async function myGamesCards(types) {
  const token = playerToken();
  if (!token) return { yourTurn: null, mine: null };
  const names = Object.fromEntries(types.map((type) => [type.slug, type.name]));
  const error = h("p", { class: "error", role: "alert" });
  /** @type {import("../core/types.js").MyGame[]} */
  let games = [];
  try { games = await api.myGames(token); } catch (failure) { error.textContent = messageOf(failure); }
  const order = { in_progress: 0, lobby: 1, finished: 2, aborted: 3 };
  games.sort((a, b) => (order[a.status] - order[b.status]) || String(b.joined_at).localeCompare(String(a.joined_at)));
  const waiting = games.filter((game) => game.your_turn);
  const others = games.filter((game) => !game.your_turn).slice(0, 30);
  const turnList = h("ul", { id: "your-turn", class: "games" }, waiting.length
    ? waiting.map((game) => gameItem(game, names, error))
    : [h("li", { class: "help" }, [t("me.no_turn")])]);
  const yourTurn = h("section", { class: "card your-turn-card", "aria-labelledby": "your-turn-title" }, [
    h("h2", { id: "your-turn-title" }, [t("notice.your_turn"), waiting.length ? ` (${waiting.length})` : ""]), turnList, error,
  ]);
  const items = others.map((game) => gameItem(game, names, error));
  const list = h("ul", { id: "my-games", class: "games" }, items.length ? items.slice(0, SHOWN) : [h("li", {}, [t("me.none")])]);
  const more = items.length > SHOWN
    ? h("details", { class: "more-games" }, [h("summary", {}, [t("me.show_all", { count: items.length })]), h("ul", { class: "games" }, items.slice(SHOWN))])
    : null;
  const mine = h("section", { class: "card", "aria-labelledby": "my-games-title" }, [
    h("h2", { id: "my-games-title" }, [t("me.title")]), list, more, signInLink(token),
  ]);
  return { yourTurn, mine };
}
