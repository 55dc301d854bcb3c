// @ts-check
// The lobby's "My games" card: the games of this browser's player identity, whose turn it is in
// each, and the sign-in link (with its QR code) that carries the identity to another device.

import { api, messageOf } from "../core/api.js";
import { h, clear } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { playerToken } from "../core/store.js";

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
 * The lobby's "My games" card (null while this browser has no identity).
 * @param {import("../core/types.js").GameType[]} types
 */
export async function myGamesCard(types) {
  const token = playerToken();
  if (!token) return null;
  const names = Object.fromEntries(types.map((type) => [type.slug, type.name]));
  const list = h("ul", { id: "my-games", class: "games" });
  const card = h("section", { class: "card" }, [h("h2", {}, [t("me.title")]), list, signInLink(token)]);
  /** @type {import("../core/types.js").MyGame[]} */
  let games = [];
  try { games = await api.myGames(token); } catch (failure) { list.append(h("li", { class: "error" }, [messageOf(failure)])); }
  const order = { in_progress: 0, lobby: 1, finished: 2, aborted: 3 };
  games.sort((a, b) => (Number(b.your_turn) - Number(a.your_turn)) || (order[a.status] - order[b.status]) || String(b.joined_at).localeCompare(String(a.joined_at)));
  if (!games.length) clear(list).append(h("li", {}, [t("me.none")]));
  for (const game of games.slice(0, 30)) {
    const state = game.your_turn ? h("strong", { class: "your-turn" }, [t("notice.your_turn")]) : t(`me.status.${game.status}`);
    list.append(h("li", { dataset: { game: game.game_id, yourTurn: String(game.your_turn) } }, [
      h("a", { href: `#/mine/${game.game_id}/${game.seat}`, class: "button" }, [names[game.type] || game.type]), " ", state,
    ]));
  }
  return card;
}
