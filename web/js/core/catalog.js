// @ts-check
// A game type's static data (GET /v1/game-types/{slug}: names, texts, cards, tiles, board), read
// once per language. Renderers look names up here and fall back to the bare id while a game type
// has no static data.

import { api } from "./api.js";
import { language } from "./i18n.js";
import { humanize } from "./format.js";
import { h, clear } from "./dom.js";

const cache = new Map();

export async function gameTypeDetail(slug) {
  const key = `${slug}/${language()}`;
  if (!cache.has(key)) cache.set(key, api.gameType(slug).catch(() => null));
  return cache.get(key);
}

/** The item with this id in a list of the static data (e.g. list(data, "buildings")), or null. */
export function item(data, list, id) {
  const items = data && Array.isArray(data[list]) ? data[list] : [];
  return items.find((candidate) => candidate.id === id) || null;
}

/** The printed name of an id from a list of the static data, else the id made readable. */
export function nameOf(data, list, id) {
  const found = item(data, list, id);
  return found?.name || found?.title || humanize(id);
}

/** Fill a <select> with the bots a host can seat in this game (strongest first, as the default). */
export async function fillBotLevels(select, slug) {
  const levels = (await gameTypeDetail(slug))?.bot_levels || [];
  const chosen = select.value;
  clear(select).append(...[...levels].reverse().map((level) =>
    h("option", { value: level.level, title: level.description, selected: level.level === chosen }, [level.name])));
}
