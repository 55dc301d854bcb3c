// @ts-check
// "Learn to play": a guided first game per title against a bot. The lobby's card (learnCard)
// creates the game from the title's script (web/tutorials/<slug>.json: a fixed seed, options that
// keep the first turns short and bring up the script's situations, the bot's level); the game page
// (game.js) asks `guideFor` whether the game is one of this browser's guided games and, after each
// drawing, `update()`s the guide: a bubble next to the element to tap (highlighted), saying why.
//
// The script is a list of steps, each for one kind of decision; a step may name what the board
// shows half-way through a move (`then`, e.g. a previewed tile). A step is done when the person's
// decision moves on, whatever they chose: the next decision takes the next step of its kind, steps
// of kinds that do not come up are passed over, and a decision no step is left for gets the
// "continue freely" bubble. After the last step, or when the game ends, a summary says what was
// learnt; the game goes on without hints.
//
// The game is an ordinary one the server neither lists nor rates: private (reached by its link
// only, in no list of games), with the host's seed, no clock and no player identity (each a reason
// the server gives for not rating it, GET /v1/games/{id} `unrated_reasons`).

import { api, messageOf } from "../core/api.js";
import { h } from "../core/dom.js";
import { language, t } from "../core/i18n.js";
import { playerName, rememberTokens } from "../core/store.js";

/** @typedef {{ [lang: string]: string }} Texts one text in every language of the client */

/**
 * What the board shows half-way through a move, and what to tap then.
 * @typedef {object} Situation
 * @property {string} when a selector that is on the page in this situation
 * @property {string[]} targets selectors of what to tap, the first one found is highlighted
 * @property {Texts} text
 */

/**
 * @typedef {object} Step
 * @property {string} id
 * @property {string} kind the decision's kind
 * @property {string[]} targets
 * @property {Texts} text
 * @property {Situation[]} [then]
 */

/**
 * @typedef {object} Script
 * @property {string} seed
 * @property {{ [name: string]: import("../core/types.js").Scalar }} options
 * @property {string} bot
 * @property {Texts} pitch what the lobby says of this title's guided game
 * @property {Step[]} steps
 * @property {string[]} free_targets what to point at when no step is left for a decision
 * @property {Texts} free
 * @property {Texts} waiting
 * @property {{ [lang: string]: string[] }} summary
 */

/**
 * @typedef {object} GuideState what the game page knows that the guide reads
 * @property {import("../core/types.js").GameView | null} game
 * @property {import("../core/types.js").Choice[] | null} choices
 * @property {number | null} decisionVersion
 */

export const TUTORIAL_TITLES = ["im-schutze-der-burg", "keythedral", "carcassonne"];
const KEY = "tabletop.tutorials";
/** The board's Fit button: pointed at instead of a target outside a zoomed board's window. */
const FIT = "#board .zoom-fit";

/** @type {Map<string, Promise<Script | null>>} */
const scripts = new Map();

/**
 * @param {string} slug
 * @returns {Promise<Script | null>}
 */
