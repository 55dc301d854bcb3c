// @ts-check
// Im Schutze der Burg: the castle (buildings with their helper spaces), the carts and the rider,
// the watchtower, the round track, every seat's cards and stock, your hand. Secret picks: your own
// sealed pick is shown only to you (the API sends it to you alone) until everyone's are revealed.

import { h, s, stacked, clickable, SEAT_COLOURS, SEAT_MARKS } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { nameOf, item } from "../core/catalog.js";
import { group, activate, panel } from "./picker.js";
import { generic } from "./generic.js";
import { panZoom } from "./pan_zoom.js";

/** @typedef {import("../core/types.js").Choice} Choice */
/** @typedef {import("../core/types.js").StaticData} StaticData */
/** @typedef {import("./index.js").RenderContext} RenderContext */
/** @typedef {string | { card?: string, id?: string, name?: string, text?: string }} WinterCard a revealed winter card: its id, or (older views) its texts */

/** @type {{ [resource: string]: string }} */
const RESOURCE_COLOURS = { sand: "#e8d59a", wood: "#8b5a2b", clay: "#c0603a", stone: "#9a9a9a", silver: "#d8dde6" };

/**
 * @param {Choice} choice
 */
function keyOf(choice) {
  if (choice.action === "place" && choice.post) return `post:${choice.post}`;
  if (choice.action === "displace" && choice.post) return `post:${choice.post}`;
  if (choice.action === "take" && choice.resource) return `tower:${choice.resource}`;
  if (choice.action === "build" && choice.building) return `building:${choice.building}`;
  if (choice.action === "place" && choice.space && choice.space !== "guest_house") return `space:${choice.space}`;
  if (choice.action === "buy") return `worker:${choice.seat}:${choice.card}`;
  return null;
}

/**
 * @param {Choice} choice
 */
function isPick(choice) {
  return "card" in choice || "cards" in choice;
}

/**
 * @param {Choice} choice
 * @returns {string[]}
 */
function pickedCards(choice) {
  return "card" in choice ? [choice.card] : choice.cards;
}

/**
 * @param {StaticData | null} data
 * @param {string} id
 */
function resourceName(data, id) {
  return nameOf(data, "resources", id);
}

/**
 * @param {Choice} choice
 * @param {StaticData | null} data
 */
function payment(choice, data) {
  const parts = ["sand", "wood", "clay", "stone", "silver"].filter((k) => choice[k]).map((k) => `${choice[k]} × ${resourceName(data, k)}`);
  return parts.join(" + ") || "—";
}

/**
 * @param {Choice} choice
 * @param {RenderContext} ctx
 * @returns {string}
 */
function label(choice, ctx) {
  const data = ctx.data;
  if (choice.action === "build" && choice.building) {
    const earns = choice.earns || {};
    const gain = "vp" in earns ? t("isdb.earns_vp", { vp: earns.vp }) : t("isdb.earns_thalers", { thalers: earns.thalers_per_piece });
    return `${nameOf(data, "buildings", choice.building)} · ${gain}`;
  }
  if (choice.action === "pay") {
    const cheapest = ctx.game.decision?.data?.cheapest;
    const isCheapest = cheapest && ["sand", "wood", "clay", "stone", "silver"].every((k) => cheapest[k] === choice[k]);
    return `${t("isdb.pay")} ${payment(choice, data)}${isCheapest ? ` (${t("isdb.cheapest")})` : ""}`;
  }
  if (choice.action === "fix") return t("isdb.fix", { count: choice.count, resource: resourceName(data, choice.resource) });
  if (choice.action === "back") return t("isdb.back");
  if (choice.action === "place" && choice.space) {
    const from = choice.from === "supply" ? t("isdb.from_supply") : t("isdb.from_post", { post: resourceName(data, choice.from) });
    return `${choice.space === "guest_house" ? t("isdb.guest_house") : choice.space} · ${from}`;
  }
  if (choice.action === "done") return t("isdb.done");
  if (choice.action === "pass") return t("isdb.pass");
  if (choice.action === "skip") return t("isdb.skip");
  if (isPick(choice)) return pickedCards(choice).map((id) => nameOf(data, "character_cards", id)).join(" + ");
  if (choice.action === "take") return t("isdb.take", { resource: resourceName(data, choice.resource) });
  if (choice.action === "buy") return t("isdb.buy", { resource: resourceName(data, choice.resource), name: ctx.nameOf(choice.seat) });
  return generic.choiceLabel(choice);
}

