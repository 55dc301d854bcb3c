// @ts-check
// The end screen: the ranking, then one table per player that explains their score by its sources
// (the parts add up to the total) and the rest of the result's details gathered by seat, every line named in the page's language and every id by its printed
// name), then what the whole table shares (rounds, the castle's counts). Narrow enough for a phone:
// each table has two columns.

import { h } from "../core/dom.js";
import { humanize } from "../core/format.js";
import { t, tOptional } from "../core/i18n.js";
import { label } from "../core/labels.js";
import { spell } from "./log.js";

/** @typedef {import("../core/types.js").StaticData} StaticData */
/** @typedef {import("./log.js").Naming & { seatBadge: (seat: number) => HTMLElement }} ResultContext */

/** @typedef {{ [key: string]: unknown }} Row */

/**
 * @param {unknown} value
 * @returns {value is Row}
 */
const isRow = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/**
 * The details split into one record per seat and the record the table shares.
 * @param {{ [key: string]: unknown } | undefined} details
 * @param {number} seatCount
 */
export function bySeat(details, seatCount) {
  /** @type {Row[]} */
  const rows = Array.from({ length: seatCount }, () => ({}));
  /** @type {Row} */
  const shared = {};
  for (const [key, value] of Object.entries(details || {})) {
    if (Array.isArray(value) && value.length && value.every(isRow)) {
      value.forEach((/** @type {Row} */ row, index) => {
        const seat = typeof row.seat === "number" && Number.isInteger(row.seat) ? row.seat : index;
        if (rows[seat]) Object.assign(rows[seat], Object.fromEntries(Object.entries(row).filter(([k]) => k !== "seat")));
      });
    } else if (Array.isArray(value) && value.length === seatCount && !value.some((v) => v && typeof v === "object")) {
      value.forEach((v, seat) => { rows[seat][key] = v; });
    } else {
      shared[key] = value;
    }
  }
  return { rows, shared };
}

/**
 * The seats from first to last place, each with its rank: the winners first (a tie-break the
 * scores do not show decides who won), then by score; equal standing, equal rank ("1, 1, 3").
 * @param {{ scores: number[], winners: number[] }} result
 * @param {number[]} seats
 * @returns {{ seat: number, rank: number }[]}
 */
export function ranking(result, seats) {
  const standing = (/** @type {number} */ seat) => [result.winners.includes(seat) ? 1 : 0, result.scores[seat] ?? 0];
  const order = [...seats].sort((a, b) => {
    const [wa, sa] = standing(a);
    const [wb, sb] = standing(b);
    return wb - wa || sb - sa || a - b;
  });
  return order.map((seat, index) => {
    const [w, s] = standing(seat);
    const first = order.findIndex((other) => standing(other)[0] === w && standing(other)[1] === s);
    return { seat, rank: (first === -1 ? index : first) + 1 };
  });
}

/**
 * @param {string} key
 * @param {StaticData | null | undefined} data
 */
function name(key, data) {
  return tOptional(`detail.${key}`) ?? label(data, "", key) ?? humanize(key);
}

/**
 * A value in words: counts per id become "Keep 27, Stable 3" with printed names.
 * @param {string} key
 * @param {unknown} value
 * @param {ResultContext} ctx
 */
function words(key, value, ctx) {
  if (isRow(value) && Object.values(value).every((n) => typeof n === "number")) {
    const parts = Object.entries(value).filter(([, n]) => n).map(([id, n]) => `${label(ctx.data, "", id) ?? humanize(id)} ${n}`);
    return parts.join(", ") || t("log.nothing");
  }
  return spell(key, value, ctx);
}

/**
 * @param {{ [key: string]: unknown }} record
 * @param {ResultContext} ctx
 * @param {{ class: string }} attrs
 */
function table(record, ctx, attrs) {
  return h("table", attrs, [h("tbody", {}, Object.entries(record).map(([key, value]) => h("tr", { dataset: { key } }, [
    h("th", { scope: "row" }, [name(key, ctx.data)]), h("td", {}, [words(key, value, ctx)]),
  ])))]);
}

/**
 * A seat's score split by its sources, from what each engine's result already gives per seat:
 * Carcassonne's `breakdown` (roads, cities, cloisters and abbeys, fields, barns: the seat's row), Keythedral's
 * building `tiles` and `cubes`, Im Schutze der Burg's points during the game and each building's
 * points at the end. Null when the parts are not known or do not add up to the score.
 * @param {Row} row
 * @param {number} score
 * @returns {{ parts: [string, number][], used: string[] } | null}
 */