export function scriptFor(slug) {
  if (!scripts.has(slug)) {
    scripts.set(slug, fetch(`tutorials/${encodeURIComponent(slug)}.json`).then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  return /** @type {Promise<Script | null>} */ (scripts.get(slug));
}

/**
 * @param {Texts | undefined} texts
 */
function say(texts) {
  return texts?.[language()] ?? texts?.en ?? "";
}

/** @returns {{ [gameId: string]: { slug: string, progress: number, done: boolean } }} */
function remembered() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

/**
 * @param {string} gameId
 * @param {{ slug: string, progress: number, done: boolean }} entry
 */
function remember(gameId, entry) {
  localStorage.setItem(KEY, JSON.stringify({ ...remembered(), [gameId]: entry }));
}

/**
 * Create the title's guided game: this browser's seat first (so the person starts), the script's
 * bot, started at once; then open it.
 * @param {string} slug
 */
export async function startTutorial(slug) {
  const script = await scriptFor(slug);
  if (!script) throw new Error(`no guided game for ${slug}`);
  const created = await api.createTutorial(slug, script.options, script.seed);
  rememberTokens(created.id, { host: created.host_token });
  const seat = await api.join(created.id, { name: playerName() || t("play_now.default_name"), invite_code: created.invite_code }, null);
  rememberTokens(created.id, { seat: seat.token, seatIndex: seat.seat });
  await api.join(created.id, { bot: script.bot }, created.host_token);
  await api.start(created.id, created.host_token);
  remember(created.id, { slug, progress: 0, done: false });
  location.hash = `#/game/${created.id}`;
}

/**
 * The lobby's "Learn to play" card: one button per title.
 * @param {import("../core/types.js").GameType[]} types
 */
export function learnCard(types) {
  const error = h("p", { class: "error", role: "alert" });
  const list = h("ul", { class: "learn-titles" });
  for (const slug of TUTORIAL_TITLES) {
    const type = types.find((entry) => entry.slug === slug);
    if (!type) continue;
    const button = h("button", { type: "button", class: "learn-start", dataset: { slug }, "aria-describedby": "learn-help" }, [t("tutorial.start", { game: type.name })]);
    button.addEventListener("click", async () => {
      error.textContent = "";
      button.disabled = true;
      try { await startTutorial(slug); } catch (failure) { error.textContent = messageOf(failure); button.disabled = false; }
    });
    list.append(h("li", {}, [button]));
  }
  return h("section", { id: "learn", class: "card" }, [
    h("h2", {}, [t("tutorial.title")]),
    h("p", { class: "help", id: "learn-help" }, [t("tutorial.help")]),
    list, error,
  ]);
}

/**
 * Whether a person sees `node` at its centre: inside its board's window (a zoomed board clips the
 * rest), and, when on the screen, drawn over by nothing but the guide's own bubble (a sticky
 * header, the docked move panel). Without `onScreen`, also whether scrolling the page brings it
 * into sight: it is off the screen, or under a layer pinned to the screen (the turn line at the
 * top, the move panel docked at the bottom of a phone's screen), which the page scrolls under; only
 * a place outside a zoomed board's window needs the board's Fit button.
 * @param {Element} node
 * @param {boolean} onScreen whether it must be on the screen now
 */
function inSight(node, onScreen) {
  const [x, y] = centre(node);
  if (!inWindow(node, [x, y])) return false;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return !onScreen;
  const top = document.elementsFromPoint(x, y).find((hit) => !hit.closest("#tutorial"));
  if (top && (node.contains(top) || top.contains(node))) return true;
  return !onScreen && Boolean(top && pinned(top));
}

/** @param {Element} node */
function centre(node) {
  const r = node.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/**
 * Whether the centre of `node` is inside its board's window (always, for a node not on a board).
 * @param {Element} node
 * @param {number[]} [point] its centre, when known
 */
function inWindow(node, point) {
  if (!(node instanceof SVGElement && node.ownerSVGElement)) return true;
  const [x, y] = point ?? centre(node);
  const frame = node.ownerSVGElement.getBoundingClientRect();
  return x > frame.left && x < frame.right && y > frame.top && y < frame.bottom;
}

/**
 * Whether `node` is on a layer pinned to the screen (position sticky or fixed).
 * @param {Element} node
 */
function pinned(node) {
  for (let at = /** @type {Element | null} */ (node); at; at = at.parentElement) {
    const { position } = getComputedStyle(at);
    if (position === "sticky" || position === "fixed") return true;
  }
  return false;
}

/**
 * The first element of `selectors` a person can tap now: shown and enabled, one in sight first,
 * else one the page can scroll to; a target outside a zoomed board's window is reached by the
 * board's "Fit" button, which is pointed at instead.
 * @param {string[]} selectors
 * @returns {Element | null}
 */
function findTarget(selectors) {
  for (const selector of selectors) {
    const found = [...document.querySelectorAll(selector)].filter((node) => {
      if (node instanceof HTMLButtonElement && node.disabled) return false;
      const box = node.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    });
    if (!found.length) continue;
    const best = found.find((node) => inSight(node, true)) ?? found.find((node) => inSight(node, false));
    if (best) return best;
    // Fit only helps a place outside the board's window: pointed at for one covered by something
    // else, it would be tapped again and again, changing nothing.
    const fit = document.querySelector(FIT);
    if (fit && found.some((node) => !inWindow(node))) return fit;
    return found[0];
  }
  return null;
}

/**
 * The guide of game `gameId`, if this browser started it as a guided game.
 * @param {string} gameId
 * @param {() => GuideState} read
 */
export async function guideFor(gameId, read) {
  const entry = remembered()[gameId];
  if (!entry) return null;
  const script = await scriptFor(entry.slug);
  if (!script) return null;
  const link = h("link", { rel: "stylesheet", href: "tutorial.css" });
  document.head.append(link);
  const text = h("p", { class: "tutorial-text" });
  const counter = h("p", { class: "tutorial-step" });
  const skip = h("button", { type: "button", class: "tutorial-skip", "aria-label": t("tutorial.skip"), title: t("tutorial.skip") }, ["×"]);
  const bubble = h("aside", { id: "tutorial", class: "tutorial-bubble", "aria-label": t("tutorial.title"), "aria-live": "polite", hidden: true }, [
    h("div", { class: "tutorial-head" }, [counter, skip]), text]);
  document.body.append(bubble);
  let progress = entry.progress;
  let done = entry.done;
  /** @type {{ index: number, version: number | null } | null} the step shown for the decision open now */
  let active = null;
  /** @type {Element | null} */
  let target = null;
  /** @type {HTMLElement | null} */
  let summary = null;

  function save() { remember(gameId, { slug: entry.slug, progress, done }); }

  function finish() {
    done = true;
    save();
    hide();
    showSummary();
  }
  skip.addEventListener("click", finish);

  function showSummary() {
    if (summary?.isConnected) return;
    const result = document.getElementById("result");
    const lines = script?.summary[language()] ?? script?.summary.en ?? [];
    summary = h("section", { id: "tutorial-summary", class: "card tutorial-summary", tabindex: -1 }, [
      h("h2", {}, [t("tutorial.summary_title")]),
      h("ul", {}, lines.map((line) => h("li", {}, [line]))),
      h("p", {}, [t(read().game?.status === "finished" ? "tutorial.summary_over" : "tutorial.summary_free")]),
      h("p", { class: "step" }, [
        h("button", { type: "button", class: "primary", onclick: () => summary?.remove() }, [t("tutorial.play_on")]), " ",
        h("a", { class: "button", href: `#/new/${entry.slug}` }, [t("tutorial.real_game")]), " ",
        h("a", { class: "button", href: "#/" }, [t("lobby.back")]),
      ]),
    ]);
    (result?.parentElement ?? document.getElementById("app"))?.prepend(summary);
    summary.focus({ preventScroll: true });
  }

  function hide() {
    bubble.hidden = true;
    target?.classList.remove("tutorial-target");
    target = null;
  }

  /** Where the bubble goes: under its target if there is room on the screen, else above; above
   * the whole move panel when the target is in it (docked at the bottom of a phone's screen), so
   * the bubble covers none of the panel's buttons. */
  function place() {
    if (bubble.hidden || !target) return;
    if (!target.isConnected) { update(); return; }
    const own = target.getBoundingClientRect();
    const dock = target.closest(".dock");
    const docked = dock && getComputedStyle(dock).position === "sticky" ? dock.getBoundingClientRect() : null;
    const r = docked ? { left: own.left, width: own.width, top: docked.top, bottom: docked.top } : own;
    const width = Math.min(340, innerWidth - 16);
    const left = Math.max(8, Math.min(r.left + r.width / 2 - width / 2, innerWidth - width - 8));
    const below = !docked && (innerHeight - r.bottom >= bubble.offsetHeight + 16 || r.top < bubble.offsetHeight + 16);
    const top = below ? r.bottom + 10 : r.top - bubble.offsetHeight - 10;
    bubble.style.width = `${width}px`;
    bubble.style.left = `${left + scrollX}px`;
    bubble.style.top = `${top + scrollY}px`;
    bubble.dataset.side = below ? "below" : "above";
    bubble.style.setProperty("--arrow", `${Math.max(12, Math.min(width - 12, r.left + r.width / 2 - left))}px`);
  }

  /**
   * @param {Element | null} node
   * @param {string} words
   * @param {string} key which hint this is (tests read it)
   * @param {boolean} [mark] whether `node` is to be tapped (marked, and scrolled into sight)
   */
  function point(node, words, key, mark = true) {
    if (target !== node) {
      target?.classList.remove("tutorial-target");
      target = node;
      if (mark && node && !inSight(node, true)) node.scrollIntoView({ block: "center" });
    }
    if (mark) node?.classList.add("tutorial-target");
    text.textContent = words;
    counter.textContent = t("tutorial.step", { step: Math.min(progress + 1, script?.steps.length ?? 0), count: script?.steps.length ?? 0 });
    bubble.hidden = !node;
    bubble.dataset.hint = key;
    place();
  }

  /** Draw the guide for the page as it is now: called after every drawing of the game page. */
  function update() {
    if (!script) return;
    const { game, choices, decisionVersion } = read();
    if (!game) return;
    if (active && (!choices || decisionVersion !== active.version)) {
      progress = Math.max(progress, active.index + 1);
      active = null;
      save();
    }
    if (done) { hide(); if (!summary) showSummary(); return; }
    if (game.status === "finished" || game.status === "aborted" || progress >= script.steps.length) { finish(); return; }
    if (!choices || !game.decision) {
      point(document.getElementById("turn"), say(script.waiting), "waiting", false);
      return;
    }
    const kind = game.decision.kind;
    const index = script.steps.findIndex((step, at) => at >= progress && step.kind === kind);
    // A kind of decision met before (a second round's work order) is explained as it was then.
    const again = index < 0 ? script.steps.findLastIndex((step, at) => at < progress && step.kind === kind) : -1;
    if (index < 0 && again < 0) {
      point(findTarget(script.free_targets), say(script.free), `free-${kind}`);
      return;
    }
    if (index >= 0) active = { index, version: decisionVersion };
    const step = script.steps[index >= 0 ? index : again];
    const situation = (step.then ?? []).find((then) => document.querySelector(then.when));
    const node = findTarget(situation ? situation.targets : step.targets) ?? findTarget(script.free_targets);
    const key = `${index >= 0 ? "" : "again-"}${step.id}${situation ? `/${situation.when}` : ""}`;
    point(node, say(situation ? situation.text : step.text), key);
  }

  // The bubble follows its target as the page scrolls and the board pans or zooms; a target that
  // went out of sight (a board zooms in on the frame after it is drawn, a bot's move redraws it)
  // gives way to one in sight. The board's Fit button, pointed at for a target outside a zoomed
  // board's window, gives way to that target once tapped: fitting the board draws nothing else,
  // so the guide would otherwise wait for the page's next drawing (its presence read, every 15 s).
  let looked = 0;
  let frame = requestAnimationFrame(function follow(now) {
    if (target && now - looked > 300) {
      looked = now;
      if (!inSight(target, true) || target.matches(FIT)) update();
    }
    place();
    frame = requestAnimationFrame(follow);
  });
  return {
    update,
    close() {
      cancelAnimationFrame(frame);
      hide();
      bubble.remove();
      link.remove();
    },
  };
}
