// @ts-check
// Plain-text formatting of API values for tables and lists.

/**
 * @param {string | number} key
 */
export function humanize(key) {
  const text = String(key).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * @param {unknown} value
 * @returns {string}
 */
export function plain(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(plain).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([key, inner]) => `${humanize(key)}: ${plain(inner)}`).join("; ");
  return String(value);
}
