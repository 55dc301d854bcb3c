// @ts-check
// Take-backs: "Undo" while the viewer's seat has a decision it may take back (nothing hidden was
// revealed since it), and the request dialog: the seats asked accept or refuse, the asking seat
// waits. The board returns to the earlier position by itself: the page re-reads the game after
// the `taken_back` event, as after any other.

import { api } from "../core/api.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

/** @typedef {(action: () => Promise<unknown>) => Promise<void>} Act an API call, then the page read again */

/**
 * The viewer's take-back control, or null when there is nothing to show.
 * @param {import("../core/types.js").GameView} game
 * @param {string | null} token
 * @param {Act} act
 * @param {(seat: number) => string} nameOf
 */
export function takebackControl(game, token, act, nameOf) {
  const takebacks = game.takebacks;
  const mySeat = game.viewer.seat;
  if (!token || mySeat === null || game.status !== "in_progress" || !takebacks?.allowed) return null;
  const request = takebacks.request;
  if (request && request.waiting.includes(mySeat)) {
    return h("div", { class: "takeback card", role: "alertdialog", "aria-labelledby": "takeback-question" }, [
      h("p", { id: "takeback-question" }, [t("takeback.asked", { name: nameOf(request.seat) })]),
      h("p", {}, [
        h("button", { type: "button", id: "takeback-accept", class: "primary", onclick: () => act(() => api.answerTakeback(game.id, token, true)) }, [t("takeback.accept")]), " ",
        h("button", { type: "button", id: "takeback-refuse", onclick: () => act(() => api.answerTakeback(game.id, token, false)) }, [t("takeback.refuse")]),
      ]),
    ]);
  }
  if (request && request.seat === mySeat) {
    return h("p", { class: "takeback", id: "takeback-waiting", role: "status" }, [
      t("takeback.waiting", { names: request.waiting.map(nameOf).join(", ") }),
    ]);
  }
  if (request) {
    return h("p", { class: "takeback", role: "status" }, [
      t("takeback.others", { name: nameOf(request.seat), names: request.waiting.map(nameOf).join(", ") }),
    ]);
  }
  if (!takebacks.can_take_back) return null;
  return h("p", { class: "takeback" }, [
    h("button", { type: "button", id: "takeback", onclick: () => act(() => api.takeBack(game.id, token)) }, [t("takeback.button")]),
    " ", h("span", { class: "help" }, [t("takeback.help")]),
  ]);
}
