// @ts-check
// Pan and zoom for a board drawn in SVG: drag with one finger or the mouse, pinch with two fingers,
// the wheel, or the +, − and Fit buttons. A person's view is kept per board across redraws. The
// first view is the whole board unless that makes a unit (a tile, a field) smaller than `minPx`
// on screen: then it is zoomed in around `focus` so every target there can be tapped (≥ 44 px).

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** @typedef {{ x: number, y: number, w: number, h: number }} ViewBox */

/** @type {Map<string, ViewBox>} board key -> the viewBox a person panned or zoomed to */
const views = new Map();

/**
 * Attach pan and zoom to `svg`; returns the buttons. `whole` is the viewBox showing everything.
 * @param {SVGSVGElement} svg
 * @param {string} key
 * @param {ViewBox} whole
 * @param {{ unit?: number, minPx?: number, focus?: number[] | null }} [options]
 */
export function panZoom(svg, key, whole, { unit, minPx = 0, focus = null } = {}) {
  let view = views.get(key) || whole;
  const apply = () => svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
  const keep = (next) => { view = next; views.set(key, view); apply(); };
  apply();
  if (!views.has(key) && unit && minPx) {
    // Measured once the board is on the page: its width in pixels decides the zoom.
    requestAnimationFrame(() => {
      const box = svg.getBoundingClientRect();
      if (!box.width || views.has(key)) return;
      const scale = Math.min(box.width / view.w, box.height / view.h);
      if (unit * scale >= minPx) return;
      const factor = (unit * scale) / minPx;
      const [cx, cy] = focus || [view.x + view.w / 2, view.y + view.h / 2];
      view = { x: cx - (view.w * factor) / 2, y: cy - (view.h * factor) / 2, w: view.w * factor, h: view.h * factor };
      apply();
    });
  }
  const zoom = (factor, cx = view.x + view.w / 2, cy = view.y + view.h / 2) => {
    keep({ x: cx - (cx - view.x) * factor, y: cy - (cy - view.y) * factor, w: view.w * factor, h: view.h * factor });
  };
  const toBoard = (clientX, clientY) => {
    const box = svg.getBoundingClientRect();
    return [view.x + ((clientX - box.left) / box.width) * view.w, view.y + ((clientY - box.top) / box.height) * view.h];
  };
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, ...toBoard(event.clientX, event.clientY));
  }, { passive: false });
  const pointers = new Map();
  let gesture = null;
  const start = () => {
    const points = [...pointers.values()];
    if (points.length === 1) gesture = { kind: "drag", from: points[0], view };
    else if (points.length === 2) {
      const [a, b] = points;
      gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y), centre: toBoard((a.x + b.x) / 2, (a.y + b.y) / 2), view };
    } else gesture = null;
  };
  svg.addEventListener("pointerdown", (event) => {
    if (event.target instanceof Element && event.target.closest(".target") && !pointers.size) return; // a tap on a target is a move
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    svg.setPointerCapture(event.pointerId);
    start();
  });
  svg.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId) || !gesture) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const box = svg.getBoundingClientRect();
    if (gesture.kind === "drag") {
      const [point] = pointers.values();
      const dx = ((point.x - gesture.from.x) / box.width) * gesture.view.w;
      const dy = ((point.y - gesture.from.y) / box.height) * gesture.view.h;
      keep({ ...gesture.view, x: gesture.view.x - dx, y: gesture.view.y - dy });
    } else {
      const [a, b] = pointers.values();
      const factor = gesture.distance / Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
      const [cx, cy] = gesture.centre;
      const v = gesture.view;
      keep({ x: cx - (cx - v.x) * factor, y: cy - (cy - v.y) * factor, w: v.w * factor, h: v.h * factor });
    }
  });
  const end = (event) => { pointers.delete(event.pointerId); start(); };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  return h("div", { class: "zoom", role: "group", "aria-label": t("carc.zoom") }, [
    h("button", { type: "button", class: "zoom-in", onclick: () => zoom(1 / 1.25), "aria-label": t("carc.zoom_in") }, ["+"]),
    h("button", { type: "button", class: "zoom-out", onclick: () => zoom(1.25), "aria-label": t("carc.zoom_out") }, ["−"]),
    h("button", { type: "button", class: "zoom-fit", onclick: () => { views.set(key, whole); view = whole; apply(); } }, [t("carc.fit")]),
  ]);
}
