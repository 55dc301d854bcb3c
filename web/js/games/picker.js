// @ts-check
// Shared move picking for renderers: the board groups the legal choices by what you click
// (a tile, a space, a card). One choice behind a click is submitted at once; several (a payment,
// a rotation, where a helper comes from) open a small step in the move panel. Nothing here knows
// a rule: every button is one of the listed choices, posted back verbatim.

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** Choices grouped by keyOf(choice) (null: not on the board), and the rest. */
export function group(choices, keyOf) {
  const groups = new Map();
  const rest = [];
  for (const choice of choices) {
    const key = keyOf(choice);
    if (key === null || key === undefined) rest.push(choice);
    else groups.set(key, [...(groups.get(key) || []), choice]);
  }
  return { groups, rest };
}

/** What clicking the board target `key` does. */
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
 */
export function panel(ctx, groups, rest, label, stepTitle) {
  const box = h("div", { class: "panel" });
  const pending = ctx.ui.pending;
  if (pending !== undefined && groups.has(pending)) {
    box.append(h("div", { id: "step", class: "step", role: "group", "aria-label": stepTitle(pending) }, [
      h("strong", {}, [stepTitle(pending)]),
      ...groups.get(pending).map((choice) => h("button", { type: "button", class: "step-choice", onclick: () => ctx.submit(choice) }, [label(choice)])),
      h("button", { type: "button", class: "cancel", onclick: () => { delete ctx.ui.pending; ctx.rerender(); } }, [t("game.cancel")]),
    ]));
  }
  if (rest.length) {
    box.append(h("div", { class: "step other-moves" }, rest.map((choice) =>
      h("button", { type: "button", class: "other-move", onclick: () => ctx.submit(choice) }, [label(choice)]))));
  }
  return box;
}
