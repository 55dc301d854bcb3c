// @ts-check
// Details of any piece on the page: a card, building, tile, law, Keytown space, cube, figure. A
// renderer marks a piece with data-info="<list>:<id>" (a list of the game type's static data);
// tapping or clicking a piece that is not a move shows its name, cost, effect and points in the
// panel, in the page's language. "Details" mode makes every marked piece answer (moves included)
// and reachable with Tab, so keyboard and touch users read the same texts as the mouse.

import { h, clear } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { label } from "../core/labels.js";
import { item } from "../core/catalog.js";

/** @typedef {import("../core/types.js").StaticData} StaticData */

/** Numbers worth a row, in the order shown: [field, i18n key of its label]. */
const NUMBERS = [
  ["vp", "info.vp"], ["points", "info.points"], ["value", "info.value"], ["price", "info.price"],
  ["yield", "info.yield"], ["per_player", "info.per_player"], ["count", "info.count"], ["total", "info.total"],
];
/** Texts printed on a piece, in the order shown. */
const TEXTS = ["effect", "text", "scoring_text"];

/**
 * @param {{ [id: string]: number }} raw
 * @param {StaticData | null} data
 */
function counts(raw, data) {
  return Object.entries(raw).filter(([, n]) => n).map(([id, n]) => `${n} × ${label(data, "resource", id) ?? id}`).join(", ");
}

/**
 * The static data's entry for a piece, or null.
 * @param {StaticData | null} data
 * @param {string} list
 * @param {string} id
 */
function entryOf(data, list, id) {
  if (!data) return null;
  const direct = item(data, list, id);
  if (direct) return direct;
  const single = data[list];
  return single && typeof single === "object" && !Array.isArray(single) && single.id === id ? single : null;
}

/**
 * Name, numbers and texts of one piece as page content (null when the data has no such piece).
 * @param {StaticData | null} data
 * @param {string} list
 * @param {string} id
 */
export function pieceDetails(data, list, id) {
  const entry = entryOf(data, list, id);
  if (!entry) return null;
  const rows = [];
  if (entry.cost && typeof entry.cost === "object") rows.push([t("info.cost"), counts(entry.cost, data)]);
  for (const [field, key] of NUMBERS) {
    if (typeof entry[field] === "number") rows.push([t(key), String(entry[field])]);
  }
  if (typeof entry.resource === "string") rows.push([t("info.resource"), label(data, "resource", entry.resource) ?? entry.resource]);
  if (typeof entry.craft === "string") rows.push([t("info.craft"), label(data, "colour", entry.craft) ?? entry.craft]);
  if (Array.isArray(entry.spaces) && entry.spaces.length) {
    rows.push([t("info.spaces"), entry.spaces.map((/** @type {{ fee: number }} */ space) => t("isdb.fee", { fee: space.fee })).join(", ")]);
  }
  const texts = [];
  if (entry.timing_text) texts.push(entry.timing_text);
  for (const field of TEXTS) {
    const text = entry[field];
    if (typeof text === "string" && text.includes(" ")) texts.push(text); // a one-word value is an id
  }
  return {
    title: entry.title || entry.name || label(data, list, id) || id,
    content: [
      rows.length ? h("dl", { class: "info-rows" }, rows.flatMap(([name, value]) => [h("dt", {}, [name]), h("dd", {}, [value])])) : null,
      ...texts.map((text) => h("p", {}, [text])),
    ],
  };
}

/**
 * @param {Element} node
 * @returns {[string, string] | null}
 */
function parse(node) {
  const raw = node.getAttribute("data-info") || "";
  const at = raw.indexOf(":");
  return at < 0 ? null : [raw.slice(0, at), raw.slice(at + 1)];
}

/**
 * Whether a click on `from` inside `piece` is a move (a target, a button, a link) rather than a look.
 * @param {EventTarget | null} from
 * @param {Element} piece
 */
function isMove(from, piece) {
  for (let node = from instanceof Element ? from : null; node; node = node.parentElement) {
    if (node.classList.contains("target") || ["BUTTON", "A", "INPUT", "SELECT"].includes(node.tagName)) return true;
    if (node === piece) return false;
  }
  return false;
}

/**
 * The marked piece an event happened on, or null.
 * @param {Event} event
 */
function pieceOf(event) {
  return event.target instanceof Element ? event.target.closest("[data-info]") : null;
}

/**
 * The details panel for the game page `root`: returns {panel, refresh()}; call refresh after each
 * redraw (new pieces become reachable in details mode). `data()` gives the current static data.
 * @param {HTMLElement} root
 * @param {() => StaticData | null} data
 */
export function detailsPanel(root, data) {
  let inspecting = false;
  const body = h("div", { id: "piece-info-body", class: "piece-info-body" }, [t("info.help")]);
  const toggle = h("button", { type: "button", id: "inspect", "aria-pressed": "false", onclick: () => setMode(!inspecting) }, [t("info.inspect")]);
  const panel = h("section", { id: "piece-info", class: "card piece-info", "aria-label": t("info.title") }, [
    h("div", { class: "piece-info-bar" }, [toggle]), h("div", { "aria-live": "polite" }, [body]),
  ]);

  /**
   * @param {Element} piece
   */
  function show(piece) {
    const [list, id] = parse(piece) || [];
    const details = list && id !== undefined ? pieceDetails(data(), list, id) : null;
    if (!details) return false;
    clear(body).append(h("h3", {}, [details.title]), ...details.content.flatMap((part) => (part ? [part] : [])));
    body.dataset.shown = `${list}:${id}`;
    return true;
  }

  /**
   * @param {boolean} on
   */
  function setMode(on) {
    inspecting = on;
    toggle.setAttribute("aria-pressed", String(on));
    root.classList.toggle("inspecting", on);
    refresh();
  }

  /**
   * In details mode every marked piece is a tab stop with a name; otherwise only what it was.
   * `within`: the page (a change of mode), or a part drawn afresh before it joins the page.
   * @param {Element} [within]
   */
  function refresh(within = root) {
    for (const piece of within.querySelectorAll("[data-info]")) {
      const added = piece.hasAttribute("data-info-tab");
      if (inspecting && !added && !piece.hasAttribute("tabindex") && !["BUTTON", "A"].includes(piece.tagName)) {
        piece.setAttribute("tabindex", "0");
        piece.setAttribute("data-info-tab", "");
        if (!piece.hasAttribute("role")) piece.setAttribute("role", "button");
        if (!piece.hasAttribute("aria-label")) {
          const [list, id] = parse(piece) || ["", ""];
          piece.setAttribute("aria-label", `${t("info.title")}: ${pieceDetails(data(), list, id)?.title ?? id}`);
        }
      } else if (!inspecting && added) {
        piece.removeAttribute("tabindex");
        piece.removeAttribute("data-info-tab");
      }
    }
  }

  // Capture: in details mode a piece answers with its details even where a tap would be a move.
  root.addEventListener("click", (event) => {
    const piece = pieceOf(event);
    if (!piece || !inspecting) return;
    if (show(piece)) { event.preventDefault(); event.stopPropagation(); }
  }, true);
  root.addEventListener("keydown", (event) => {
    if (!inspecting || (event.key !== "Enter" && event.key !== " ")) return;
    const piece = pieceOf(event);
    if (piece && show(piece)) { event.preventDefault(); event.stopPropagation(); }
  }, true);
  // Bubble: outside details mode, a tap on a piece that is not a move shows its details.
  root.addEventListener("click", (event) => {
    const piece = pieceOf(event);
    if (piece && !isMove(event.target, piece) && !piece.classList.contains("target")) show(piece);
  });

  return { panel, refresh };
}
