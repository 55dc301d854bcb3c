// @ts-check
// Carcassonne: every tile drawn from the static data (its 13 zones, each owned by a segment whose
// kind gives the colour and a pattern), pan and zoom, a preview of the drawn tile on every legal
// position with every legal rotation (all read from the choices), figures placed by clicking the
// feature on the tile just placed, the pile count and the scores.

import { panZoom } from "./pan_zoom.js";
import { h, s, clickable, SEAT_COLOURS, SEAT_MARKS } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { item } from "../core/catalog.js";
import { group, activate, panel } from "./picker.js";
import { generic } from "./generic.js";

/** @typedef {import("../core/types.js").Choice} Choice */
/** @typedef {import("../core/types.js").StaticData} StaticData */
/** @typedef {import("./index.js").RenderContext} RenderContext */
/** @typedef {{ x: number, y: number, tile: string, rotation: number }} PlacedTile a tile on the board (the view's `board`) */

const T = 100; // SVG units per tile
/** @type {{ [kind: string]: string }} */
const KIND_FILL = { city: "#c98b3a", road: "#f5f1e4", field: "#93c56d", cloister: "#e0c9a0", abbey: "#d9b8e8" };
/** @type {{ [kind: string]: string }} */
const KIND_PATTERN = { city: "url(#carc-city)", cloister: "url(#carc-cloister)", abbey: "url(#carc-cloister)" };
/** @type {{ [figure: string]: string }} */
const FIGURE_LETTER = { follower: "F", mayor: "M", wagon: "W", barn: "B" };
/** @type {{ [corner: string]: number[] }} */
const CORNERS = { NW: [0.12, 0.12], NE: [0.88, 0.12], SE: [0.88, 0.88], SW: [0.12, 0.88] };

/**
 * @param {RenderContext} ctx
 * @param {string} id
 */
function tileType(ctx, id) {
  return item(ctx.data, "tiles", id);
}

/**
 * @param {RenderContext} ctx
 */
function zonePolygons(ctx) {
  return ctx.data?.geometry?.zones || null;
}

/**
 * @param {number[][]} polygon
 */
function points(polygon) {
  return polygon.map(([x, y]) => `${x * T},${y * T}`).join(" ");
}

/**
 * One tile, drawn in its own unit square (rotation applied by the caller's transform).
 * @param {RenderContext} ctx
 * @param {string} id
 */
function tileFace(ctx, id) {
  const type = tileType(ctx, id);
  const zones = zonePolygons(ctx);
  const g = s("g", { class: "tile-face" });
  if (!type || !zones) {
    g.append(s("rect", { width: T, height: T, fill: "#ddd", stroke: "#555" }), s("text", { x: T / 2, y: T / 2, "text-anchor": "middle", "font-size": 11 }, [id]));
    return g;
  }
  g.append(s("rect", { width: T, height: T, fill: KIND_FILL.field }));
  for (const [zone, segment] of Object.entries(type.zones || {})) {
    if (!zones[zone]) continue;
    const kind = segment === null || segment === undefined ? "field" : type.segments[segment]?.kind || "field";
    g.append(s("polygon", { points: points(zones[zone]), fill: KIND_PATTERN[kind] || KIND_FILL[kind] || "#ccc", stroke: kind === "city" ? "#7a5020" : "none", "stroke-width": 0.5, "data-kind": kind }));
  }
  for (const segment of type.segments || []) {
    const [ax, ay] = segment.anchor || [0.5, 0.5];
    if (segment.pennants) {
      g.append(s("path", { d: `M${ax * T - 6},${ay * T - 6} h12 v7 l-6,6 l-6,-6 z`, fill: "#2a4fa8", stroke: "#fff", "stroke-width": 1 }, [s("title", {}, [t("carc.pennant")])]));
    }
    if (segment.kind === "road") g.append(s("circle", { cx: ax * T, cy: ay * T, r: 3, fill: "#777" }));
  }
  g.append(s("rect", { width: T, height: T, fill: "none", stroke: "#4a3a20", "stroke-width": 1 }));
  return g;
}

/** A barn names a corner of the board; the tile is drawn in its printed frame and then turned, so
 * draw the barn at the printed corner that the turn brings there (static data
 * `conventions.corner_frame`: printed corner i ends up at board corner (i + rotation / 90) mod 4).
 * @param {RenderContext} ctx
 * @param {string} boardCorner
 * @param {number} rotation
 * @returns {number[]}
 */
function printedCorner(ctx, boardCorner, rotation) {
  const names = ctx.data?.conventions?.corners || ["NW", "NE", "SE", "SW"];
  const index = names.indexOf(boardCorner);
  if (index < 0) return [0.5, 0.5];
  return CORNERS[names[(index - rotation / 90 + 8) % 4]] || [0.5, 0.5];
}