/** A helper space's radius: tapped at 44 px or more in the castle's first view on a phone. */
const SPACE_R = 18;

/** On a phone (a narrow window) each drawing opens zoomed in on its moves, its smallest text
 * (10 units) at 12 px or more, every target at 44 px or more; pinch, drag and a double tap zoom
 * and pan (pan_zoom.js). A wider window shows each whole.
 */
function narrow() {
  return window.matchMedia("(max-width: 760px)").matches;
}

/**
 * The drawing in its window with the zoom buttons, opening on the first target (else the top left).
 * @param {SVGSVGElement} svg
 * @param {string} key
 * @param {{ x: number, y: number, w: number, h: number }} whole
 * @param {number} unit the smallest target's size in drawing units
 */
function zoomable(svg, key, whole, unit) {
  const target = svg.querySelector(".target[data-centre]");
  const centre = target?.getAttribute("data-centre")?.split(",").map(Number);
  const phone = narrow();
  // On a phone the window is as tall as the whole drawing at the zoom that makes a target 44 px
  // (at most 60 % of the screen): only the width needs panning.
  if (phone) svg.setAttribute("style", `height: min(60vh, ${Math.ceil((whole.h * 44) / unit)}px)`);
  const controls = panZoom(svg, key, whole, {
    unit, minPx: phone ? 44 : 0, fill: true, wheel: "ctrl", focus: centre ?? [whole.x, whole.y],
  });
  return h("div", { class: "isdb-drawing" }, [controls, svg]);
}

/**
 * @param {number} seat
 * @param {number} x
 * @param {number} y
 * @param {number} [r]
 */
