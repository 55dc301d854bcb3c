// @ts-check
// Keythedral: fields (octagons) and gaps (diamonds: cottages, houses, the Keythedral) on the
// parity lattice the view uses, fences between a gap and a field, workers; Keytown; the store;
// the building tiles for sale; your own screen (cubes, law cards with their texts). The API sends
// nobody else's cubes or law cards, so none are drawn.

import { h, s, stacked, clickable, SEAT_COLOURS, SEAT_MARKS } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { nameOf, item } from "../core/catalog.js";
import { panZoom } from "./pan_zoom.js";
import { group, activate, panel } from "./picker.js";
import { generic } from "./generic.js";

/** @typedef {import("../core/types.js").Choice} Choice */
/** @typedef {import("../core/types.js").StaticData} StaticData */
/** @typedef {import("./index.js").RenderContext} RenderContext */
/** @typedef {{ x: number, y: number, field: string }} Field a field on the map (the view's `fields`) */

const S = 40; // pixels per lattice step: fields are two steps apart
/** @type {{ [field: string]: string }} */
const FIELD_FILL = { farm: "#f1d36b", forest: "#5d9b4a", quarry: "#a7a7a7", lake: "#6fa8dc", vineyard: "#a57fc4", pasture: "#b9dc8a" };
/** @type {{ [colour: string]: string }} */
const CUBE_FILL = { black: "#222", brown: "#7b4a1e", blue: "#2a6fdb", green: "#2a9d4a", red: "#c62828", white: "#fff", purple: "#7b3fa0", yellow: "#f2c200" };

/**
 * @param {Choice} choice
 */
function keyOf(choice) {
  if ("x" in choice && "y" in choice && "number" in choice) return `gap:${choice.x},${choice.y}`;
  if ("x" in choice && "y" in choice) return `cell:${choice.x},${choice.y}`;
  if (Array.isArray(choice.fields) && choice.fields.length) return `cell:${choice.fields[0][0]},${choice.fields[0][1]}`;
  if ("fence" in choice && "gx" in choice) return `slot:${choice.gx},${choice.gy},${choice.fx},${choice.fy}`;
  if (choice.action === "buy" && choice.tile) return `tile:${choice.tile}`;
  if (choice.visit) return `keytown:${choice.visit}${choice.colour ? `:${choice.colour}` : ""}`;
  if (choice.action === "play" && choice.card) return `law:${choice.card}`;
  if (Object.keys(choice).length === 1 && choice.colour) return `store:${choice.colour}`;
  return null;
}

/**
 * @param {{ [colour: string]: number } | undefined} map
 * @param {StaticData | null} data
 */
function cubes(map, data) {
  return Object.entries(map || {}).filter(([, n]) => n).map(([colour, n]) => `${n} × ${nameOf(data, "cubes", colour)}`).join(" + ") || "0";
}

/**
 * @param {Choice} choice
 * @param {RenderContext} ctx
 * @returns {string}
 */
function label(choice, ctx) {
  const data = ctx.data;
  if (choice.action === "pass") return t("kt.pass");
  if (choice.action === "decline") return t("kt.decline");
  if (choice.cubes) return `${t("kt.pay")} ${cubes(choice.cubes, data)}${choice.substitution ? ` (${t("kt.substitution")})` : ""}`;
  if ("bid" in choice) return t("kt.bid", { bid: choice.bid });
  if (Array.isArray(choice.fields)) return choice.fields.length ? choice.fields.map(([x, y]) => `(${x}, ${y})`).join(" + ") : t("kt.no_worker");
  if ("number" in choice && "x" in choice) return t("kt.cottage", { number: choice.number });
  if (choice.visit === "law_master") return t("kt.law_space", { space: choice.space + 1 });
  if (choice.card && choice.visit) return `${nameOf(data, "keytown", choice.visit)} + ${nameOf(data, "law_cards", choice.card)}`;
  if (choice.action === "play") {
    const extra = Object.entries(choice).filter(([key]) => !["action", "card"].includes(key))
      .map(([key, value]) => (key === "seat" ? ctx.nameOf(value) : `${key} ${value}`));
    return `${nameOf(data, "law_cards", choice.card)}${extra.length ? `: ${extra.join(", ")}` : ""}`;
  }
  if (choice.fence) return t(choice.fence === "build" ? "kt.fence_build" : "kt.fence_remove");
  if (choice.action === "buy" && choice.tile) {
    return `${nameOf(data, "building_tiles", choice.tile)}: ${cubes(item(data, "building_tiles", choice.tile)?.cost, data)}`;
  }
  if ("colour" in choice && "count" in choice) return `${choice.count} × ${nameOf(data, "cubes", choice.colour)}`;
  if (Object.keys(choice).length === 1 && "seat" in choice) return ctx.nameOf(choice.seat);
  if (Object.keys(choice).length === 1 && "number" in choice) return t("kt.number", { number: choice.number });
  if (choice.action && Object.keys(choice).length === 1) return t(`kt.action_${choice.action}`);
  return generic.choiceLabel(choice);
}

