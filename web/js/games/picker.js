// @ts-check
// Shared move picking for renderers: the board groups the legal choices by what you click
// (a tile, a space, a card). One choice behind a click is submitted at once; several (a payment,
// a rotation, where a helper comes from) open a small step in the move panel. Nothing here knows
// a rule: every button is one of the listed choices, posted back verbatim.

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** @typedef {import("../core/types.js").Choice} Choice */
/** @typedef {import("../core/types.js").StaticData} StaticData */
/** @typedef {import("./index.js").RenderContext} RenderContext */

/**
 * Choices grouped by keyOf(choice) (null: not on the board), and the rest.
 * @param {Choice[]} choices
 * @param {(choice: Choice) => string | null} keyOf
 */
export function group(choices, keyOf) {
  /** @type {Map<string, Choice[]>} */
  const groups = new Map();
  /** @type {Choice[]} */
  const rest = [];
  for (const choice of choices) {
    const key = keyOf(choice);
    if (key === null || key === undefined) rest.push(choice);
    else groups.set(key, [...(groups.get(key) || []), choice]);
  }
  return { groups, rest };
}

/**
 * What clicking the board target `key` does.
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 * @param {string} key
 */
export function activate(ctx, groups, key) {
  const options = groups.get(key) || [];
  if (options.length === 1) ctx.submit(options[0]);
  else if (options.length > 1) {
    ctx.ui.pending = key;
    ctx.rerender();
    document.getElementById("step")?.querySelector("button")?.focus({ preventScroll: true });
  }
}

/**
 * The move panel: the step for the pending target (one button per choice behind it), then a
 * button for each choice that is not on the board (pass, done, …).
 * @param {RenderContext} ctx
 * @param {Map<string, Choice[]>} groups
 * @param {Choice[]} rest
 * @param {(choice: Choice) => string} label
 * @param {(key: string) => string} stepTitle
 */
export function panel(ctx, groups, rest, label, stepTitle) {
  const box = h("div", { class: "panel" });
  const pending = ctx.ui.pending;
  const options = pending === undefined ? undefined : groups.get(pending);
  if (pending !== undefined && options) {
    box.append(h("div", { id: "step", class: "step", role: "group", "aria-label": stepTitle(pending) }, [
      h("strong", {}, [stepTitle(pending)]),
      ...options.map((choice) => h("button", { type: "button", class: "step-choice", onclick: () => ctx.submit(choice) }, [label(choice)])),
      h("button", { type: "button", class: "cancel", onclick: () => { delete ctx.ui.pending; ctx.rerender(); } }, [t("game.cancel")]),
    ]));
  }
  if (rest.length) {
    box.append(h("div", { class: "step other-moves" }, rest.map((choice) =>
      h("button", { type: "button", class: "other-move", onclick: () => ctx.submit(choice) }, [label(choice)]))));
  }
  return box;
}
