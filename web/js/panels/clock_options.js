// @ts-check
// The turn clock of a new game, the same for every game type: none, a limit per decision, or a
// Fischer bank with an increment; and what happens when it runs out. Sent as `clock` at creation.

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** The levels the API's `clock.stand_in` accepts, weakest first, and its default. */
const STAND_IN_LEVELS = ["random", "greedy", "strong"];
const DEFAULT_STAND_IN = "greedy";

export function clockFieldset() {
  const mode = h("select", { id: "clock-mode", name: "clock-mode" }, ["none", "per_decision", "fischer"].map((value) =>
    h("option", { value }, [t(`clock.mode_${value}`)])));
  const seconds = h("input", { type: "number", id: "clock-seconds", min: 1, value: 60 });
  const increment = h("input", { type: "number", id: "clock-increment", min: 0, value: 10 });
  const onExpiry = h("select", { id: "clock-expiry" }, ["bot", "forfeit"].map((value) =>
    h("option", { value }, [t(`clock.expiry_${value}`)])));
  // Who plays a lapsed, resigned or forfeited seat: the API's clock.stand_in (greedy unless chosen).
  const standIn = h("select", { id: "clock-stand-in" }, STAND_IN_LEVELS.map((value) =>
    h("option", { value, selected: value === DEFAULT_STAND_IN }, [t(`clock.stand_in_${value}`)])));
  const incrementField = h("span", { class: "clock-increment" }, [h("label", { for: "clock-increment" }, [t("clock.increment")]), " ", increment]);
  const details = h("span", { class: "clock-details" }, [
    h("label", { for: "clock-seconds" }, [t("clock.seconds")]), " ", seconds, " ",
    incrementField, " ",
    h("label", { for: "clock-expiry" }, [t("clock.on_expiry")]), " ", onExpiry, " ",
    h("label", { for: "clock-stand-in" }, [t("clock.stand_in")]), " ", standIn,
  ]);
  function show() {
    details.hidden = mode.value === "none";
    incrementField.hidden = mode.value !== "fischer";
  }
  mode.addEventListener("change", show);
  show();
  return h("fieldset", { class: "clock-options" }, [
    h("legend", {}, [t("clock.title")]),
    h("p", {}, [h("label", { for: "clock-mode" }, [t("clock.mode")]), " ", mode, " ", details]),
    h("p", { class: "help" }, [t("clock.help")]),
  ]);
}

/**
 * The `clock` of the creation request, or undefined for no clock.
 * @param {HTMLFormElement} form
 */
export function readClock(form) {
  /** @param {string} id */
  const value = (id) => {
    const field = form.querySelector(`#${id}`);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? field.value : "";
  };
  const mode = value("clock-mode");
  if (mode === "none") return undefined;
  /** @type {{ mode: string, seconds: number, on_expiry: string, stand_in: string, increment?: number }} */
  const clock = {
    mode, seconds: Number(value("clock-seconds")), on_expiry: value("clock-expiry"),
    stand_in: value("clock-stand-in") || DEFAULT_STAND_IN,
  };
  if (mode === "fischer") clock.increment = Number(value("clock-increment"));
  return clock;
}
