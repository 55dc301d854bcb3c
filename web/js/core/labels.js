// @ts-check
// Printed names for the ids that events and results carry ("worker_2", "large_tower", "T04-3",
// "BA/CFC.2"), read from the game type's static data in the page's language. An event key says
// which list to look in first (a "post" and a "resource" may share an id); else any list will do.

/** @typedef {import("./types.js").StaticData} StaticData */

/** @type {{ [key: string]: string[] }} */
const LISTS_BY_KEY = {
  resource: ["resources", "cubes"],
  post: ["posts"],
  from: ["posts"],
  card: ["character_cards", "winter_cards", "law_cards"],
  building: ["buildings"],
  field: ["field_types"],
  colour: ["cubes"],
  tile: ["tiles", "building_tiles"],
  removed: ["building_tiles"],
  feature: ["feature_kinds"],
  figure: ["figures"],
  visit: ["keytown"],
};

const cache = new WeakMap();

/** What a component is called: its printed name, else what is printed on it (the templates
 * say "tile {tile}": a Carcassonne tile's letter, a building tile's value and cost).
 * @param {StaticData} entry
 * @param {Map<string, Map<string, string | null>>} lists
 * @returns {string | null}
 */
function printed(entry, lists) {
  if (entry.name || entry.title) return entry.name || entry.title;
  if (entry.letter) return entry.letter;
  if (entry.value !== undefined && entry.cost) {
    const cost = Object.entries(entry.cost).map(([id, n]) => `${n} ${lists.get("cubes")?.get(id) ?? id}`).join(", ");
    return `${entry.value} (${cost})`;
  }
  return null;
}

/**
 * list name -> (id -> printed name), over every list of objects with ids, nested ones too.
 * @param {StaticData | null | undefined} data
 * @returns {Map<string, Map<string, string | null>>}
 */
function index(data) {
  if (!data) return new Map();
  if (cache.has(data)) return cache.get(data);
  /** @type {Map<string, Map<string, StaticData>>} */
  const lists = new Map();
  /** @param {unknown} node @param {string} listName */
  const walk = (node, listName) => {
    if (Array.isArray(node)) {
      for (const entry of node) {
        if (entry && typeof entry === "object" && typeof entry.id === "string") {
          let list = lists.get(listName);
          if (!list) lists.set(listName, (list = new Map()));
          list.set(entry.id, entry);
        }
        walk(entry, listName);
      }
    } else if (node && typeof node === "object") {
      for (const [key, inner] of Object.entries(node)) walk(inner, key);
    }
  };
  walk(data, "");
  const names = new Map();
  for (const [listName, entries] of lists) {
    names.set(listName, new Map([...entries].map(([id, entry]) => [id, entry.name || entry.title || null])));
  }
  for (const [listName, entries] of lists) {
    for (const [id, entry] of entries) names.get(listName).set(id, printed(entry, names));
  }
  cache.set(data, names);
  return names;
}

/**
 * The printed name of `id` seen under event key `key`, or null when the static data has none.
 * @param {StaticData | null | undefined} data
 * @param {string} key
 * @param {unknown} id
 * @returns {string | null}
 */
export function label(data, key, id) {
  if (typeof id !== "string") return null;
  const lists = index(data);
  for (const listName of LISTS_BY_KEY[key] || []) {
    const found = lists.get(listName)?.get(id);
    if (found) return found;
  }
  for (const names of lists.values()) {
    const found = names.get(id);
    if (found) return found;
  }
  // A numbered part of a component ("stable.0", the stable's first space) is named after it.
  const part = /^(.+)\.(\d+)$/.exec(id);
  const whole = part && label(data, key, part[1]);
  return whole ? `${whole} ${Number(part[2]) + 1}` : null;
}
