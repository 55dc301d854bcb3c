// @ts-check
// A game type's static data (GET /v1/game-types/{slug}: names, texts, cards, tiles, board), read
// once per language. Renderers look names up here and fall back to the bare id while a game type
// has no static data.

import { api } from "./api.js";
import { language, t } from "./i18n.js";
import { humanize } from "./format.js";
import { h, clear } from "./dom.js";

/** @typedef {import("./types.js").StaticData} StaticData */

/** @type {Map<string, Promise<import("./types.js").GameTypeDetail | null>>} */
const cache = new Map();

/**
 * A game type's names, bot levels, log templates and static data in the page's language; null when
 * it cannot be read (the page then shows bare ids).
 * @param {string} slug
 * @returns {Promise<import("./types.js").GameTypeDetail | null>}
 */
export async function gameTypeDetail(slug) {
  const key = `${slug}/${language()}`;
  let detail = cache.get(key);
  if (!detail) cache.set(key, (detail = api.gameType(slug).catch(() => null)));
  return detail;
}

/**
 * The item with this id in a list of the static data (e.g. list(data, "buildings")), or null.
 * @param {StaticData | null | undefined} data
 * @param {string} list
 * @param {string} id
 */
export function item(data, list, id) {
  const items = data && Array.isArray(data[list]) ? data[list] : [];
  return items.find((candidate) => candidate.id === id) || null;
}

/**
 * The printed name of an id from a list of the static data, else the id made readable.
 * @param {StaticData | null | undefined} data
 * @param {string} list
 * @param {string} id
 */
export function nameOf(data, list, id) {
  const found = item(data, list, id);
  return found?.name || found?.title || humanize(id);
}

/**
 * The bots a host can seat in a game, as <option>s: strongest first, as the default.
 * @param {import("./types.js").BotLevel[]} levels
 */
export function botLevelOptions(levels) {
  return [...levels].reverse().map((level) => h("option", { value: level.level, title: level.description }, [level.name]));
}

/**
 * Fill a <select> with the bots a host can seat in this game, keeping the one chosen if it is there.
 * @param {HTMLSelectElement} select
 * @param {string} slug
 */
export async function fillBotLevels(select, slug) {
  const levels = (await gameTypeDetail(slug))?.bot_levels || [];
  const chosen = select.value;
  clear(select).append(...botLevelOptions(levels));
  if (levels.some((level) => level.level === chosen)) select.value = chosen;
}

/**
 * A seat's name as shown: a bot seated without a name of its own ("greedy bot", the API's default)
 * is named by its level in the page's language ("Bot Gierig").
 * @param {{ name: string, bot?: string | null }} seat
 * @param {import("./types.js").BotLevel[] | null | undefined} levels
 */
export function seatName(seat, levels) {
  if (!seat.bot || seat.name !== `${seat.bot} bot`) return seat.name;
  const level = levels?.find((entry) => entry.level === seat.bot)?.name ?? seat.bot;
  return t("seat.bot_name", { level });
}
