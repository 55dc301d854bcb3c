// @ts-check
// Beside each seat's name: whether it follows the game now (a dot and words, never colour alone),
// why a bot plays it, and its turn clock ticking down. Everything comes from the game view
// (seats[].connected, seats[].stand_in, clock.seats[]); the page only counts the seconds down.

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { api } from "../core/api.js";

/**
 * "1:05" or "1:02:03" for a number of seconds (never negative).
 * @param {number} seconds
 */
export function formatSeconds(seconds) {
  const total = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** Online or not; nothing once the game has ended (the streams close then, which says nothing of
 * the people). The viewer's own seat is online while this page's stream is live, whatever the
 * last view said (it may predate our connection: a join or a language switch reconnects).
 * @param {import("../core/types.js").GameView} game
 * @param {import("../core/types.js").Seat} seat
 * @param {boolean} selfLive
 */
function presence(game, seat, selfLive) {
  if (seat.bot || !["lobby", "in_progress"].includes(game.status)) return null;
  const connected = Boolean(seat.connected) || (selfLive && seat.seat === game.viewer?.seat);
  return h("span", { class: "presence", dataset: { connected: String(connected) } }, [
    h("span", { class: "dot", "aria-hidden": "true" }, [connected ? "●" : "○"]), " ",
    t(connected ? "seat.online" : "seat.offline"),
  ]);
}

/**
 * @param {import("../core/types.js").Seat} seat
 */
function standIn(seat) {
  if (!seat.stand_in) return null;
  return h("span", { class: "stand-in", dataset: { standIn: seat.stand_in } }, [t(`seat.stand_in_${seat.stand_in}`)]);
}

/**
 * A running clock counts down from the view's remaining_seconds (measured on this machine from
 * the moment the view arrived, `readAt`, so a skewed local clock does not matter, nor does drawing
 * the page again); a stopped one shows its bank.
 * @param {import("../core/types.js").GameView} game
 * @param {number} seatIndex
 * @param {number} readAt
 */
function clock(game, seatIndex, readAt) {
  if (!game.clock || game.clock.mode === "none" || game.status !== "in_progress") return null;
  const own = game.clock.seats.find((entry) => entry.seat === seatIndex);
  if (!own || own.remaining_seconds === null || own.remaining_seconds === undefined) return null;
  if (!own.deadline) {
    return h("span", { class: "clock", title: t("clock.bank_help") }, ["⏱ ", t("clock.bank", { time: formatSeconds(own.remaining_seconds) })]);
  }
  const endsAt = readAt + own.remaining_seconds * 1000;
  const text = h("span", { class: "clock-time" }, [formatSeconds((endsAt - Date.now()) / 1000)]);
  return h("span", { class: "clock running", dataset: { endsAt: String(endsAt) }, title: t("clock.deadline_help", { at: new Date(own.deadline).toLocaleTimeString() }) },
    ["⏱ ", t("clock.left_prefix"), " ", text]);
}

/**
 * Lapses in a row of a seat's clock (a stand-in bot played its decision), as "2× out of time".
 * @param {import("../core/types.js").GameView} game
 * @param {number} seatIndex
 */
function lapses(game, seatIndex) {
  const count = game.status === "in_progress" ? game.clock?.seats.find((entry) => entry.seat === seatIndex)?.lapses ?? 0 : 0;
  return count ? h("span", { class: "lapses", dataset: { lapses: count } }, [t("seat.lapses", { count })]) : null;
}

/**
 * The viewer's own lapses, told where they play: a bot moved for them and how many lapses in a
 * row are left before it keeps the seat; once it keeps it (stand_in "timeout"), a button takes the
 * seat back (POST /v1/games/{id}/return). Null when the viewer's clock has not lapsed.
 * @param {import("../core/types.js").GameView} game
 * @param {string | null} token the viewer's seat token
 * @param {(action: () => Promise<unknown>) => Promise<void>} act
 */
export function lapseNotice(game, token, act) {
  const seat = game.seats.find((entry) => entry.seat === game.viewer?.seat);
  if (!token || !seat || game.status !== "in_progress") return null;
  const count = game.clock?.seats.find((entry) => entry.seat === seat.seat)?.lapses ?? 0;
  if (seat.stand_in === "timeout") {
    return h("div", { id: "lapse-notice", class: "lapse-notice", role: "alert" }, [
      h("p", {}, [count ? t("lapse.kept", { count }) : t("lapse.kept_idle")]),
      h("button", { type: "button", id: "take-seat-back", class: "primary", onclick: () => act(() => api.returnToSeat(game.id, token)) }, [t("lapse.take_back")]),
    ]);
  }
  if (!count || seat.stand_in) return seat.stand_in === "lapsed" ? h("p", { id: "lapse-notice", class: "lapse-notice", role: "alert" }, [t("lapse.playing")]) : null;
  const limit = game.clock?.lapses_before_stand_in;
  const text = limit ? t("lapse.played", { count, left: Math.max(1, limit - count) }) : t("lapse.played_unknown", { count });
  return h("p", { id: "lapse-notice", class: "lapse-notice", role: "alert" }, [text]);
}

/**
 * The extras of one seat, to append after its name.
 * @param {import("../core/types.js").GameView} game
 * @param {import("../core/types.js").Seat} seat
 * @param {boolean} selfLive this page's own stream is connected
 * @param {number} readAt when the view arrived (Date.now())
 */
export function seatStatus(game, seat, selfLive, readAt) {
  const parts = [presence(game, seat, selfLive), standIn(seat), lapses(game, seat.seat), clock(game, seat.seat, readAt)].flatMap((part) => (part ? [part] : []));
  return parts.length ? h("span", { class: "seat-status" }, parts.flatMap((part) => [" · ", part])) : null;
}

/** Count every running clock on the page down once a second; returns the stop function. */
export function tickClocks() {
  const timer = setInterval(() => {
    for (const node of document.querySelectorAll(".clock.running")) {
      if (!(node instanceof HTMLElement)) continue;
      const left = (Number(node.dataset.endsAt) - Date.now()) / 1000;
      const time = node.querySelector(".clock-time");
      if (time) time.textContent = formatSeconds(left);
      node.classList.toggle("urgent", left <= 10);
    }
  }, 500);
  return () => clearInterval(timer);
}
