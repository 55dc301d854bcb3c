// @ts-check
// Any game: the view as a readable tree, every legal move as a button (keyboard and screen-reader
// friendly, and the fallback for a game without a renderer of its own).

import { h } from "../core/dom.js";
import { plain, humanize } from "../core/format.js";

/** @typedef {import("../core/types.js").Choice} Choice */
/** @typedef {import("../core/types.js").StaticData} StaticData */
/** @typedef {import("./index.js").RenderContext} RenderContext */

/** @type {Required<Pick<import("./index.js").Renderer, "board" | "movesOpen">> & { choiceLabel: (choice: Choice) => string }} */
export const generic = {
  board(ctx) {
    const rows = Object.entries(ctx.state).filter(([key]) => key !== "choices" && key !== "legal_choices");
    return h("dl", { class: "generic-state" }, rows.flatMap(([key, raw]) => [h("dt", {}, [humanize(key)]), h("dd", {}, [plain(raw)])]));
  },
  choiceLabel(choice) {
    return Object.entries(choice).map(([key, raw]) => `${humanize(key)}: ${plain(raw)}`).join(" · ") || "—";
  },
  movesOpen: true,
};
