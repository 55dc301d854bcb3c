// @ts-check
// The game log in words. The platform's own events have sentences of their own; a game's events
// use the game type's templates (`log_templates`, in the page's language), with seat numbers
// replaced by names and every id by the printed name from the static data (labels.js).

import { language, t, tOptional } from "../core/i18n.js";
import { humanize } from "../core/format.js";
import { label } from "../core/labels.js";

/** @typedef {import("../core/types.js").StaticData} StaticData */
/**
 * How a log line names things: seats by name, ids by their printed names.
 * @typedef {{ nameOf: (seat: number | null | undefined) => string, data: StaticData | null | undefined }} Naming
 */

const SEAT_KEYS = new Set(["seat", "player", "by", "active", "start", "start_player", "winner", "from", "named_by", "played_by"]);
const SEAT_LISTS = new Set(["winners", "sealed", "waiting", "order"]);

/**
 * A count per id ({"sand": 1, "clay": 0}) as "1 Sand"; zeros left out.
 * @param {{ [id: string]: number }} raw
 * @param {StaticData | null | undefined} data
 */
function counts(raw, data) {
  const parts = Object.entries(raw).filter(([, n]) => n).map(([id, n]) => `${n} ${label(data, "resource", id) ?? humanize(id)}`);
  return parts.join(", ") || t("log.nothing");
}

/**
 * Whether a value is a count per id ({"sand": 1, "clay": 0}).
 * @param {object} raw
 * @returns {raw is { [id: string]: number }}
 */
function isCounts(raw) {
  return Object.values(raw).every((n) => typeof n === "number");
}

/**
 * One value of an event's data, in words.
 * @param {string} key
 * @param {unknown} raw
 * @param {Naming} naming
 * @returns {string}
 */
export function spell(key, raw, { nameOf, data }) {
  if (SEAT_KEYS.has(key) && typeof raw === "number" && Number.isInteger(raw)) return nameOf(raw);
  if (SEAT_LISTS.has(key) && Array.isArray(raw)) return raw.map((seat) => nameOf(seat)).join(", ") || "—";
  if (key === "space" && typeof raw === "number" && Number.isInteger(raw)) return String(raw + 1); // spaces are counted from 1 on the board
  if (typeof raw === "boolean") return t(raw ? "log.yes" : "log.no");
  if (typeof raw === "string") return label(data, key, raw) ?? tOptional(`word.${raw}`) ?? raw;
  if (Array.isArray(raw)) return raw.map((item) => spell(key, item, { nameOf, data })).join(", ");
  if (raw && typeof raw === "object") {
    if (isCounts(raw)) return counts(raw, data);
    return Object.entries(raw).map(([k, v]) => `${label(data, "", k) ?? humanize(k)} ${spell(k, v, { nameOf, data })}`).join(", ");
  }
  return raw === null || raw === undefined ? "—" : String(raw);
}

const PLACEHOLDER = /\{(\w+)(?::([^|}]*)\|([^}]*))?\}/g;

/** A template filled in: `{field}` is the field in words; `{field:one|other}` is a count with
 * its noun in the language's singular or plural form ("1 point", "0 points", French "0 point").
 * @param {string} template
 * @param {{ [key: string]: string }} params
 * @param {{ [key: string]: unknown }} fields
 */
export function fill(template, params, fields) {
  const plural = new Intl.PluralRules(language());
  return template.replace(PLACEHOLDER, (whole, name, one, other) => {
    if (!(name in params)) return whole;
    if (one === undefined) return params[name];
    return `${params[name]} ${plural.select(Number(fields[name])) === "one" ? one : other}`;
  });
}

/**
 * One log line: the platform's sentence for its own events, else the game type's template, else
 * the event's name and data. A scoring line says who scored when its template does not.
 * @param {import("../core/types.js").GameEvent} event
 * @param {Naming & { templates: { [type: string]: string } | null | undefined }} naming
 */
export function describeEvent(event, { nameOf, templates, data }) {
  const fields = event.data || {};
  const params = Object.fromEntries(Object.entries(fields).map(([key, raw]) => [key, spell(key, raw, { nameOf, data })]));
  // A bot joins under the API's default name ("greedy bot"): the seat's name as the page shows it.
  if (fields.bot && typeof fields.seat === "number" && "name" in params) params.name = nameOf(fields.seat);
  const template = (templates && templates[event.type]) || null;
  let sentence = tOptional(`event.${event.type}`, params)
    || (template ? fill(template, params, fields) : null);
  if (sentence && !sentence.includes("{")) {
    const saysWho = template && template.includes("{winners}");
    if (!saysWho && "points" in fields && Array.isArray(fields.winners) && fields.winners.length) {
      sentence = `${sentence} ${t("log.scored_by", { names: params.winners })}`;
    }
    return sentence;
  }
  const name = tOptional(`event_name.${event.type}`) || humanize(event.type);
  const who = typeof fields.seat === "number" && Number.isInteger(fields.seat) ? `${nameOf(fields.seat)}: ` : "";
  const rest = Object.entries(fields).filter(([key]) => key !== "seat" && key !== "seed").map(([key]) => `${humanize(key)} ${params[key]}`);
  return `${who}${name}${rest.length ? ` (${rest.join("; ")})` : ""}`;
}

export { t };
