// @ts-check
// Pan and zoom for a board drawn in SVG: drag with one finger or the mouse, pinch with two fingers,
// the wheel, or the +, − and Fit buttons. A person's view is kept per board across redraws. The
// first view is the whole board unless that makes a unit (a tile, a field) smaller than `minPx`
// on screen: then it is zoomed in around `focus` so every target there can be tapped (≥ 44 px);
// with `fill` that first view takes the shape of the board's window (no empty bands), inside the
// board. A double tap zooms in twice around the finger, or back to the whole board once zoomed in
// far. `wheel: "ctrl"` leaves the plain wheel to the page (a board in the page's flow) and zooms
// on Ctrl+wheel, which is also what a touchpad's pinch sends.
//
// All that lasts (the view, a gesture under way) is kept per board key, not in the drawing: the
// page keeps its <svg> when the board is drawn again (core/morph.js) and the handlers of the newest
// drawing act on it, so a drag goes on through an incoming event.

import { h, on } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** @typedef {{ x: number, y: number, w: number, h: number }} ViewBox */
/** @typedef {{ x: number, y: number }} Point */
/** @typedef {{ at: number, x: number, y: number }} Tap */
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
 * @property {{ at: number, x: number, y: number, moved: number } | null} press the finger down now, if one
 * @property {Tap | null} tap the last short tap on the board (not on a target)
 */

/** @type {Map<string, Board>} */
const boards = new Map();

/** @param {string} key */
function boardOf(key) {
  let board = boards.get(key);
  if (!board) boards.set(key, (board = { chosen: null, fitted: null, pointers: new Map(), gesture: null, press: null, tap: null }));
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

/** Two taps closer than this in time (ms) and space (px) are a double tap. */
const DOUBLE_TAP_MS = 350;
const DOUBLE_TAP_PX = 30;
/** A press that moved less than this (px) and lasted less than DOUBLE_TAP_MS is a tap. */
const TAP_SLOP_PX = 10;

/**
 * The first view, zoomed in so `unit` shows as `minPx`, centred on `focus` and shaped like the
 * window (`box`), kept inside the whole board where it is larger than the window.
 * @param {ViewBox} whole
 * @param {DOMRect} box
 * @param {number} pxPerUnit
 * @param {number[]} focus
 * @returns {ViewBox}
 */
function filled(whole, box, pxPerUnit, [cx, cy]) {
  const w = box.width / pxPerUnit;
  const h = box.height / pxPerUnit;
  /** @param {number} centre @param {number} size @param {number} start @param {number} extent */
  const place = (centre, size, start, extent) => (size >= extent ? start + (extent - size) / 2 : Math.min(Math.max(centre - size / 2, start), start + extent - size));
  return { x: place(cx, w, whole.x, whole.w), y: place(cy, h, whole.y, whole.h), w, h };
}

/**
 * Attach pan and zoom to `svg`; returns the buttons. `whole` is the viewBox showing everything.
 * @param {SVGSVGElement} svg
 * @param {string} key
 * @param {ViewBox} whole
 * @param {{ unit?: number, minPx?: number, focus?: number[] | null, fill?: boolean, wheel?: "always" | "ctrl" }} [options]
 */
export function panZoom(svg, key, whole, { unit, minPx = 0, focus = null, fill = false, wheel = "always" } = {}) {
  const board = boardOf(key);
  const inputs = JSON.stringify([whole, unit, minPx, focus, fill]);
  const view = () => board.chosen ?? (board.fitted?.inputs === inputs ? board.fitted.view : whole);
  svg.setAttribute("data-zoom", key);
  svg.setAttribute("data-whole", `${whole.x} ${whole.y} ${whole.w} ${whole.h}`); // what "Fit" shows
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
        : fill ? filled(whole, box, minPx / unit, [cx, cy])
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
  /** @param {Element} live @param {number} id */
  const capture = (live, id) => {
    try { if (!live.hasPointerCapture(id)) live.setPointerCapture(id); } catch { /* the pointer is gone already */ }
  };
  on(svg, "wheel", (/** @type {WheelEvent} */ event) => {
    if (wheel === "ctrl" && !event.ctrlKey) return;
    event.preventDefault();
    if (event.currentTarget instanceof Element) zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, ...toBoard(event.currentTarget, event.clientX, event.clientY));
  }, { passive: false });
  on(svg, "pointerdown", (/** @type {PointerEvent} */ event) => {
    const live = event.currentTarget;
    if (!(live instanceof SVGSVGElement)) return;
    if (event.target instanceof Element && event.target.closest(".target") && !board.pointers.size) return; // a tap on a target is a move
    board.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    board.press = board.pointers.size === 1 ? { at: event.timeStamp, x: event.clientX, y: event.clientY, moved: 0 } : null;
    // The pointer is captured once it moves (a drag or a pinch), not on a press: a click on a
    // piece that is no target (its details, details.js) still lands on the piece.
    if (board.pointers.size > 1) for (const id of board.pointers.keys()) capture(live, id);
    start(live);
  });
  on(svg, "pointermove", (/** @type {PointerEvent} */ event) => {
    const live = event.currentTarget;
    const gesture = board.gesture;
    if (!(live instanceof Element) || !board.pointers.has(event.pointerId) || !gesture) return;
    board.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (board.press) board.press.moved = Math.max(board.press.moved, Math.hypot(event.clientX - board.press.x, event.clientY - board.press.y));
    if (!board.press || board.press.moved > TAP_SLOP_PX) capture(live, event.pointerId);
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
    if (!board.pointers.delete(event.pointerId)) return;
    if (event.currentTarget instanceof Element) start(event.currentTarget);
  };
  /** A short press that did not move is a tap; the second of two close taps zooms. */
  const tapped = (/** @type {PointerEvent} */ event) => {
    const press = board.press;
    board.press = null;
    if (!press || press.moved > TAP_SLOP_PX || event.timeStamp - press.at > DOUBLE_TAP_MS) { board.tap = null; return; }
    const last = board.tap;
    if (last && event.timeStamp - last.at < DOUBLE_TAP_MS && Math.hypot(press.x - last.x, press.y - last.y) < DOUBLE_TAP_PX
        && event.currentTarget instanceof Element) {
      board.tap = null;
      if (view().w < whole.w / 6) keep(whole); // zoomed in far: back to the whole board
      else zoom(0.5, ...toBoard(event.currentTarget, press.x, press.y));
    } else board.tap = { at: event.timeStamp, x: press.x, y: press.y };
  };
  on(svg, "pointerup", (/** @type {PointerEvent} */ event) => {
    const mine = board.pointers.has(event.pointerId);
    end(event);
    if (mine && !board.pointers.size) tapped(event);
  });
  on(svg, "pointercancel", (/** @type {PointerEvent} */ event) => { board.press = null; end(event); });
  return h("div", { class: "zoom", role: "group", "aria-label": t("carc.zoom") }, [
    h("button", { type: "button", class: "zoom-in", onclick: () => zoom(1 / 1.25), "aria-label": t("carc.zoom_in") }, ["+"]),
    h("button", { type: "button", class: "zoom-out", onclick: () => zoom(1.25), "aria-label": t("carc.zoom_out") }, ["−"]),
    h("button", { type: "button", class: "zoom-fit", onclick: () => keep(whole) }, [t("carc.fit")]),
  ]);
}
