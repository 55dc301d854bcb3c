// @ts-check
// What a seated person can do besides moving: resign (after a confirmation; a bot then plays the
// seat to the end) and, once the game is over, ask for a rematch or follow the link to it. The
// rematch holds each person's seat until they take it by joining with their previous seat token.

import { api, messageOf } from "../core/api.js";
import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { gameTokens, rememberTokens } from "../core/store.js";

/** @typedef {(action: () => Promise<unknown>) => Promise<void>} Act an API call, then the page read again */

/**
 * A resign button that asks first; null when the viewer has no seat to resign. Whether the question
 * is open is the page's state (`question.asking`), drawn like the rest of it.
 * @param {import("../core/types.js").GameView} game
 * @param {string | null} token
 * @param {Act} act
 * @param {{ asking: boolean }} question
 * @param {() => void} redraw
 */
export function resignControl(game, token, act, question, redraw) {
  const seat = game.seats.find((entry) => entry.seat === game.viewer.seat);
  if (!token || !seat || game.status !== "in_progress" || seat.stand_in === "resigned" || seat.stand_in === "forfeited") {
    question.asking = false;
    return null;
  }
  /** @param {boolean} asking @param {string} focus the button to focus once drawn */
  const turn = (asking, focus) => {
    question.asking = asking;
    redraw();
    document.getElementById(focus)?.focus();
  };
  if (!question.asking) {
    return h("p", { class: "resign" }, [h("button", { type: "button", id: "resign", onclick: () => turn(true, "resign-cancel") }, [t("resign.button")])]);
  }
  return h("p", { class: "resign" }, [
    h("span", { id: "resign-question", role: "alert" }, [t("resign.question")]), " ",
    h("button", { type: "button", id: "resign-confirm", class: "danger", onclick: () => act(() => api.resign(game.id, token)) }, [t("resign.confirm")]), " ",
    h("button", { type: "button", id: "resign-cancel", onclick: () => turn(false, "resign") }, [t("game.cancel")]),
  ]);
}

/**
 * Take our seat in the next game (held for our previous seat token), then open it.
 * @param {string} nextId
 * @param {string | null} token
 */
async function follow(nextId, token) {
  if (token && !gameTokens(nextId).seat) {
    const seat = await api.join(nextId, {}, token);
    rememberTokens(nextId, { seat: seat.token, seatIndex: seat.seat });
  }
  location.hash = `#/game/${nextId}`;
}

/**
 * On a finished game: "Rematch", or "Go to the next game" once one exists; null otherwise.
 * @param {import("../core/types.js").GameView} game
 * @param {string | null} token
 * @param {string | null} hostToken
 * @param {(message: string) => void} showError
 */
export function rematchControl(game, token, hostToken, showError) {
  if (game.status !== "finished" || !(token || hostToken)) return null;
  const run = (/** @type {() => Promise<void>} */ action) => async () => {
    try { await action(); } catch (failure) { showError(messageOf(failure)); }
  };
  const next = game.rematch_id;
  if (next) {
    return h("p", { class: "rematch" }, [
      h("button", { type: "button", id: "next-game", class: "primary", onclick: run(() => follow(next, token)) }, [t("rematch.follow")]),
    ]);
  }
  return h("p", { class: "rematch" }, [
    h("button", { type: "button", id: "rematch", class: "primary", onclick: run(async () => {
      const created = await api.rematch(game.id, token || hostToken);
      rememberTokens(created.id, { host: created.host_token });
      await follow(created.id, token);
    }) }, [t("rematch.button")]),
    " ", h("span", { class: "help" }, [t("rematch.help")]),
  ]);
}

/** The host's control on another seat in the lobby: a bot is removed, a person removed and
 * blocked (their player identity and address cannot sit down in this game again); null otherwise.
 * @param {import("../core/types.js").GameView} game
 * @param {import("../core/types.js").Seat} seat
 * @param {string | null} hostToken
 * @param {Act} act
 */
export function seatRemovalControl(game, seat, hostToken, act) {
  if (!hostToken || game.status !== "lobby" || seat.seat === game.viewer?.seat) return null;
  const block = !seat.bot;
  return h("button", {
    type: "button",
    class: block ? "remove-seat danger" : "remove-seat",
    dataset: { removeSeat: seat.seat },
    onclick: () => act(() => api.removeSeat(game.id, seat.seat, hostToken, block)),
  }, [t(block ? "seat.remove_block" : "seat.remove")]);
}
