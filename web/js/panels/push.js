// @ts-check
// Notices that reach a closed page: this browser subscribes to the server's Web Push (VAPID) and
// registers the subscription for this browser's player (POST /v1/players/me/push-subscriptions),
// so "your turn", "game over", "rematch offered" and "a tournament round is ready" arrive while
// no page of the game is open (web/sw.js shows them). Offered only where the browser can push,
// the server sends push (GET /v1/notices) and the page knows its player; "turn off" undoes it.

import { h } from "../core/dom.js";
import { language, t } from "../core/i18n.js";
import { playerToken } from "../core/store.js";

const STORED = "tabletop.push"; // {id, endpoint}: this browser's registered subscription

/** @type {{push: boolean, email: boolean, vapid_public_key: string | null} | null} what GET /v1/notices said */
let channels = null;
let asked = false;
let busy = false;
let failed = false;

/**
 * Ask the server once whether it pushes; `redraw` when it has answered.
 * @param {() => void} redraw
 */
function askServer(redraw) {
  if (asked) return;
  asked = true;
  fetch(new URL("/v1/notices", location.origin), { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null)
    .then((answer) => { channels = answer ?? { push: false, email: false, vapid_public_key: null }; redraw(); });
}

/**
 * The channels the server sends notices on (GET /v1/notices, asked once), null until it answered.
 * @param {() => void} redraw called once the server has answered
 */
export function noticeChannels(redraw) {
  askServer(redraw);
  return channels;
}

/** @returns {{id: string, endpoint: string} | null} */
function stored() {
  try { return JSON.parse(localStorage.getItem(STORED) || "null"); } catch { return null; }
}

/**
 * The server key as the bytes pushManager.subscribe takes.
 * @param {string} key base64url
 */
function keyBytes(key) {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * @param {string} method
 * @param {string} path
 * @param {string} token
 * @param {unknown} [body]
 */
async function call(method, path, token, body) {
  const response = await fetch(new URL(path, location.origin), {
    method,
    headers: { Accept: "application/json", "Accept-Language": language(), Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok && response.status !== 404) throw new Error(`${response.status}`);
  return response.status === 204 ? null : response.json();
}

/** Whether this browser can receive Web Push at all. */
function browserCanPush() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;
}

/**
 * Ask permission, subscribe with the server's key and register the subscription for the player.
 * @param {string} key the server's VAPID public key
 * @param {string} token the player token
 */
async function turnOn(key, token) {
  if ((await Notification.requestPermission()) !== "granted") throw new Error("denied");
  const registration = await navigator.serviceWorker.register("sw.js");
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const json = subscription.toJSON();
  const registered = await call("POST", "/v1/players/me/push-subscriptions", token, {
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth },
    language: language(),
  });
  localStorage.setItem(STORED, JSON.stringify({ id: registered.id, endpoint: subscription.endpoint }));
}

/** @param {string} token the player token */
async function turnOff(token) {
  const known = stored();
  if (known) await call("DELETE", `/v1/players/me/push-subscriptions/${encodeURIComponent(known.id)}`, token);
  localStorage.removeItem(STORED);
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}

/**
 * The control: "notify me even when this page is closed", or "on for this device" with "turn
 * off". Drawn from what is known now (the page's redraws keep it); null where it cannot apply.
 * @param {() => void} redraw the page's redraw, called when something here changed
 * @returns {HTMLElement | null}
 */
export function pushControl(redraw) {
  const token = playerToken();
  if (!token || !browserCanPush()) return null;
  askServer(redraw);
  const known = stored();
  if (!known && (!channels?.push || !channels.vapid_public_key)) return null;
  /** @param {() => Promise<void>} change */
  const act = async (change) => {
    busy = true;
    failed = false;
    redraw();
    try { await change(); } catch { failed = true; }
    busy = false;
    redraw();
  };
  const key = channels?.vapid_public_key ?? "";
  const parts = known
    ? [h("span", { class: "push-on" }, [t("push.on")]), " ",
      h("button", { type: "button", id: "push-off", disabled: busy, onclick: () => act(() => turnOff(token)) }, [t("push.off")])]
    : Notification.permission === "denied"
      ? [t("push.blocked")]
      : [h("button", { type: "button", id: "push-on", disabled: busy, onclick: () => act(() => turnOn(key, token)) }, [t("push.offer")])];
  if (failed) parts.push(" ", h("span", { class: "push-failed", role: "status" }, [t("push.failed")]));
  return h("p", { class: "notify push-notices", id: "push-notices" }, parts);
}
