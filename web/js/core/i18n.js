// @ts-check
// UI strings from web/i18n/<lang>.json. Game texts (names, prompts, rules) come from the API in the
// same language, asked for with Accept-Language. A key missing in the chosen language is shown as
// the key itself and recorded in window.__i18nMissing, so tests can prove nothing is untranslated.

/** @typedef {{ [name: string]: string | number }} Params values for a text's {placeholders} */

export const LANGUAGES = ["en", "de", "fr", "es"];
/** @type {Record<string, string>} */
let strings = {};
let current = "en";
window.__i18nMissing = new Set();

export function language() {
  return current;
}

/** The stored choice, else the browser's first supported language, else English. */
export function preferredLanguage() {
  const stored = localStorage.getItem("tabletop.lang");
  if (stored && LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/**
 * @param {string} lang
 */
export async function setLanguage(lang) {
  const response = await fetch(`i18n/${lang}.json`);
  strings = await response.json();
  current = lang;
  localStorage.setItem("tabletop.lang", lang);
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.getAttribute("data-i18n") ?? "");
}

/**
 * @param {string} template
 * @param {Params | undefined} params
 */
function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (_, name) => (params && name in params ? String(params[name]) : `{${name}}`));
}

/**
 * The translated string for a key, with {placeholders} filled from params.
 * @param {string} key
 * @param {Params} [params]
 */
export function t(key, params) {
  const template = strings[key];
  if (template === undefined) {
    window.__i18nMissing.add(key);
    return key;
  }
  return fill(template, params);
}

/**
 * Like t(), but null when the key does not exist (for optional texts such as event names).
 * @param {string} key
 * @param {Params} [params]
 */
export function tOptional(key, params) {
  const template = strings[key];
  return template === undefined ? null : fill(template, params);
}
