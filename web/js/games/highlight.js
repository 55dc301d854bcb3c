// @ts-check
// What changed on the board since the viewer's own last move is outlined (as on Board Game Arena),
// and what changed since the previous picture flashes: the opponents' moves are seen, not only read
// in the log. Renderers draw the whole board from the view each time, so the page compares
// pictures: an SVG part or a table cell that was not there before is new. Nothing here knows a game.
// The marks go on the fresh drawing before the page takes it over (core/morph.js): a part still
// flashing keeps its node, so its animation runs on to its end however often the board is drawn.

const FLASH_MS = 1500; // as long as the .flash animation in style.css

/**
 * A part's identity: its markup without what only says it can be clicked or is selected now.
 * @param {Element} node
 */
function identity(node) {
  const copy = /** @type {Element} */ (node.cloneNode(true));
  for (const part of [copy, ...copy.querySelectorAll(".target, .selected")]) {
    if (part.classList.contains("target")) {
      for (const name of ["tabindex", "role", "aria-label"]) part.removeAttribute(name);
      part.querySelector(":scope > title")?.remove();
    }
    part.classList.remove("target", "selected");
  }
  return copy.outerHTML;
}

/**
 * The board's parts: each drawing's top-level shapes (a layer's shapes), and each table cell.
 * @param {Element} board
 */
function parts(board) {
  /** @type {Map<string, Element>} */
  const found = new Map();
  for (const svg of board.querySelectorAll("svg")) {
    const shapes = [...svg.children].flatMap((child) => (child.matches("g.tiles") ? [...child.children] : [child]));
    for (const shape of shapes) {
      if (shape.matches("defs, title, .target, .preview, .spot")) continue;
      found.set(`${svg.getAttribute("class")}|${identity(shape)}`, shape);
    }
  }
  for (const cell of board.querySelectorAll("td")) {
    const row = cell.closest("tr");
    if (!row) continue;
    found.set(`${row.closest("table")?.className}|${row.dataset.seat ?? row.rowIndex}|${cell.cellIndex}|${cell.textContent}`, cell);
  }
  return found;
}

/**
 * What markChanges keeps between pictures.
 * @typedef {object} Pictures
 * @property {Set<string>} [base] the parts after the viewer's own last move
 * @property {Set<string>} [previous] the parts of the previous picture
 * @property {Map<string, number>} [flashing] parts flashing now, since when (performance.now())
 */

/**
 * Mark the freshly drawn board: "changed" on what differs from the picture after the viewer's
 * own last move, "flash" on what differs from the previous picture. `memory` keeps both pictures
 * between calls. `rebase` follows the viewer's own move: "now" makes this picture the base; when
 * others moved before it could be drawn, "previous" takes the one before the move instead;
 * "busy" (our move is being sent) marks nothing.
 * @param {Element} board
 * @param {Pictures} memory
 * @param {"now" | "previous" | "busy" | null} rebase
 */
export function markChanges(board, memory, rebase) {
  const now = parts(board);
  const keys = new Set(now.keys());
  if (rebase === "previous" && memory.previous) memory.base = memory.previous;
  if (rebase === "busy") {
    // Our own move is on its way: what the stream shows meanwhile is ours, nothing to mark.
  } else if (!memory.base || rebase === "now") {
    memory.base = keys;
    memory.flashing = new Map();
  } else {
    const flashing = memory.flashing || new Map();
    const time = performance.now();
    for (const [key, node] of now) {
      if (!memory.base.has(key)) node.classList.add("changed");
      if (memory.previous && !memory.previous.has(key) && !flashing.has(key)) flashing.set(key, time);
      const since = flashing.get(key);
      if (since !== undefined && time - since < FLASH_MS) node.classList.add("flash");
    }
    memory.flashing = new Map([...flashing].filter(([key, since]) => keys.has(key) && time - since < FLASH_MS));
  }
  memory.previous = keys;
}