function seatMark(seat, x, y, r = 9) {
  return s("g", { class: "figure", "data-seat": seat }, [
    s("circle", { cx: x, cy: y, r, fill: SEAT_COLOURS[seat % 6], stroke: "#000", "stroke-width": 1.5 }),
    s("text", { x, y: y + 4, "text-anchor": "middle", "font-size": r * 1.2, fill: "#fff", "font-weight": "bold" }, [SEAT_MARKS[seat % 6]]),
  ]);
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 */
function castle(ctx, groups) {
  const state = ctx.state;
  const data = ctx.data;
  const width = 5 * 150 + 20;
  const rows = Math.ceil(state.buildings.length / 5);
  const height = rows * 104 + 40;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "isdb-castle", role: "group", "aria-label": t("isdb.castle") });
  svg.append(s("text", { x: 10, y: 22, "font-size": 18, "font-weight": "bold" }, [t("isdb.castle")]));
  /** @type {Map<string, { space: string, building: string, fee: number, available: boolean, seat: number | null }[]>} */
  const spacesByBuilding = new Map();
  for (const space of state.helper_spaces) spacesByBuilding.set(space.building, [...(spacesByBuilding.get(space.building) || []), space]);
  const seenType = new Set();
  state.buildings.forEach((/** @type {{ building: string, tile: string, built: boolean, built_by: number | null }} */ tile, /** @type {number} */ index) => {
    const x = 10 + (index % 5) * 150;
    const y = 34 + Math.floor(index / 5) * 104;
    const info = item(data, "buildings", tile.building);
    const name = nameOf(data, "buildings", tile.building);
    const g = s("g", { class: `building ${tile.built ? "built" : "unbuilt"}`, "data-building": tile.building, "data-tile": tile.tile, "data-info": `buildings:${tile.building}`, "data-centre": `${x + 70},${y + 48}` });
    g.append(s("rect", { x, y, width: 140, height: 96, rx: 6, fill: tile.built ? "#d9cbb0" : "#f7f3ea", stroke: "#5b4a2f", "stroke-width": tile.built ? 2 : 1, "stroke-dasharray": tile.built ? null : "6 4" }));
    g.append(s("text", { x: x + 8, y: y + 18, "font-size": 13, "font-weight": "bold" }, [name]));
    g.append(s("text", { x: x + 8, y: y + 34, "font-size": 11 }, [tile.built ? t("isdb.built") : t("isdb.unbuilt")]));
    if (info) g.append(s("text", { x: x + 8, y: y + 48, "font-size": 11 }, [t("isdb.vp_value", { vp: info.vp, value: info.value })]));
    if (tile.built_by !== null && tile.built_by !== undefined) g.append(seatMark(tile.built_by, x + 124, y + 16));
    // Helper spaces are drawn on the first tile of their building type.
    if (!seenType.has(tile.building)) {
      seenType.add(tile.building);
      (spacesByBuilding.get(tile.building) || []).forEach((space, i) => {
        const cx = x + 24 + i * 46;
        const cy = y + 62;
        const spot = s("g", { class: "helper-space", "data-space": space.space, "data-centre": `${cx},${cy}` }, [
          s("rect", { x: cx - SPACE_R, y: cy - SPACE_R, width: 2 * SPACE_R, height: 2 * SPACE_R, rx: SPACE_R, fill: space.available ? "#fff" : "#eee", stroke: "#333", "stroke-dasharray": space.available ? null : "3 3" }),
          s("text", { x: cx, y: cy + SPACE_R + 10, "text-anchor": "middle", "font-size": 10 }, [t("isdb.fee", { fee: space.fee })]),
        ]);
        if (space.seat !== null && space.seat !== undefined) spot.append(seatMark(space.seat, cx, cy, 13));
        const key = `space:${space.space}`;
        if (groups.has(key)) clickable(spot, `${name}: ${t("isdb.helper_space")} (${t("isdb.fee", { fee: space.fee })})`, () => activate(ctx, groups, key));
        g.append(spot);
      });
    }
    const key = `building:${tile.building}`;
    // The target is a frame over the tile, holding no text: a button's name then never leaves out
    // words drawn inside it (axe's label-content-name-mismatch), the tile's texts stay as they are.
    if (!tile.built && groups.has(key)) {
      g.append(clickable(s("rect", { class: "hit", x, y, width: 140, height: 96, rx: 6, fill: "transparent", "data-centre": `${x + 70},${y + 48}` }), t("isdb.build", { building: name }), () => activate(ctx, groups, key)));
    }
    svg.append(g);
  });
  return zoomable(svg, `isdb-castle:${ctx.game.id}`, { x: 0, y: 0, w: width, h: height }, 2 * SPACE_R);
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 */
function countryside(ctx, groups) {
  const state = ctx.state;
  const data = ctx.data;
  const kinds = Object.keys(state.posts);
  const svg = s("svg", { viewBox: "0 0 770 250", class: "isdb-country", role: "group", "aria-label": t("isdb.countryside") });
  svg.append(s("text", { x: 10, y: 20, "font-size": 16, "font-weight": "bold" }, [t("isdb.posts")]));
  kinds.forEach((kind, i) => {
    const x = 10 + i * 150;
    const post = state.posts[kind];
    const rider = kind === "silver";
    const g = s("g", { class: "post", "data-post": kind, "data-info": `posts:${kind}`, "data-centre": `${x + 70},65` }, [
      s("rect", { x, y: 30, width: 140, height: 70, rx: rider ? 35 : 6, fill: RESOURCE_COLOURS[kind] || "#ddd", stroke: "#333" }),
      s("text", { x: x + 70, y: 52, "text-anchor": "middle", "font-size": 13, "font-weight": "bold" }, [`${rider ? t("isdb.rider") : t("isdb.cart")}: ${resourceName(data, kind)}`]),
    ]);
    if (post.seat !== null && post.seat !== undefined) g.append(seatMark(post.seat, x + 70, 78, 12));
    const key = `post:${kind}`;
    if (groups.has(key)) clickable(g, `${rider ? t("isdb.rider") : t("isdb.cart")}: ${resourceName(data, kind)}`, () => activate(ctx, groups, key));
    svg.append(g);
  });
  svg.append(s("text", { x: 10, y: 130, "font-size": 16, "font-weight": "bold" }, [t("isdb.watchtower")]));
  Object.entries(state.watchtower).forEach(([kind, count], i) => {
    const x = 10 + i * 150;
    const g = s("g", { class: "tower-resource", "data-resource": kind, "data-info": `resources:${kind}`, "data-centre": `${x + 70},160` }, [
      s("rect", { x, y: 140, width: 140, height: 40, rx: 4, fill: RESOURCE_COLOURS[kind] || "#ddd", stroke: "#333" }),
      s("text", { x: x + 70, y: 165, "text-anchor": "middle", "font-size": 13 }, [`${resourceName(data, kind)} × ${count}`]),
    ]);
    const key = `tower:${kind}`;
    if (groups.has(key)) clickable(g, `${resourceName(data, kind)} × ${count}: ${t("isdb.take", { resource: resourceName(data, kind) })}`, () => activate(ctx, groups, key));
    svg.append(g);
  });
  svg.append(s("text", { x: 10, y: 210, "font-size": 16, "font-weight": "bold" }, [t("isdb.round", { round: state.round, rounds: state.rounds })]));
  // Every round of this game on the track (15 with three players): the spacing shrinks to fit.
  const step = Math.min(46, 550 / Math.max(1, state.rounds));
  for (let r = 1; r <= state.rounds; r++) {
    const cx = 200 + (r - 1) * step + 16;
    svg.append(s("g", { class: r === state.round ? "round current" : "round", "data-round": r }, [
      s("circle", { cx, cy: 228, r: Math.min(16, step / 2 - 1), fill: r === state.round ? "#7a4b00" : r < state.round ? "#bbb" : "#fff", stroke: "#333" }),
      s("text", { x: cx, y: 233, "text-anchor": "middle", "font-size": 13, fill: r === state.round ? "#fff" : "#000" }, [String(r)]),
    ]));
  }
  return zoomable(svg, `isdb-country:${ctx.game.id}`, { x: 0, y: 0, w: 770, h: 250 }, 40);
}

