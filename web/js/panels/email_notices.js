// @ts-check
// E-mail notices: a player leaves an address (PUT /v1/players/me/email, shown to nobody else) and
// the server mails "your turn", "game over", "rematch offered" and "a tournament round is ready"
// while no page of the game is open, each mail with its opt-out link; "stop" removes the address.
// Offered only where the server sends mail (GET /v1/notices) and the page knows its player.

import { ApiError } from "../core/api.js";
import { h } from "../core/dom.js";
import { language, t } from "../core/i18n.js";
import { playerToken } from "../core/store.js";
import { noticeChannels } from "./push.js";

/** @type {{email: string | null, enabled: boolean} | null} the player's address, once read */
let contact = null;
let reading = false;
let busy = false;
/** @type {string} */
let problem = "";

/**
 * @param {string} method
 * @param {string} token
 * @param {unknown} [body]
 * @returns {Promise<{email: string | null, enabled: boolean} | null>}
 */
async function call(method, token, body) {
  const response = await fetch(new URL("/v1/players/me/email", location.origin), {
    method,
    headers: { Accept: "application/json", "Accept-Language": language(), Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, answer ?? {});
  return answer;
}

/**
 * The control: an address field and "e-mail me", or the address in use with "stop e-mails".
 * @param {() => void} redraw the page's redraw, called when something here changed
 * @returns {HTMLElement | null}
 */
export function emailControl(redraw) {
  const token = playerToken();
  if (!token || !noticeChannels(redraw)?.email) return null;
  if (!contact) {
    if (!reading) {
      reading = true;
      call("GET", token).then((answer) => { contact = answer ?? { email: null, enabled: false }; redraw(); })
        .catch(() => { reading = false; });
    }
    return null;
  }
  /** @param {() => Promise<{email: string | null, enabled: boolean} | null>} change */
  const act = async (change) => {
    busy = true;
    problem = "";
    redraw();
    try {
      contact = (await change()) ?? { email: null, enabled: false };
    } catch (failure) {
      problem = failure instanceof ApiError ? failure.message : t("notices.email_failed");
    }
    busy = false;
    redraw();
  };
  const parts = [];
  if (contact.email && contact.enabled) {
    parts.push(h("span", { id: "email-on" }, [t("notices.email_on", { email: contact.email })]), " ",
      h("button", { type: "button", id: "email-off", disabled: busy, onclick: () => act(() => call("DELETE", token)) }, [t("notices.email_off")]));
  } else {
    const field = /** @type {HTMLInputElement} */ (h("input", { id: "email-address", type: "email", autocomplete: "email", required: true, value: contact.email ?? "" }));
    parts.push(h("form", { id: "email-form", onsubmit: (/** @type {SubmitEvent} */ event) => {
      event.preventDefault();
      // The field in the page (a redraw may keep the drawn one and drop this closure's).
      const typed = /** @type {HTMLFormElement} */ (event.target).querySelector("input")?.value ?? "";
      act(() => call("PUT", token, { email: typed.trim(), language: language() }));
    } }, [h("label", { for: "email-address" }, [t("notices.email_offer")]), " ", field, " ",
      h("button", { type: "submit", id: "email-save", disabled: busy }, [t("notices.email_save")])]));
  }
  if (problem) parts.push(" ", h("span", { class: "email-failed", role: "alert" }, [problem]));
  return h("div", { class: "notify email-notices", id: "email-notices" }, parts);
}
