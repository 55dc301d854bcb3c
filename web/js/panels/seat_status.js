// @ts-check
// Beside each seat's name: whether it follows the game now (a dot and words, never colour alone),
// why a bot plays it, and its turn clock ticking down. Everything comes from the game view
// (seats[].connected, seats[].stand_in, clock.seats[]); the page only counts the seconds down.

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

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
 * The extras of one seat, to append after its name.
 * @param {import("../core/types.js").GameView} game
 * @param {import("../core/types.js").Seat} seat
 * @param {boolean} selfLive this page's own stream is connected
 * @param {number} readAt when the view arrived (Date.now())
 */
export function seatStatus(game, seat, selfLive, readAt) {
  const parts = [presence(game, seat, selfLive), standIn(seat), clock(game, seat.seat, readAt)].flatMap((part) => (part ? [part] : []));
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
