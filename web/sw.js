// @ts-check
// The web client's service worker: it shows the notices the server pushes while no page of the
// game is open ("your turn", "game over", "rematch offered", "a tournament round is ready"), and
// a tap opens (or focuses) the game. Registered by js/panels/push.js; it caches nothing.
/// <reference lib="webworker" />

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", () => { worker.skipWaiting(); });
worker.addEventListener("activate", (event) => { event.waitUntil(worker.clients.claim()); });

worker.addEventListener("push", (event) => {
  /** @type {{title?: string, body?: string, url?: string, tag?: string, lang?: string}} */
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch { message = { title: event.data?.text() }; }
  event.waitUntil(worker.registration.showNotification(message.title || "Tabletop", {
    body: message.body || "",
    tag: message.tag || "tabletop", // the same notice twice replaces itself
    lang: message.lang,
    data: { url: message.url || "./" },
  }));
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "./", worker.registration.scope).href;
  event.waitUntil((async () => {
    const open = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((client) => client.url === url);
    if (same) return same.focus();
    return worker.clients.openWindow(url);
  })());
});
