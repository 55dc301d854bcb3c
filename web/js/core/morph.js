// @ts-check
// Redraw by comparison: a part of the page is drawn afresh from the state (plain h() calls, as
// everywhere), then the page's nodes are made to match the fresh ones, keeping every node that has
// a counterpart. A kept node keeps what lives only in the browser: focus, an open <details>, a
// scroll position, a running animation, text typed into a field. So nothing the person is doing
// needs keeping aside by hand while events redraw the page around it.
//
// Nodes are paired by key (the `id` or `data-key` attribute), else in order among siblings of the
// same tag. A kept node takes the fresh node's attributes, handlers (core/dom.js `on`) and children.

import { takeHandlers } from "./dom.js";

/**
 * What pairs a node with its counterpart among its siblings regardless of order, or null.
 * @param {Node} node
 */
function keyOf(node) {
  if (!(node instanceof Element)) return null;
  return node.getAttribute("data-key") ?? (node.id || null);
}

/**
 * Whether `fresh` may be drawn by changing `live` (same kind of node, same tag).
 * @param {Node} live
 * @param {Node} fresh
 */
function sameKind(live, fresh) {
  return live.nodeType === fresh.nodeType && live.nodeName === fresh.nodeName && keyOf(live) === keyOf(fresh);
}

/**
 * Attributes the person changes rather than the page: a <details> opened or closed by hand stays so
 * (the fresh drawing's choice applies to a node drawn for the first time).
 * @param {Element} node
 * @param {string} name
 */
function ownedByPerson(node, name) {
  return name === "open" && node.localName === "details";
}

/**
 * @param {Element} live
 * @param {Element} fresh
 */
function updateAttributes(live, fresh) {
  for (const { name, value } of [...fresh.attributes]) {
    if (live.getAttribute(name) !== value && !ownedByPerson(live, name)) live.setAttribute(name, value);
  }
  for (const { name } of [...live.attributes]) {
    if (!fresh.hasAttribute(name) && !ownedByPerson(live, name)) live.removeAttribute(name);
  }
}

/**
 * Make `live` look and act as `fresh` does (both of the same kind).
 * @param {Node} live
 * @param {Node} fresh
 */
function update(live, fresh) {
  if (live instanceof Element && fresh instanceof Element) {
    updateAttributes(live, fresh);
    takeHandlers(live, fresh);
    morphChildren(live, [...fresh.childNodes]);
  } else if (live.nodeValue !== fresh.nodeValue) {
    live.nodeValue = fresh.nodeValue;
  }
}

/**
 * Make the children of `live` match `fresh` (nodes not in the page), keeping every child of `live`
 * that has a counterpart; the fresh nodes without one are moved into the page as they are.
 * @param {Node} live
 * @param {Node[]} fresh
 */
export function morphChildren(live, fresh) {
  const old = [...live.childNodes];
  /** @type {Map<string, Node>} */
  const keyed = new Map();
  for (const node of old) {
    const key = keyOf(node);
    if (key !== null && !keyed.has(key)) keyed.set(key, node);
  }
  const kept = new Set();
  let cursor = 0; // unkeyed nodes pair in order: the next candidate in `old`
  const wanted = fresh.map((node) => {
    const key = keyOf(node);
    let match = null;
    if (key !== null) {
      const candidate = keyed.get(key);
      if (candidate && !kept.has(candidate) && sameKind(candidate, node)) match = candidate;
    } else {
      for (let index = cursor; index < old.length; index++) {
        const candidate = old[index];
        if (!kept.has(candidate) && keyOf(candidate) === null && sameKind(candidate, node)) {
          match = candidate;
          cursor = index + 1;
          break;
        }
      }
    }
    if (!match) return node;
    kept.add(match);
    update(match, node);
    return match;
  });
  for (const node of old) if (!kept.has(node)) live.removeChild(node);
  let next = live.firstChild;
  for (const node of wanted) {
    if (node === next) next = next.nextSibling;
    else live.insertBefore(node, next); // a new node, or a kept one whose place changed
  }
}

/**
 * Draw the content of `live` again: `draw(fresh)` fills an empty element of the same kind, then
 * `live` is made to match it.
 * @template {Element} T
 * @param {T} live
 * @param {(fresh: T) => void} draw
 */
export function redraw(live, draw) {
  const fresh = /** @type {T} */ (live.cloneNode(false));
  draw(fresh);
  morphChildren(live, [...fresh.childNodes]);
}
