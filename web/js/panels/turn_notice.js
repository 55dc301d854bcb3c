// @ts-check
// A background tab tells the player it is their turn: the title starts with the words, the
// favicon becomes a filled dot, and (only if the person allowed it) the browser shows one
// notification per turn while the tab is hidden. No push service: the open page does it all.

import { h } from "../core/dom.js";
import { t } from "../core/i18n.js";

const ICON_IDLE = "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="none" stroke="#3b2a14" stroke-width="2"/></svg>');
const ICON_TURN = "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d33"/></svg>');

/** @type {string | null} */
let announced = null; // the decision already notified, so one turn gives one notification

/**
 * @param {string} href
 */
function favicon(href) {
  const link = document.querySelector("link[rel=icon]") ?? document.head.appendChild(h("link", { rel: "icon" }));
  link.setAttribute("href", href);
  document.body.dataset.turn = href === ICON_TURN ? "mine" : "";
}

/**
 * Title and favicon for the page's game; a notification when a hidden tab's turn begins.
 * @param {string} title
 * @param {boolean} myTurn
 * @param {string} decisionKey
 */
export function showTurn(title, myTurn, decisionKey) {
  document.title = myTurn ? `${t("notice.your_turn")} · ${title}` : title;
  favicon(myTurn ? ICON_TURN : ICON_IDLE);
  if (!myTurn) { announced = null; return; }
  if (announced === decisionKey) return;
  announced = decisionKey;
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(t("notice.your_turn"), { body: title, tag: "tabletop-turn" });
    note.onclick = () => { window.focus(); note.close(); };
  }
}

/** Back to the plain title and icon (leaving the game page). */
export function clearTurn() {
  announced = null;
  favicon(ICON_IDLE);
}

/** A button asking for notifications, only while the browser can still be asked; else null. */
export function notifyControl() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const button = h("button", { type: "button", id: "notify-me", onclick: async (/** @type {Event} */ event) => {
    const asked = event.currentTarget;
    await Notification.requestPermission();
    if (asked instanceof Element) asked.remove(); // the page may have been drawn again meanwhile
  } }, [t("notice.ask")]);
  return h("p", { class: "notify" }, [button]);
}
