// @ts-check
// Ratings as the pages show them: a rating's text, and on the game page whether the game is rated
// (or why not) with each seat's rating at this table.

import { api } from "../core/api.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

/**
 * A rating as shown everywhere: one decimal, a "?" while provisional.
 * @param {import("../core/types.js").Rating} rating
 */
export function ratingText(rating) {
  const value = rating.rating.toFixed(1);
  return rating.provisional ? t("ratings.provisional_value", { value }) : value;
}

/** @type {Map<string, { seats: import("../core/types.js").TableSeat[] } | null>} the ratings at a table, once read */
const tables = new Map();
/** @type {Set<string>} tables being read */
const reading = new Set();

/** @param {import("../core/types.js").GameView} game */
function tableKey(game) {
  return `${game.id}:${game.status}:${game.seats.map((seat) => seat.name).join("|")}`;
}

/**
 * On the game page: whether the game is rated, or why not.
 * @param {import("../core/types.js").GameView} game
 */
export function ratedNote(game) {
  return h("p", { id: "rated", class: "rated" }, game.rated
    ? [t("ratings.rated_game")]
    : [t("ratings.unrated_game"), " ", game.unrated_reasons.map((reason) => reason.text).join(" ")]);
}

/**
 * A seat's rating at this table (" · 25.3", linked to the player's profile), or null while unknown.
 * Read once per game status and set of seats (ratings change only when a game ends); `onRead` is
 * called when a reading this call started arrives, to draw the page again.
 * @param {import("../core/types.js").GameView} game
 * @param {number} seat
 * @param {() => void} onRead
 * @returns {Node[] | null}
 */
export function seatRating(game, seat, onRead) {
  const key = tableKey(game);
  if (!tables.has(key)) {
    if (!reading.has(key)) {
      reading.add(key);
      api.tableRatings(game.id).catch(() => null).then((table) => {
        tables.set(key, table);
        reading.delete(key);
        onRead();
      });
    }
    return null;
  }
  const entry = tables.get(key)?.seats.find((candidate) => candidate.seat === seat);
  if (!entry?.rating) return null;
  const text = t("ratings.at_table", { rating: ratingText(entry.rating) });
  return [document.createTextNode(" · "), entry.subject && !entry.subject.startsWith("bot:")
    ? h("a", { href: `#/player/${encodeURIComponent(entry.subject)}` }, [text]) : document.createTextNode(text)];
}
