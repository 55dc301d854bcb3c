// @ts-check
// Pan and zoom for a board drawn in SVG: drag with one finger or the mouse, pinch with two fingers,
// the wheel, or the +, − and Fit buttons. A person's view is kept per board across redraws. The
// first view is the whole board unless that makes a unit (a tile, a field) smaller than `minPx`
// on screen: then it is zoomed in around `focus` so every target there can be tapped (≥ 44 px).
//
// All that lasts (the view, a gesture under way) is kept per board key, not in the drawing: the
// page keeps its <svg> when the board is drawn again (core/morph.js) and the handlers of the newest
// drawing act on it, so a drag goes on through an incoming event.

import { h, on } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** @typedef {{ x: number, y: number, w: number, h: number }} ViewBox */
/** @typedef {{ x: number, y: number }} Point */
/**
 * @typedef {{ kind: "drag", from: Point, view: ViewBox }
 *   | { kind: "pinch", distance: number, centre: number[], view: ViewBox }} Gesture
 */

/**
 * @typedef {object} Board
 * @property {ViewBox | null} chosen the view a person panned or zoomed to
 * @property {{ inputs: string, view: ViewBox } | null} fitted the first view last measured, for its inputs
 * @property {Map<number, Point>} pointers
 * @property {Gesture | null} gesture
 */

/** @type {Map<string, Board>} */
const boards = new Map();

/** @param {string} key */
function boardOf(key) {
  let board = boards.get(key);
  if (!board) boards.set(key, (board = { chosen: null, fitted: null, pointers: new Map(), gesture: null }));
  return board;
}

/**
 * The board's <svg> on the page: the one drawn now, or the one the page kept in its place.
 * @param {SVGSVGElement} drawn
 * @param {string} key
 */
function onPage(drawn, key) {
  if (drawn.isConnected) return drawn;
  const kept = document.querySelector(`svg[data-zoom="${CSS.escape(key)}"]`);
  return kept instanceof SVGSVGElement ? kept : null;
}

/** @param {SVGSVGElement | null} svg @param {ViewBox} view */
function show(svg, view) {
  svg?.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
}

/**
 * Attach pan and zoom to `svg`; returns the buttons. `whole` is the viewBox showing everything.
 * @param {SVGSVGElement} svg
 * @param {string} key
 * @param {ViewBox} whole
 * @param {{ unit?: number, minPx?: number, focus?: number[] | null }} [options]
 */
export function panZoom(svg, key, whole, { unit, minPx = 0, focus = null } = {}) {
  const board = boardOf(key);
  const inputs = JSON.stringify([whole, unit, minPx, focus]);
  const view = () => board.chosen ?? (board.fitted?.inputs === inputs ? board.fitted.view : whole);
  svg.setAttribute("data-zoom", key);
  show(svg, view());
  if (!board.chosen && unit && minPx) {
    // Measured once the board is on the page: its width in pixels decides the zoom.
    requestAnimationFrame(() => {
      const live = onPage(svg, key);
      const box = live?.getBoundingClientRect();
      if (!live || !box?.width || board.chosen) return;
      const scale = Math.min(box.width / whole.w, box.height / whole.h);
      const factor = Math.min(1, (unit * scale) / minPx);
      const [cx, cy] = focus || [whole.x + whole.w / 2, whole.y + whole.h / 2];
      const fitted = factor === 1 ? whole
        : { x: cx - (whole.w * factor) / 2, y: cy - (whole.h * factor) / 2, w: whole.w * factor, h: whole.h * factor };
      board.fitted = { inputs, view: fitted };
      show(live, fitted);
    });
  }
  /** @param {ViewBox} next */
  const keep = (next) => { board.chosen = next; show(onPage(svg, key), next); };
  /** @param {number} factor */
  const zoom = (factor, cx = view().x + view().w / 2, cy = view().y + view().h / 2) => {
    const v = view();
    keep({ x: cx - (cx - v.x) * factor, y: cy - (cy - v.y) * factor, w: v.w * factor, h: v.h * factor });
  };
  /** @param {Element} live @param {number} clientX @param {number} clientY */
  const toBoard = (live, clientX, clientY) => {
    const box = live.getBoundingClientRect();
    const v = view();
    return [v.x + ((clientX - box.left) / box.width) * v.w, v.y + ((clientY - box.top) / box.height) * v.h];
  };
  /** @param {Element} live */
  const start = (live) => {
    const points = [...board.pointers.values()];
    if (points.length === 1) board.gesture = { kind: "drag", from: points[0], view: view() };
    else if (points.length === 2) {
      const [a, b] = points;
      board.gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y), centre: toBoard(live, (a.x + b.x) / 2, (a.y + b.y) / 2), view: view() };
    } else board.gesture = null;
  };
  on(svg, "wheel", (/** @type {WheelEvent} */ event) => {
    event.preventDefault();
    if (event.currentTarget instanceof Element) zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, ...toBoard(event.currentTarget, event.clientX, event.clientY));
  }, { passive: false });
  on(svg, "pointerdown", (/** @type {PointerEvent} */ event) => {
    const live = event.currentTarget;
    if (!(live instanceof SVGSVGElement)) return;
    if (event.target instanceof Element && event.target.closest(".target") && !board.pointers.size) return; // a tap on a target is a move
    board.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    live.setPointerCapture(event.pointerId);
    start(live);
  });
  on(svg, "pointermove", (/** @type {PointerEvent} */ event) => {
    const live = event.currentTarget;
    const gesture = board.gesture;
    if (!(live instanceof Element) || !board.pointers.has(event.pointerId) || !gesture) return;
    board.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const box = live.getBoundingClientRect();
    if (gesture.kind === "drag") {
      const [point] = board.pointers.values();
      const dx = ((point.x - gesture.from.x) / box.width) * gesture.view.w;
      const dy = ((point.y - gesture.from.y) / box.height) * gesture.view.h;
      keep({ ...gesture.view, x: gesture.view.x - dx, y: gesture.view.y - dy });
    } else {
      const [a, b] = board.pointers.values();
      const factor = gesture.distance / Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
      const [cx, cy] = gesture.centre;
      const v = gesture.view;
      keep({ x: cx - (cx - v.x) * factor, y: cy - (cy - v.y) * factor, w: v.w * factor, h: v.h * factor });
    }
  });
  const end = (/** @type {PointerEvent} */ event) => {
    board.pointers.delete(event.pointerId);
    if (event.currentTarget instanceof Element) start(event.currentTarget);
  };
  on(svg, "pointerup", end);
  on(svg, "pointercancel", end);
  return h("div", { class: "zoom", role: "group", "aria-label": t("carc.zoom") }, [
    h("button", { type: "button", class: "zoom-in", onclick: () => zoom(1 / 1.25), "aria-label": t("carc.zoom_in") }, ["+"]),
    h("button", { type: "button", class: "zoom-out", onclick: () => zoom(1.25), "aria-label": t("carc.zoom_out") }, ["−"]),
    h("button", { type: "button", class: "zoom-fit", onclick: () => keep(whole) }, [t("carc.fit")]),
  ]);
}