/**
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 */
function octagon(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 8; i++) {
    const angle = Math.PI / 8 + (i * Math.PI) / 4;
    points.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

/**
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 */
function diamond(cx, cy, r) {
  return `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`;
}

/**
 * @param {number} seat
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} [text]
 */
function mark(seat, x, y, r, text) {
  return s("g", { class: "figure", "data-seat": seat }, [
    s("circle", { cx: x, cy: y, r, fill: SEAT_COLOURS[seat % 6], stroke: "#000", "stroke-width": 1.5 }),
    s("text", { x, y: y + r * 0.4, "text-anchor": "middle", "font-size": r * 1.1, fill: "#fff", "font-weight": "bold" }, [text ?? SEAT_MARKS[seat % 6]]),
  ]);
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 */
function board(ctx, groups) {
  const state = ctx.state;
  const data = ctx.data;
  const points = [[0, 0], ...state.fields.map((/** @type {Field} */ f) => [f.x, f.y])];
  for (const player of state.players) for (const c of player.cottages) if (c.x !== null) points.push([c.x, c.y]);
  for (const key of groups.keys()) {
    const [kind, rest] = key.split(":");
    if (kind === "cell" || kind === "gap") points.push(rest.split(",").map(Number));
  }
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const minX = (Math.min(...xs) - 2) * S;
  const minY = (Math.min(...ys) - 2) * S;
  const width = (Math.max(...xs) - Math.min(...xs) + 4) * S;
  const height = (Math.max(...ys) - Math.min(...ys) + 4) * S;
  const svg = s("svg", { class: "kt-board", role: "group", "aria-label": t("kt.board"), preserveAspectRatio: "xMidYMid meet" });
  /** @type {Map<string, number[]>} seats of the workers on each field */
  const workers = new Map();
  for (const worker of state.workers) workers.set(`${worker.x},${worker.y}`, [...(workers.get(`${worker.x},${worker.y}`) || []), worker.seat]);
  for (const field of state.fields) {
    const name = nameOf(data, "field_types", field.field);
    const g = s("g", { class: "field", "data-x": field.x, "data-y": field.y, "data-info": `field_types:${field.field}` }, [
      s("polygon", { points: octagon(field.x * S, field.y * S, S * 0.98), fill: FIELD_FILL[field.field] || "#ddd", stroke: "#333" }),
      s("text", { x: field.x * S, y: field.y * S - 8, "text-anchor": "middle", "font-size": 11, "font-weight": "bold" }, [name]),
    ]);
    (workers.get(`${field.x},${field.y}`) || []).forEach((seat, i) => g.append(mark(seat, field.x * S - 10 + i * 20, field.y * S + 14, 8)));
    const key = `cell:${field.x},${field.y}`;
    if (groups.has(key)) clickable(g, t("kt.place_worker_on", { field: name }), () => activate(ctx, groups, key));
    svg.append(g);
  }
  svg.append(s("g", { class: "keythedral", "data-info": "pieces:keythedral" }, [
    s("polygon", { points: diamond(0, 0, S * 0.9), fill: "#e8dcc0", stroke: "#000", "stroke-width": 2 }),
    s("text", { x: 0, y: 4, "text-anchor": "middle", "font-size": 9, "font-weight": "bold" }, [t("kt.keythedral")]),
  ]));
  for (const player of state.players) {
    for (const cottage of player.cottages) {
      if (cottage.x === null) continue;
      const g = s("g", { class: cottage.house ? "house" : "cottage", "data-seat": player.seat, "data-info": `pieces:${cottage.house ? "house" : "cottage"}` }, [
        s("polygon", { points: diamond(cottage.x * S, cottage.y * S, S * (cottage.house ? 0.7 : 0.55)), fill: SEAT_COLOURS[player.seat % 6], stroke: "#000", "stroke-width": cottage.house ? 3 : 1.5 }),
        s("text", { x: cottage.x * S, y: cottage.y * S + 4, "text-anchor": "middle", "font-size": 11, fill: "#fff", "font-weight": "bold" }, [`${SEAT_MARKS[player.seat % 6]}${cottage.number}${cottage.house ? "⌂" : ""}`]),
        s("title", {}, [`${ctx.nameOf(player.seat)}: ${t(cottage.house ? "kt.house_n" : "kt.cottage", { number: cottage.number })}`]),
      ]);
      svg.append(g);
    }
  }
  for (const fence of state.fences) {
    svg.append(s("line", { class: "fence", x1: fence.gx * S, y1: fence.gy * S, x2: (fence.gx + fence.fx) * S / 2, y2: (fence.gy + fence.fy) * S / 2, stroke: SEAT_COLOURS[fence.seat % 6], "stroke-width": 7, "stroke-dasharray": "10 3", "stroke-linecap": "round" }, [s("title", {}, [t("kt.fence_of", { name: ctx.nameOf(fence.seat) })])]));
  }
  for (const key of groups.keys()) {
    const [kind, rest] = key.split(":");
    const nums = rest ? rest.split(",").map(Number) : [];
    if (kind === "cell" && !state.fields.some((/** @type {Field} */ f) => f.x === nums[0] && f.y === nums[1])) {
      const spot = s("polygon", { class: "spot", points: octagon(nums[0] * S, nums[1] * S, S * 0.9), fill: "#fff8", stroke: "#0b57d0", "stroke-width": 2, "stroke-dasharray": "6 4" });
      svg.append(clickable(s("g", { "data-x": nums[0], "data-y": nums[1] }, [spot]), t("kt.lay_field_here", { x: nums[0], y: nums[1] }), () => activate(ctx, groups, key)));
    } else if (kind === "gap") {
      const spot = s("polygon", { class: "spot", points: diamond(nums[0] * S, nums[1] * S, S * 0.5), fill: "#fff8", stroke: "#0b57d0", "stroke-width": 2, "stroke-dasharray": "4 3" });
      svg.append(clickable(s("g", {}, [spot]), t("kt.lay_cottage_here", { x: nums[0], y: nums[1] }), () => activate(ctx, groups, key)));
    } else if (kind === "slot") {
      const [gx, gy, fx, fy] = nums;
      const line = s("line", { x1: gx * S, y1: gy * S, x2: (gx + fx) * S / 2, y2: (gy + fy) * S / 2, stroke: "#0b57d0", "stroke-width": 10, "stroke-opacity": 0.45, "stroke-linecap": "round" });
      svg.append(clickable(s("g", {}, [line]), t("kt.fence_here"), () => activate(ctx, groups, key)));
    }
  }
  // Where the moves are, zoomed so that a cottage's gap (one step) is at least 48 px wide.
  const targets = [...groups.keys()].filter((key) => /^(cell|gap|slot):/.test(key)).map((key) => key.split(":")[1].split(",").map(Number));
  const focus = targets.length ? [0, 1].map((i) => (targets.reduce((sum, p) => sum + p[i], 0) / targets.length) * S) : null;
  const controls = panZoom(svg, `kt:${ctx.game.id}`, { x: minX, y: minY, w: width, h: height }, { unit: S, minPx: 48, focus });
  return h("div", { class: "kt-map" }, [controls, svg]);
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 * @param {{ [colour: string]: number }} counts
 * @param {string} prefix
 */
function cubeRow(ctx, groups, counts, prefix) {
  const row = h("div", { class: "cubes" });
  for (const [colour, count] of Object.entries(counts)) {
    const key = `${prefix}:${colour}`;
    const swatch = h("span", { class: "cube", style: `background:${CUBE_FILL[colour] || "#ccc"}`, "aria-hidden": "true" });
    const text = `${nameOf(ctx.data, "cubes", colour)} ${count}`;
    row.append(groups.has(key)
      ? h("button", { type: "button", class: "cube-target", dataset: { colour }, "data-info": `cubes:${colour}`, onclick: () => activate(ctx, groups, key) }, [swatch, " ", text])
      : h("span", { class: "cube-count", dataset: { colour }, "data-info": `cubes:${colour}` }, [swatch, " ", text]));
  }
  return row;
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 */
function keytown(ctx, groups) {
  const state = ctx.state;
  const spots = ["craftsman:white", "craftsman:purple", "craftsman:yellow", "trader", "law_master"];
  const box = h("div", { class: "keytown" });
  for (const spot of spots) {
    const [visit, colour] = spot.split(":");
    const info = colour ? (ctx.data?.keytown || []).find((/** @type {{ craft?: string }} */ k) => k.craft === colour) : item(ctx.data, "keytown", visit);
    const title = info?.name || (colour ? t("kt.craftsman", { colour: nameOf(ctx.data, "cubes", colour) }) : nameOf(ctx.data, "keytown", visit));
    const extra = colour ? ` (${state.craftsmen?.[colour] ?? 0})` : "";
    const key = `keytown:${spot}`;
    const content = [h("strong", {}, [title + extra]), info?.text ? h("span", { class: "hint" }, [info.text]) : null];
    box.append(groups.has(key)
      ? h("button", { type: "button", class: "keytown-space", dataset: { visit: spot }, "data-info": info ? `keytown:${info.id}` : null, onclick: () => activate(ctx, groups, key) }, content)
      : h("div", { class: "keytown-space", dataset: { visit: spot }, "data-info": info ? `keytown:${info.id}` : null }, content));
  }
  return box;
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 */
function tilesForSale(ctx, groups) {
  const box = h("div", { class: "rows" });
  for (const row of ctx.state.rows) {
    const tiles = h("div", { class: "tile-row" }, [h("span", { class: "row-value" }, [t("kt.row", { value: row.value })])]);
    for (const tile of row.tiles) {
      // What is printed on a tile is its cost (the row gives its value): the id stays in the data.
      const text = tile.id ? cubes(tile.cost, ctx.data) : t("kt.face_down");
      const key = tile.id ? `tile:${tile.id}` : null;
      tiles.append(key && groups.has(key)
        ? h("button", { type: "button", class: "tile-target", dataset: { tile: tile.id }, "data-info": `building_tiles:${tile.id}`, onclick: () => activate(ctx, groups, key) }, [text])
        : h("span", { class: "tile", dataset: { tile: tile.id || "" }, "data-info": tile.id ? `building_tiles:${tile.id}` : null }, [text]));
    }
    box.append(tiles);
  }
  return box;
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 */
function screen(ctx, groups) {
  const you = ctx.state.you;
  if (!you) return null;
  const laws = h("ul", { class: "laws" });
  for (const card of you.law_cards || []) {
    const id = typeof card === "string" ? card : card.id || card.card;
    const info = item(ctx.data, "law_cards", id);
    const key = `law:${id}`;
    const content = [h("strong", {}, [info?.title || id]), info?.timing_text ? ` (${info.timing_text})` : "", info?.text ? h("span", { class: "hint" }, [" — ", info.text]) : null];
    laws.append(h("li", { dataset: { card: id }, "data-info": `law_cards:${id}` }, groups.has(key)
      ? [h("button", { type: "button", class: "law-target", onclick: () => activate(ctx, groups, key) }, content)]
      : content));
  }
  return h("section", { class: "screen", id: "screen" }, [
    h("h3", {}, [t("kt.your_screen")]),
    cubeRow(ctx, groups, you.cubes, "mine"),
    h("h4", {}, [t("kt.law_cards")]),
    (you.law_cards || []).length ? laws : h("p", {}, ["—"]),
  ]);
}

// Bought tiles stay behind their owner's screen: their total shows for yourself, and for
// everyone once the game is over.
/**
 * @param {RenderContext} ctx
 * @param {{ seat: number, tile_points?: number }} player
 */
function tilePoints(ctx, player) {
  if (player.tile_points !== undefined) return String(player.tile_points);
  const you = ctx.state.you;
  return you && you.seat === player.seat ? String(you.tile_points) : "?";
}

/**
 * @param {RenderContext} ctx
 */
function players(ctx) {
  return h("table", { class: "kt-players" }, [
    h("thead", {}, [h("tr", {}, [t("result.player"), t("kt.tile_points"), t("kt.tiles"), t("kt.law_cards"), t("kt.fences_left")].map((text) => h("th", {}, [text])))]),
    h("tbody", {}, ctx.state.players.map((/** @type {{ seat: number, tiles_bought: number, law_cards: number, fences_left: number, tile_points?: number }} */ player) => h("tr", { dataset: { seat: player.seat } }, [
      h("th", { scope: "row" }, [ctx.seatBadge(player.seat)]),
      h("td", {}, [tilePoints(ctx, player)]),
      h("td", {}, [String(player.tiles_bought)]),
      h("td", {}, [String(player.law_cards)]),
      h("td", {}, [String(player.fences_left)]),
    ]))),
  ]);
}

/**
 * @param {RenderContext} ctx
 */
function split(ctx) {
  return group(ctx.choices, keyOf);
}

/** @type {import("./index.js").Renderer} */
export const keythedral = {
  board(ctx) {
    const { groups } = split(ctx);
    return h("div", { class: "kt" }, [
      h("p", { class: "hint" }, [t("kt.round", { round: ctx.state.round })]),
      board(ctx, groups),
      h("div", { class: "kt-side" }, [
        screen(ctx, groups),
        h("section", {}, [h("h3", {}, [t("kt.store")]), cubeRow(ctx, groups, ctx.state.store, "store")]),
        h("section", {}, [h("h3", {}, [t("kt.keytown")]), keytown(ctx, groups)]),
        h("section", {}, [h("h3", {}, [t("kt.tiles_for_sale")]), tilesForSale(ctx, groups)]),
        h("div", { class: "table-wrap" }, [stacked(players(ctx))]),
      ]),
    ]);
  },
  choiceLabel: label,
  panel(ctx) {
    const { groups, rest } = split(ctx);
    return panel(ctx, groups, rest, (choice) => label(choice, ctx), () => t("isdb.choose_option"));
  },
};