/**
 * @param {RenderContext} ctx
 * @param {string} id
 * @param {string} [extra]
 */
function cardButton(ctx, id, extra) {
  const info = item(ctx.data, "character_cards", id);
  return h("span", { class: "card-face", title: info?.effect || "", dataset: { card: id }, "data-info": `character_cards:${id}` }, [nameOf(ctx.data, "character_cards", id), extra || ""]);
}

/**
 * @param {RenderContext} ctx
 * @param {Choice[]} picks
 */
function hand(ctx, picks) {
  const me = ctx.state.players.find((/** @type {{ seat: number }} */ player) => player.seat === ctx.mySeat);
  if (!me) return null;
  const box = h("section", { class: "hand", id: "hand", "aria-label": t("isdb.your_hand") }, [h("h3", {}, [t("isdb.your_hand")])]);
  const selected = ctx.ui.picked || [];
  const cards = h("div", { class: "cards" });
  const pickable = new Set(picks.flatMap(pickedCards));
  for (const id of me.hand) {
    const info = item(ctx.data, "character_cards", id);
    const name = nameOf(ctx.data, "character_cards", id);
    if (pickable.has(id)) {
      const on = selected.includes(id);
      cards.append(h("button", {
        type: "button", class: `card-face pick${on ? " selected" : ""}`, "aria-pressed": String(on), dataset: { card: id }, "data-info": `character_cards:${id}`, title: info?.effect || "",
        onclick: () => { ctx.ui.picked = on ? selected.filter((/** @type {string} */ c) => c !== id) : [...selected, id]; ctx.rerender(); },
      }, [on ? "✔ " : "", name]));
    } else {
      cards.append(cardButton(ctx, id));
    }
  }
  box.append(cards);
  if (picks.length) {
    const want = pickedCards(picks[0]).length;
    const match = picks.find((choice) => {
      const ids = pickedCards(choice);
      return ids.length === selected.length && ids.every((id) => selected.includes(id));
    });
    box.append(h("p", { class: "hint" }, [t("isdb.pick_hint", { count: want })]),
      h("button", { type: "button", id: "seal-pick", class: "primary", disabled: !match, onclick: () => match && ctx.submit(match) }, [t("isdb.seal_pick")]));
  }
  const sealed = ctx.game.decision?.your_sealed_choice;
  const mine = sealed && isPick(sealed) ? pickedCards(sealed) : ctx.state.my_picks;
  if (mine && !ctx.state.picks) {
    box.append(h("p", { id: "my-sealed-pick" }, [t("isdb.my_sealed_pick"), " ", ...mine.map((/** @type {string} */ id) => cardButton(ctx, id))]));
  }
  return box;
}

