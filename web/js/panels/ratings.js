// @ts-check
// Ratings as the pages show them: a rating's text, and on the game page whether the game is rated
// (or why not) with each seat's rating at this table.

import { api } from "../core/api.js";
import { h, clear } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** A rating as shown everywhere: one decimal, a "?" while provisional. */
export function ratingText(rating) {
  const value = rating.rating.toFixed(1);
  return rating.provisional ? t("ratings.provisional_value", { value }) : value;
}

/** On the game page: whether the game is rated (or why not) and each seat's rating beside its
 * name (placeholders `.seat-rating[data-rating-seat]` that renderSeats draws). Read once per
 * game status and set of seats: ratings change only when a game ends. */
const tables = new Map();
export function showTableRatings(container, game) {
  const rated = h("p", { id: "rated", class: "rated" }, game.rated
    ? [t("ratings.rated_game")]
    : [t("ratings.unrated_game"), " ", game.unrated_reasons.map((reason) => reason.text).join(" ")]);
  container.append(rated);
  const key = `${game.id}:${game.status}:${game.seats.map((seat) => seat.name).join("|")}`;
  if (!tables.has(key)) tables.set(key, api.tableRatings(game.id).catch(() => null));
  tables.get(key).then((table) => {
    for (const seat of table?.seats || []) {
      const slot = container.querySelector(`.seat-rating[data-rating-seat="${seat.seat}"]`);
      if (!slot || !seat.rating) continue;
      const text = t("ratings.at_table", { rating: ratingText(seat.rating) });
      clear(slot).append(" · ", seat.subject && !seat.subject.startsWith("bot:")
        ? h("a", { href: `#/player/${encodeURIComponent(seat.subject)}` }, [text]) : text);
    }
  });
}
