// @ts-check
// One renderer per game type; the generic one draws any game as its choices list alone.

import { generic } from "./generic.js";
import { isdb } from "./isdb.js";
import { keythedral } from "./keythedral.js";
import { carcassonne } from "./carcassonne.js";

/** @typedef {import("../core/types.js").Choice} Choice */

/**
 * What a renderer draws from: the game page's state, and what a click on the board may do.
 * @typedef {object} RenderContext
 * @property {import("../core/types.js").GameView} game
 * @property {import("../core/types.js").GameState} state the viewer's view of the game
 * @property {import("../core/types.js").GameType | null} type
 * @property {import("../core/types.js").StaticData | null} data
 * @property {Choice[]} choices the viewer's legal moves (none while not deciding)
 * @property {number | null} mySeat
 * @property {import("../core/types.js").HalfMadeMove} ui the half-made move (kept while the same moves stay open)
 * @property {(seat: number | null | undefined) => string} nameOf
 * @property {(seat: number) => HTMLElement} seatBadge
 * @property {(choice: Choice) => Promise<void>} submit
 * @property {() => void} rerender
 */

/**
 * @typedef {object} Renderer
 * @property {(ctx: RenderContext) => Element} board
 * @property {(choice: Choice, ctx: RenderContext) => string} [choiceLabel]
 * @property {(ctx: RenderContext) => Element | null} [panel] the move panel: a half-made move's next step
 * @property {boolean} [movesOpen] whether the list of every move starts open
 */

/** @type {{ [slug: string]: Renderer }} */
const renderers = { "im-schutze-der-burg": isdb, keythedral, carcassonne };

/**
 * @param {string} slug
 * @param {Renderer} renderer
 */
export function registerRenderer(slug, renderer) {
  renderers[slug] = renderer;
}

/** @param {string} slug */
export function rendererFor(slug) {
  return renderers[slug] || generic;
}

/**
 * @param {string} slug
 * @param {Choice} choice
 * @param {RenderContext} ctx
 */
export function choiceText(slug, choice, ctx) {
  const renderer = rendererFor(slug);
  return (renderer.choiceLabel && renderer.choiceLabel(choice, ctx)) || generic.choiceLabel(choice);
}
