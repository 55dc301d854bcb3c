// @ts-check
// One renderer per game type; the generic one draws any game as its choices list alone.
// A renderer is {board(ctx) -> Element, choiceLabel?(choice, ctx) -> string, panel?(ctx) -> Element}.

import { generic } from "./generic.js";
import { isdb } from "./isdb.js";
import { keythedral } from "./keythedral.js";
import { carcassonne } from "./carcassonne.js";

const renderers = { "im-schutze-der-burg": isdb, keythedral, carcassonne };

export function registerRenderer(slug, renderer) {
  renderers[slug] = renderer;
}

export function rendererFor(slug) {
  return renderers[slug] || generic;
}

export function choiceText(slug, choice, ctx) {
  const renderer = rendererFor(slug);
  return (renderer.choiceLabel && renderer.choiceLabel(choice, ctx)) || generic.choiceLabel(choice);
}