/**
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 */
function players(ctx, groups) {
  const state = ctx.state;
  const table = h("table", { class: "isdb-players" });
  const kinds = Object.keys(state.players[0]?.resources || {});
  table.append(h("thead", {}, [h("tr", {}, [
    h("th", {}, [t("result.player")]), h("th", {}, [t("isdb.thalers")]), ...kinds.map((k) => h("th", {}, [resourceName(ctx.data, k)])),
    h("th", {}, [t("isdb.vp")]), h("th", {}, [t("isdb.helpers")]), h("th", {}, [t("isdb.played")]), h("th", {}, [t("isdb.picks")]),
  ])]));
  const body = h("tbody");
  for (const player of state.players) {
    let picks;
    if (state.picks) picks = (state.picks[String(player.seat)] || []).map((/** @type {string} */ id) => cardButton(ctx, id));
    else if (ctx.game.decision?.simultaneous && ctx.game.decision.sealed.includes(player.seat)) picks = [h("span", { class: "sealed" }, ["▣ ", t("isdb.sealed")])];
    else picks = ["—"];
    body.append(h("tr", { dataset: { seat: player.seat } }, [
      h("th", { scope: "row" }, [ctx.seatBadge(player.seat)]), h("td", {}, [String(player.thalers)]),
      ...kinds.map((k) => h("td", {}, [String(player.resources[k])])),
      h("td", {}, [String(player.vp)]), h("td", {}, [String(player.helpers)]),
      h("td", {}, [player.played.map((/** @type {string} */ id) => nameOf(ctx.data, "character_cards", id)).join(", ") || "—"]),
      h("td", { class: "picks" }, picks),
    ]));
  }
  table.append(body);
  const workers = h("ul", { class: "workers" });
  for (const card of state.worker_cards || []) {
    const key = `worker:${card.seat}:${card.card}`;
    const text = `${ctx.nameOf(card.seat)}: ${nameOf(ctx.data, "character_cards", card.card)} — ${Object.entries(card.pieces).filter(([, n]) => n).map(([k, n]) => `${n} × ${resourceName(ctx.data, k)}`).join(", ")}`;
    workers.append(h("li", {}, groups.has(key) ? [h("button", { type: "button", class: "worker-card", onclick: () => activate(ctx, groups, key) }, [text])] : [text]));
  }
  return h("div", { class: "isdb-side" }, [h("div", { class: "table-wrap" }, [stacked(table)]), (state.worker_cards || []).length ? h("div", {}, [h("h3", {}, [t("isdb.worker_cards")]), workers]) : null]);
}

/**
 * A revealed winter card: its name and text from the static data (or, in older views, inline).
 * @param {RenderContext} ctx
 * @param {WinterCard} card
 */
function winterText(ctx, card) {
  const entry = typeof card === "string" ? { card } : card;
  const id = entry.card || entry.id || "";
  const info = item(ctx.data, "winter_cards", id);
  return `${entry.name || info?.name || id}: ${entry.text || info?.text || ""}`;
}

/**
 * @param {RenderContext} ctx
 */
function split(ctx) {
  const picks = ctx.choices.filter(isPick);
  const { groups, rest } = group(ctx.choices.filter((c) => !isPick(c)), keyOf);
  return { picks, groups, rest };
}

/** @type {import("./index.js").Renderer} */
export const isdb = {
  board(ctx) {
    const { picks, groups } = split(ctx);
    const winter = ctx.state.winter;
    return h("div", { class: "isdb" }, [
      hand(ctx, picks),
      players(ctx, groups),
      countryside(ctx, groups),
      castle(ctx, groups),
      winter ? h("p", { class: "winter" }, [t("isdb.winter"), " ", (winter.revealed || []).map((/** @type {WinterCard} */ card) => winterText(ctx, card)).join(" · ") || "—"]) : null,
    ]);
  },
  choiceLabel: label,
  panel(ctx) {
    const { groups, rest } = split(ctx);
    return panel(ctx, groups, rest, (choice) => label(choice, ctx), (key) => {
      const [kind, id] = key.split(":");
      if (kind === "building") return t("isdb.choose_payment", { building: nameOf(ctx.data, "buildings", id) });
      return t("isdb.choose_option");
    });
  },
};
