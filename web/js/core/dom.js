// @ts-check
// Small DOM and SVG builders: the whole client draws with these, no framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      node.textContent = value;
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of [].concat(children ?? [])) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick}, ["label"]). */
export function h(tag, attrs, children) {
  return apply(document.createElement(tag), attrs, children);
}

/** An SVG element, same signature as h(). */
export function s(tag, attrs, children) {
  return apply(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Make an SVG shape act like a button: focusable, Enter/Space activate it, with a label. */
export function clickable(node, label, onActivate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("target");
  node.append(s("title", {}, [label]));
  node.addEventListener("click", (event) => { event.stopPropagation(); onActivate(); });
  node.addEventListener("keydown", (event) => {
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
export function stacked(table) {
  const headings = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, index) => { if (cell.tagName === "TD") cell.dataset.label = headings[index] ?? ""; });
  }
  table.classList.add("stacked");
  return table;
}
