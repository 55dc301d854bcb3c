// @ts-check
// Small DOM and SVG builders: the whole client draws with these, no framework.

const SVG_NS = "http://www.w3.org/2000/svg";

/** @typedef {Node | string | number | null | undefined | false} Child */
/**
 * Attributes by name; `on<event>` a handler, `dataset` data attributes, `text` the text content; a
 * null, undefined or false value leaves the attribute out, true sets it empty.
 * @typedef {{ [name: string]: unknown }} Attrs
 */

/** @type {WeakMap<EventTarget, Map<string, (event: any) => void>>} */
const handlers = new WeakMap();

/**
 * Listen to `type` on `node` through the node's own table of handlers: one listener per type, which
 * calls the handler the table holds now. A redraw that keeps the node (core/morph.js) hands it the
 * fresh drawing's handlers, so a kept button never runs a handler of an older view.
 * @template {Event} E
 * @param {EventTarget} node
 * @param {string} type
 * @param {(event: E) => void} handler
 * @param {AddEventListenerOptions} [options] fixed by the first handler of this type
 */
export function on(node, type, handler, options) {
  let table = handlers.get(node);
  if (!table) handlers.set(node, (table = new Map()));
  const own = table;
  if (!own.has(type)) node.addEventListener(type, (event) => own.get(type)?.(event), options);
  own.set(type, handler);
}

/**
 * `kept` takes `fresh`'s handlers (and drops those `fresh` has not).
 * @param {EventTarget} kept
 * @param {EventTarget} fresh
 */
export function takeHandlers(kept, fresh) {
  const before = handlers.get(kept);
  const after = handlers.get(fresh);
  for (const type of before?.keys() ?? []) if (!after?.has(type)) before?.delete(type);
  for (const [type, handler] of after ?? []) on(kept, type, handler);
}

/**
 * @template {Element} T
 * @param {T} node
 * @param {Attrs | null | undefined} attrs
 * @param {Child | Child[]} children
 * @returns {T}
 */
function apply(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      on(node, key.slice(2), /** @type {(event: Event) => void} */ (value));
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (key === "dataset" && (node instanceof HTMLElement || node instanceof SVGElement)) {
      for (const [name, data] of Object.entries(/** @type {{ [name: string]: unknown }} */ (value))) {
        if (data !== undefined && data !== null) node.dataset[name] = String(data);
      }
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of Array.isArray(children) ? children : [children]) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * An HTML element: h("button", {class: "x", onclick}, ["label"]).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Child | Child[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, children) {
  return apply(document.createElement(tag), attrs, children);
}

/**
 * An SVG element, same signature as h().
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Child | Child[]} [children]
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs, children) {
  return apply(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * Make an SVG shape act like a button: focusable, Enter/Space activate it, with a label.
 * @template {SVGElement} T
 * @param {T} node
 * @param {string} label
 * @param {() => void} onActivate
 * @returns {T}
 */
export function clickable(node, label, onActivate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("target");
  node.append(s("title", {}, [label]));
  on(node, "click", (event) => { event.stopPropagation(); onActivate(); });
  on(node, "keydown", (/** @type {KeyboardEvent} */ event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onActivate(); }
  });
  return node;
}

/**
 * The page's element with this id, of the kind the caller needs (an HTMLSelectElement, ...):
 * index.html and the pages own these ids, so a missing or different one is a bug worth an error.
 * @template {Element} T
 * @param {string} id
 * @param {new (...args: any[]) => T} kind
 * @returns {T}
 */
export function byId(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`#${id} is not a ${kind.name}`);
  return node;
}

/**
 * @template {Node} T
 * @param {T} node
 * @returns {T}
 */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** Seat colours, each paired with a pattern letter so colour is never the only cue. */
export const SEAT_COLOURS = ["#d33", "#2a6fdb", "#e0a800", "#2a9d4a", "#8e44ad", "#555"];
export const SEAT_MARKS = ["A", "B", "C", "D", "E", "F"];

/** Give each body cell its column's heading (data-label), so a narrow screen can show the table
 * as one block per row (CSS `.stacked`) instead of a box that scrolls sideways. */
export function stacked(/** @type {HTMLTableElement} */ table) {
  const headings = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, index) => { if (cell instanceof HTMLTableCellElement && cell.tagName === "TD") cell.dataset.label = headings[index] ?? ""; });
  }
  table.classList.add("stacked");
  return table;
}
