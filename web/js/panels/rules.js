// @ts-check
// The rules in brief, per game and language (web/rules/<slug>.json, summarised from the rules
// references), and every component that has a text in the static data (cards, buildings, laws,
// Keytown spaces, figures: its name, cost or points and what it does), in one panel.

import { h } from "../core/dom.js";
import { t, language } from "../core/i18n.js";
import { label } from "../core/labels.js";

const summaries = new Map();

/**
 * @param {string} slug
 * @returns {Promise<{ [lang: string]: string[] } | null>}
 */
async function summary(slug) {
  if (!summaries.has(slug)) {
    summaries.set(slug, fetch(`rules/${encodeURIComponent(slug)}.json`).then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  return summaries.get(slug);
}

const TEXTS = ["effect", "text", "scoring_text", "timing_text"];

/**
 * Every component of the static data that says what it does, grouped by its list.
 * @param {import("../core/types.js").StaticData | null} data
 * @returns {[string, [string, string][]][]} [list, [name, text] per component] per list
 */
function components(data) {
  /** @type {[string, [string, string][]][]} */
  const groups = [];
  for (const [list, entries] of Object.entries(data || {})) {
    if (!Array.isArray(entries)) continue;
    const described = entries.filter((entry) => entry && (entry.name || entry.title) && TEXTS.some((key) => entry[key]));
    if (!described.length) continue;
    groups.push([list, described.map((entry) => {
      const facts = [];
      if (entry.vp) facts.push(t("rules.points", { points: entry.vp }));
      if (entry.cost && typeof entry.cost === "object") facts.push(Object.entries(entry.cost).map(([id, n]) => `${n} ${label(data, "resource", id) ?? id}`).join(", "));
      if (typeof entry.price === "number") facts.push(t("rules.price", { price: entry.price }));
      const text = TEXTS.map((key) => entry[key]).filter(Boolean).join(" ");
      return [entry.name || entry.title, [facts.join(" · "), text].filter(Boolean).join(" — ")];
    })]);
  }
  return groups;
}

/**
 * The panel: the summary in the page's language, then the components; null without either.
 * @param {string} slug
 * @param {import("../core/types.js").StaticData | null} data
 */
export async function rulesPanel(slug, data) {
  const texts = await summary(slug);
  const lines = texts?.[language()] || texts?.en || [];
  const groups = components(data);
  if (!lines.length && !groups.length) return null;
  return h("details", { id: "rules", class: "card rules" }, [
    h("summary", {}, [h("h2", {}, [t("rules.title")])]),
    lines.length ? h("ul", { class: "rules-summary" }, lines.map((line) => h("li", {}, [line]))) : null,
    ...groups.map(([list, items]) => h("details", { class: "components", dataset: { list } }, [
      h("summary", {}, [t(`rules.list.${list}`)]),
      h("dl", {}, items.flatMap(([name, text]) => [h("dt", {}, [name]), h("dd", {}, [text])])),
    ])),
  ]);
}