/**
 * @param {RenderContext} ctx
 * @param {string} tileId
 * @param {number} segment
 * @returns {number[]}
 */
function anchorOf(ctx, tileId, segment) {
  const type = tileType(ctx, tileId);
  return type?.segments?.[segment]?.anchor || [0.5, 0.5];
}

/**
 * @param {string} figure
 * @param {number} seat
 * @param {number} x
 * @param {number} y
 */
function figureShape(figure, seat, x, y) {
  const colour = SEAT_COLOURS[seat % 6];
  const letter = `${SEAT_MARKS[seat % 6]}${FIGURE_LETTER[figure] || "?"}`;
  /** @type {{ [figure: string]: SVGElement }} */
  const shapes = {
    follower: s("circle", { cx: x, cy: y, r: 11 }),
    mayor: s("rect", { x: x - 11, y: y - 11, width: 22, height: 22 }),
    wagon: s("rect", { x: x - 13, y: y - 9, width: 26, height: 18, rx: 6 }),
    barn: s("path", { d: `M${x - 12},${y + 10} L${x},${y - 12} L${x + 12},${y + 10} Z` }),
  };
  const shape = shapes[figure] || shapes.follower;
  shape.setAttribute("fill", colour);
  shape.setAttribute("stroke", "#000");
  shape.setAttribute("stroke-width", "1.5");
  return s("g", { class: "figure", "data-seat": seat, "data-figure": figure }, [
    shape,
    s("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: "#fff", stroke: "#000", "stroke-width": 0.3 }, [letter]),
  ]);
}

/**
 * Where a choice puts the tile or abbey (its board square), or null.
 * @param {Choice} choice
 */
function squareOf(choice) {
  if ((choice.action === "place" || choice.action === "abbey") && "x" in choice && "rotation" in choice) return `${choice.x},${choice.y}`;
  if (choice.action === "abbey" && "x" in choice) return `${choice.x},${choice.y}`;
  return null;
}

/**
 * @param {Choice} choice
 */
function figureKey(choice) {
  if (choice.action !== "place" || !choice.figure) return null;
  if ("segment" in choice) return `segment:${choice.segment}`;
  if ("corner" in choice) return `corner:${choice.corner}`;
  return null;
}

/**
 * @param {Choice} choice
 * @param {RenderContext} ctx
 * @returns {string}
 */
function label(choice, ctx) {
  if (choice.action === "none") return t("carc.no_figure");
  if (choice.action === "draw") return t("carc.draw");
  if (choice.action === "abbey") return t("carc.abbey_at", { x: choice.x, y: choice.y });
  if (choice.action === "place" && "rotation" in choice) return t("carc.place_at", { x: choice.x, y: choice.y, rotation: choice.rotation });
  if (choice.action === "place" && choice.figure) {
    const figure = item(ctx.data, "figures", choice.figure)?.name || t(`carc.figure_${choice.figure}`);
    const where = choice.feature ? (ctx.data?.feature_kinds || []).find((/** @type {{ id: string, name: string }} */ k) => k.id === choice.feature)?.name || choice.feature : choice.corner;
    return `${figure} → ${where}`;
  }
  return generic.choiceLabel(choice);
}

/**
 * @param {number[][]} squares
 */
function fit(squares) {
  const xs = squares.map((p) => p[0]);
  const ys = squares.map((p) => p[1]);
  const minX = Math.min(...xs) - 1;
  const minY = Math.min(...ys) - 1;
  return { x: minX * T, y: minY * T, w: (Math.max(...xs) - minX + 2) * T, h: (Math.max(...ys) - minY + 2) * T };
}

function defs() {
  return s("defs", {}, [
    s("pattern", { id: "carc-city", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, [
      s("rect", { width: 8, height: 8, fill: KIND_FILL.city }), s("path", { d: "M0,8 L8,0", stroke: "#a86e2a", "stroke-width": 1.2 }),
    ]),
    s("pattern", { id: "carc-cloister", width: 6, height: 6, patternUnits: "userSpaceOnUse" }, [
      s("rect", { width: 6, height: 6, fill: KIND_FILL.cloister }), s("circle", { cx: 3, cy: 3, r: 1, fill: "#8a6a3a" }),
    ]),
  ]);
}

/**
 * Where to look first: the middle of the squares the drawn tile may go to, else of the board.
 * @param {number[][]} all
 * @param {Map<string, Choice[]>} squares
 */
function focusOf(all, squares) {
  const points = squares.size ? [...squares.keys()].map((key) => key.split(",").map(Number)) : all;
  const mean = (/** @type {number} */ index) => points.reduce((sum, p) => sum + p[index], 0) / points.length;
  return [(mean(0) + 0.5) * T, (mean(1) + 0.5) * T];
}

/**
 * @param {RenderContext} ctx
 */
function board(ctx) {
  const state = ctx.state;
  const placements = ctx.choices.filter((choice) => squareOf(choice) !== null);
  const { groups: squares } = group(placements, squareOf);
  const { groups: figureSpots } = group(ctx.choices, figureKey);
  const svg = s("svg", { class: "carc-board", role: "group", "aria-label": t("carc.board"), preserveAspectRatio: "xMidYMid meet" }, [defs()]);
  const layer = s("g", { class: "tiles" });
  for (const placed of state.board) {
    const tile = s("g", { class: "placed", "data-x": placed.x, "data-y": placed.y, "data-info": `${placed.tile === ctx.data?.abbey_tile?.id ? "abbey_tile" : "tiles"}:${placed.tile}`, transform: `translate(${placed.x * T},${placed.y * T}) rotate(${placed.rotation},${T / 2},${T / 2})` }, [tileFace(ctx, placed.tile)]);
    layer.append(tile);
  }
  svg.append(layer);
  // Figures, at the anchor of their segment (drawn upright on the rotated tile).
  const tileAt = new Map(state.board.map((/** @type {PlacedTile} */ placed) => [`${placed.x},${placed.y}`, placed]));
  for (const figure of state.figures || []) {
    const placed = tileAt.get(`${figure.x},${figure.y}`);
    if (!placed) continue;
    const [ax, ay] = figure.corner ? printedCorner(ctx, figure.corner, placed.rotation) : anchorOf(ctx, placed.tile, figure.segment);
    const g = s("g", { "data-info": `figures:${figure.figure}`, transform: `translate(${placed.x * T},${placed.y * T}) rotate(${placed.rotation},${T / 2},${T / 2})` }, [
      s("g", { transform: `rotate(${-placed.rotation},${ax * T},${ay * T})` }, [figureShape(figure.figure, figure.seat, ax * T, ay * T)]),
    ]);
    g.append(s("title", {}, [`${ctx.nameOf(figure.seat)}: ${figure.figure} (${figure.feature || figure.corner || ""})`]));
    svg.append(g);
  }
  // Every legal square of the drawn tile (or the abbey).
  const pending = ctx.ui.at;
  for (const [key, options] of squares) {
    const [x, y] = key.split(",").map(Number);
    if (key === pending) {
      const rotation = options[(ctx.ui.rot || 0) % options.length].rotation ?? 0;
      const tileId = options[0].action === "abbey" ? ctx.data?.abbey_tile?.id : state.tile;
      svg.append(s("g", { class: "preview", transform: `translate(${x * T},${y * T}) rotate(${rotation},${T / 2},${T / 2})`, opacity: 0.85 }, [tileFace(ctx, tileId || "?")]));
      svg.append(s("rect", { x: x * T + 2, y: y * T + 2, width: T - 4, height: T - 4, fill: "none", stroke: "#0b57d0", "stroke-width": 4 }));
      continue;
    }
    const spot = s("g", { "data-x": x, "data-y": y }, [s("rect", { x: x * T + 4, y: y * T + 4, width: T - 8, height: T - 8, rx: 8, fill: "#ffffff88", stroke: "#0b57d0", "stroke-width": 3, "stroke-dasharray": "10 6" }),
      s("text", { x: x * T + T / 2, y: y * T + T / 2 + 5, "text-anchor": "middle", "font-size": 14, fill: "#0b57d0" }, [`${options.length}↻`])]);
    svg.append(clickable(spot, t("carc.place_here", { x, y, count: options.length }), () => { ctx.ui.at = key; ctx.ui.rot = 0; ctx.rerender(); document.getElementById("confirm-place")?.focus({ preventScroll: true }); }));
  }
  // Figure spots on the tile just placed.
  const where = ctx.game.decision?.data;
  const justPlaced = where && tileAt.get(`${where.x},${where.y}`);
  if (justPlaced) {
    let index = 0;
    for (const [key, options] of figureSpots) {
      const [kind, id] = key.split(":");
      const [ax, ay] = kind === "corner" ? printedCorner(ctx, id, justPlaced.rotation) : anchorOf(ctx, justPlaced.tile, Number(id));
      const fallback = !tileType(ctx, justPlaced.tile);
      const px = fallback ? 0.2 + 0.2 * (index % 4) : ax;
      const py = fallback ? 0.3 + 0.3 * Math.floor(index / 4) : ay;
      index++;
      const spot = s("g", { transform: `translate(${justPlaced.x * T},${justPlaced.y * T}) rotate(${fallback ? 0 : justPlaced.rotation},${T / 2},${T / 2})` }, [
        s("circle", { class: "spot", cx: px * T, cy: py * T, r: 10, fill: "#fff", stroke: "#0b57d0", "stroke-width": 3 }),
      ]);
      svg.append(clickable(spot, options.map((choice) => label(choice, ctx)).join(" / "), () => activate(ctx, figureSpots, key)));
    }
  }
  const all = [...state.board.map((/** @type {PlacedTile} */ p) => [p.x, p.y]), ...[...squares.keys()].map((key) => key.split(",").map(Number))];
  // Tiles are tapped at ≥ 64 px; a figure is placed with the new tile zoomed to ≥ 240 px, where its
  // spots (a fifth of a tile apart) are 44 px targets.
  const controls = justPlaced
    ? panZoom(svg, `${ctx.game.id}:figure:${where.x},${where.y}`, fit(all), { unit: T, minPx: 240, focus: [(justPlaced.x + 0.5) * T, (justPlaced.y + 0.5) * T] })
    : panZoom(svg, ctx.game.id, fit(all), { unit: T, minPx: 64, focus: focusOf(all, squares) });
  return h("div", { class: "carc" }, [controls, svg]);
}

/**
 * @param {RenderContext} ctx
 */
function sidebar(ctx) {
  const state = ctx.state;
  const drawn = state.tile ? s("svg", { viewBox: `-5 -5 ${T + 10} ${T + 10}`, width: 110, height: 110, class: "drawn-tile", role: "img", "aria-label": t("carc.drawn_tile", { tile: ctx.data?.tiles?.find((/** @type {{ id: string, name: string }} */ entry) => entry.id === state.tile)?.name ?? state.tile }) }, [defs(), tileFace(ctx, state.tile)]) : null;
  // Per-seat objects in `players` (the views' convention), or the older parallel lists.
  const seats = Array.isArray(state.players)
    ? state.players.map((player) => ({ seat: player.seat, score: player.score, supply: player.supply }))
    : (state.scores || []).map((/** @type {number} */ score, /** @type {number} */ seat) => ({ seat, score, supply: state.supply?.[seat] }));
  const rows = seats.map((/** @type {{ seat: number, score: number, supply: { [figure: string]: number } }} */ { seat, score, supply }) => h("tr", { dataset: { seat } }, [
    h("th", { scope: "row" }, [ctx.seatBadge(seat)]),
    h("td", {}, [String(score)]),
    h("td", {}, [h("ul", { class: "supply" }, Object.entries(supply || {}).map(([k, n]) => h("li", {}, [`${t(`carc.figure_${k}`)}: ${n}`])))]),
  ]));
  return h("div", { class: "carc-side" }, [
    h("p", { id: "pile" }, [t("carc.pile", { count: state.pile_count })]),
    drawn ? h("div", { "data-info": `tiles:${state.tile}` }, [h("strong", {}, [t("carc.your_tile")]), h("br"), drawn]) : null,
    h("table", { class: "carc-scores" }, [
      h("thead", {}, [h("tr", {}, [h("th", {}, [t("result.player")]), h("th", {}, [t("result.score")]), h("th", {}, [t("carc.supply")])])]),
      h("tbody", {}, rows),
    ]),
  ]);
}

/** @type {import("./index.js").Renderer} */
export const carcassonne = {
  board(ctx) {
    return h("div", { class: "carc-wrap" }, [board(ctx), sidebar(ctx)]);
  },
  choiceLabel: label,
  panel(ctx) {
    const placements = ctx.choices.filter((choice) => squareOf(choice) !== null);
    const { groups: squares } = group(placements, squareOf);
    const { groups, rest } = group(ctx.choices.filter((choice) => squareOf(choice) === null), figureKey);
    const box = panel(ctx, groups, rest, (choice) => label(choice, ctx), () => t("carc.which_figure"));
    const at = ctx.ui.at;
    const options = at ? squares.get(at) : undefined;
    if (options) {
      const current = options[(ctx.ui.rot || 0) % options.length];
      box.prepend(h("div", { class: "step", id: "placement" }, [
        h("strong", {}, [t("carc.rotations", { count: options.length })]),
        h("button", { type: "button", id: "rotate", disabled: options.length < 2, onclick: () => { ctx.ui.rot = ((ctx.ui.rot || 0) + 1) % options.length; ctx.rerender(); document.getElementById("rotate")?.focus({ preventScroll: true }); } }, [`↻ ${t("carc.rotate")} (${current.rotation ?? 0}°)`]),
        h("button", { type: "button", id: "confirm-place", class: "primary step-choice", onclick: () => ctx.submit(current) }, [t("carc.confirm")]),
        h("button", { type: "button", class: "cancel", onclick: () => { delete ctx.ui.at; ctx.rerender(); } }, [t("game.cancel")]),
      ]));
    } else if (squares.size) {
      box.prepend(h("p", { class: "hint" }, [t("carc.click_square", { count: squares.size })]));
    }
    return box;
  },
};