export function scoreSources(row, score) {
  /** @type {[string, number][]} */
  let parts = [];
  /** @type {string[]} */
  let used = [];
  const numbers = (/** @type {unknown} */ value) => isRow(value) && Object.values(value).every((n) => typeof n === "number");
  if (typeof row.tiles === "number" && typeof row.cubes === "number") {
    parts = [["tiles", row.tiles], ["cubes", row.cubes]];
    used = ["tiles", "cubes"];
  } else if (typeof row.game_vp === "number" && (row.end_vp === undefined || numbers(row.end_vp))) {
    const end = Object.entries(/** @type {{ [key: string]: number }} */ (row.end_vp || {}));
    /** @type {[string, number][]} */
    const atEnd = end.length ? end.map(([id, n]) => [`end_vp:${id}`, n]) : [["end_vp", 0]];
    parts = [["game_vp", row.game_vp], ...atEnd];
    used = ["game_vp", "end_vp", "total"];
  } else if (numbers(row)) { // a breakdown by category (Carcassonne's): the whole row
    parts = Object.entries(/** @type {{ [key: string]: number }} */ (row));
    used = parts.map(([key]) => key);
  }
  if (!parts.length || parts.reduce((sum, [, n]) => sum + n, 0) !== score) return null;
  return { parts, used };
}

/**
 * A source's name: a building's points at the end read "Points at the end: Palace".
 * @param {string} key
 * @param {ResultContext} ctx
 */
function sourceName(key, ctx) {
  const [head, id] = key.split(":");
  return id === undefined ? name(key, ctx.data) : `${name(head, ctx.data)}: ${name(id, ctx.data)}`;
}

/**
 * The sources table: one line per source (every source of the game, a zero too), then the total.
 * @param {{ parts: [string, number][] }} sources
 * @param {number} score
 * @param {ResultContext} ctx
 */
function sourcesTable(sources, score, ctx) {
  return h("table", { class: "sources" }, [
    h("caption", {}, [t("result.sources")]),
    h("tbody", {}, [
      ...sources.parts.map(([key, points]) => h("tr", { dataset: { source: key, points } }, [
        h("th", { scope: "row" }, [sourceName(key, ctx)]), h("td", {}, [String(points)]),
      ])),
      h("tr", { class: "sources-total", dataset: { points: score } }, [
        h("th", { scope: "row" }, [t("result.sources_total")]), h("td", {}, [String(score)]),
      ]),
    ]),
  ]);
}

/**
 * The end screen's explanation: a table per player, best first, and the shared figures.
 * @param {import("../core/types.js").GameResult} result
 * @param {import("../core/types.js").GameView} game
 * @param {ResultContext} ctx
 */
export function resultDetails(result, game, ctx) {
  const { rows, shared } = bySeat(result.details, game.seats.length);
  const players = ranking(result, game.seats.map((seat) => seat.seat)).map(({ seat, rank }) => {
    const score = result.scores[seat] ?? 0;
    const sources = scoreSources(rows[seat] || {}, score);
    const rest = Object.fromEntries(Object.entries(rows[seat] || {}).filter(([key]) => !sources?.used.includes(key)));
    return h("section", { class: "player-result", dataset: { seat, rank } }, [
      h("h3", {}, [`${t("result.place", { rank })} · `, ctx.seatBadge(seat), ` · ${t("result.points", { points: score })}`, result.winners.includes(seat) ? ` ★ ${t("result.winner")}` : ""]),
      sources ? sourcesTable(sources, score, ctx) : null,
      Object.keys(rest).length ? table(rest, ctx, { class: "details" }) : null,
    ]);
  });
  const common = Object.keys(shared).length ? [h("h3", {}, [t("result.table")]), table(flatten(shared), ctx, { class: "details shared" })] : [];
  return h("div", { class: "result-details" }, [h("div", { class: "player-results" }, players), ...common]);
}

/**
 * Nested shared records (a "targets" object) become lines of their own.
 * @param {{ [key: string]: unknown }} shared
 */
function flatten(shared) {
  /** @type {Row} */
  const out = {};
  for (const [key, value] of Object.entries(shared)) {
    if (isRow(value) && Object.values(value).every((n) => typeof n === "number")) Object.assign(out, value);
    else out[key] = value;
  }
  return out;
}
