// The game log in words. The platform's own events have sentences of their own; a game's events
// are named from the UI strings when a translation exists, with their data spelled out, and seat
// numbers replaced by names.

import { t, tOptional } from "./i18n.js";

const SEAT_KEYS = new Set(["seat", "player", "by", "active", "start", "start_player", "winner"]);

function value(key, raw, nameOf) {
  if (SEAT_KEYS.has(key) && Number.isInteger(raw)) return nameOf(raw);
  if ((key === "winners" || key === "sealed" || key === "waiting") && Array.isArray(raw)) return raw.map(nameOf).join(", ") || "—";
  if (Array.isArray(raw)) return raw.map((item) => value("", item, nameOf)).join(", ");
  if (raw && typeof raw === "object") return Object.entries(raw).map(([k, v]) => `${k.replace(/_/g, " ")} ${value(k, v, nameOf)}`).join(", ");
  return raw === null || raw === undefined ? "—" : String(raw);
}

/**
 * One log line: the platform's sentence for its own events, else the game type's template from
 * the static data (`log_templates`, in the page's language), else the event's name and data.
 */
export function describeEvent(event, { nameOf, templates }) {
  const data = event.data || {};
  const params = Object.fromEntries(Object.entries(data).map(([key, raw]) => [key, value(key, raw, nameOf)]));
  const template = templates && templates[event.type];
  const sentence = tOptional(`event.${event.type}`, params)
    || (template ? template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? params[name] : whole)) : null);
  if (sentence && !sentence.includes("{")) return sentence;
  const name = tOptional(`event_name.${event.type}`) || event.type.replace(/_/g, " ");
  const who = Number.isInteger(data.seat) ? `${nameOf(data.seat)}: ` : "";
  const rest = Object.entries(data).filter(([key]) => key !== "seat" && key !== "seed").map(([key, raw]) => `${key.replace(/_/g, " ")} ${value(key, raw, nameOf)}`);
  return `${who}${name}${rest.length ? ` (${rest.join("; ")})` : ""}`;
}

export { t };
