// @ts-check
// The replay page (#/replay/<game>/<move>[/<seat>]): a game step by step, drawn by the same board
// renderers as the game page. Each step is one of the replay's `moves` (the set-up board, then each
// completed decision, then the end), read from GET /v1/games/{id}/replay as one viewer saw it then:
// an ended game as a spectator or any seat; a game still in progress only as this browser's own
// seat (the API refuses anything else), so the page can show nothing that seat did not see.
// The address always names the step shown: it is the link to share.

import { api, ApiError, messageOf } from "../core/api.js";
import { h } from "../core/dom.js";
import { redraw } from "../core/morph.js";
import { t } from "../core/i18n.js";
import { gameTokens } from "../core/store.js";
import { gameTypeDetail, seatName } from "../core/catalog.js";
import { rendererFor } from "../games/index.js";
import { markChanges } from "../games/highlight.js";
import { describeEvent } from "../panels/log.js";
import { seatBadge } from "./game.js";

const PLAY_MS = 1200; // one step per 1.2 s while playing

/** @typedef {import("../core/types.js").Replay} Replay */
/** @typedef {import("../core/types.js").GameView} GameView */

/**
 * The link to a step of a game's replay ("last": its latest); `seat` only for an ended game seen
 * as one seat.
 * @param {string} gameId
 * @param {number | "last"} step
 * @param {number | null} [seat]
 */
export function replayLink(gameId, step, seat = null) {
  return `#/replay/${gameId}/${step}${seat === null || seat === undefined ? "" : `/${seat}`}`;
}

/**
 * A whole number from a part of the address, else null.
 * @param {string | undefined} part
 */
function wholeNumber(part) {
  return part !== undefined && /^\d+$/.test(part) ? Number(part) : null;
}

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {string | undefined} stepPart the move index from the address
 * @param {string | undefined} seatPart whose view, for an ended game
 * @returns {Promise<() => void>} the clean-up when the person leaves the page
 */
export async function showReplay(main, gameId, stepPart, seatPart) {
  const token = gameTokens(gameId).seat || null;
  const title = h("h1", { id: "replay-title" }, [t("replay.title")]);
  const error = h("p", { id: "replay-error", class: "error", role: "alert" });
  main.append(title, error);
  /** @type {GameView} */
  let game;
  try {
    game = await api.game(gameId, token).catch((failure) => {
      if (failure instanceof ApiError && failure.status === 401 && token) return api.game(gameId, null);
      throw failure;
    });
  } catch (failure) {
    error.textContent = messageOf(failure);
    return () => {};
  }
  const [types, detail] = await Promise.all([api.gameTypes(), gameTypeDetail(game.type)]);
  const typeName = types.find((type) => type.slug === game.type)?.name || game.type;
  title.textContent = t("replay.title_of", { game: typeName });
  const ended = game.status === "finished" || game.status === "aborted";
  const ownSeat = game.viewer.seat;
  const back = h("p", {}, [h("a", { id: "replay-back", class: "button", href: `#/game/${gameId}` }, [t(ended ? "replay.to_result" : "replay.to_game")])]);
  if (!ended && ownSeat === null) {
    // Before its end a game replays only for its seats, each as itself.
    main.append(h("p", { id: "replay-not-yet" }, [t("replay.not_yet")]), back);
    return () => {};
  }
  /** The view shown: an ended game as the address says (else the own seat, else a spectator's). */
  let seat = ended ? (wholeNumber(seatPart) ?? ownSeat) : ownSeat;
  if (seat !== null && !game.seats.some((entry) => entry.seat === seat)) seat = ownSeat;
  const nameOf = (/** @type {number | null | undefined} */ who) => {
    if (who === null || who === undefined) return t("game.nobody");
    const entry = game.seats.find((one) => one.seat === who);
    return entry ? seatName(entry, detail?.bot_levels) : `#${who}`;
  };
  const badge = (/** @type {number} */ who) => seatBadge(who, nameOf(who));

  /** @type {Map<string, Promise<Replay>>} */
  const cache = new Map();
  /** @param {number} at */
  const read = (at) => {
    const key = `${seat}:${at}`;
    let found = cache.get(key);
    if (!found) {
      found = api.replay(gameId, at, seat, ended ? null : token);
      cache.set(key, found);
      found.catch(() => cache.delete(key));
    }
    return found;
  };

  let first;
  try {
    first = await read(0);
  } catch (failure) {
    error.textContent = messageOf(failure);
    main.append(back);
    return () => {};
  }
  const moves = first.moves;
  const last = Math.max(0, moves.length - 1);
  let step = stepPart === "last" ? last : Math.min(wholeNumber(stepPart) ?? 0, last);
  /** @type {number | null} */
  let shownStep = null;
  /** @type {import("../games/highlight.js").Pictures} */
  let marks = {};
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let playing;
  let drawing = 0;

  const els = {
    status: h("p", { id: "replay-step", class: "turn", role: "status", "aria-live": "polite" }),
    controls: h("div", { id: "replay-controls", class: "replay-controls", role: "group", "aria-label": t("replay.controls") }),
    slider: h("input", {
      id: "replay-slider", type: "range", min: 0, max: last, step: 1, value: step,
      "aria-label": t("replay.slider"),
    }),
    board: h("section", { id: "board", class: "board", "aria-label": t("game.board") }),
    happened: h("section", { id: "replay-happened", class: "card" }),
    share: h("section", { id: "replay-share", class: "card" }),
  };
  const slider = /** @type {HTMLInputElement} */ (els.slider);
  /** @param {string} id @param {string} label @param {string} text @param {() => void} action */
  const control = (id, label, text, action) => h("button", { type: "button", id, "aria-label": label, title: label, onclick: action }, [text]);
  const playButton = control("replay-play", t("replay.play"), `▶ ${t("replay.play")}`, () => (playing ? pause() : play()));
  els.controls.append(
    control("replay-first", t("replay.first"), "|◀", () => go(0)),
    control("replay-back-step", t("replay.back"), "◀", () => go(step - 1)),
    playButton,
    control("replay-forward", t("replay.forward"), "▶", () => go(step + 1)),
    control("replay-last", t("replay.last"), "▶|", () => go(last)),
  );
  slider.addEventListener("input", () => go(Number(slider.value)));

  /** The viewer select: an ended game as a spectator or as any seat. */
  let viewAs = null;
  if (ended) {
    const select = h("select", { id: "replay-seat" }, [
      h("option", { value: "" }, [t("replay.as_spectator")]),
      ...game.seats.map((entry) => h("option", { value: String(entry.seat) }, [t("replay.as_seat", { name: nameOf(entry.seat) })])),
    ]);
    const picker = /** @type {HTMLSelectElement} */ (select);
    picker.value = seat === null ? "" : String(seat);
    picker.addEventListener("change", () => {
      seat = picker.value === "" ? null : Number(picker.value);
      shownStep = null;
      draw();
    });
    viewAs = h("p", {}, [h("label", { for: "replay-seat" }, [t("replay.view_as")]), " ", select]);
  } else {
    viewAs = h("p", { id: "replay-own-view", class: "hint" }, [t("replay.own_view", { name: nameOf(ownSeat) })]);
  }
  main.append(
    h("p", { class: "help" }, [t(ended ? "replay.intro" : "replay.intro_so_far")]),
    viewAs, els.status, els.controls,
    h("p", { class: "replay-slider" }, [slider]),
    h("div", { class: "game-layout" }, [
      h("div", { class: "main-col" }, [els.board]),
      h("div", { class: "side-col" }, [els.happened, els.share, back]),
    ]),
  );

  /** @param {number} target */
  function go(target) {
    const next = Math.max(0, Math.min(last, target));
    if (next === step && shownStep === step) return;
    step = next;
    draw();
  }

  function play() {
    if (step >= last) step = 0;
    playing = setInterval(() => {
      if (step >= last) { pause(); return; }
      go(step + 1);
    }, PLAY_MS);
    playButton.textContent = `‖ ${t("replay.pause")}`;
    playButton.setAttribute("aria-label", t("replay.pause"));
    playButton.title = t("replay.pause");
    draw();
  }

  function pause() {
    clearInterval(playing);
    playing = undefined;
    playButton.textContent = `▶ ${t("replay.play")}`;
    playButton.setAttribute("aria-label", t("replay.play"));
    playButton.title = t("replay.play");
  }

  /** Show `step`: read it (once), then draw the board, what happened and the link. */
  async function draw() {
    const drawn = ++drawing;
    const at = moves[step] ?? 0;
    const previousAt = step > 0 ? moves[step - 1] : 0;
    const link = replayLink(gameId, step, ended && seat !== ownSeat ? seat : null);
    history.replaceState(null, "", link);
    slider.value = String(step);
    els.status.textContent = step === 0 ? t("replay.setup", { count: last }) : t("replay.move", { step, count: last });
    /** @type {Replay} */
    let replay;
    try {
      replay = await read(at);
    } catch (failure) {
      if (drawn === drawing) error.textContent = messageOf(failure);
      return;
    }
    if (drawn !== drawing) return; // a later step was asked for meanwhile
    error.textContent = "";
    const forward = shownStep !== null && step === shownStep + 1;
    if (!forward) marks = {};
    else marks.base = marks.previous;
    shownStep = step;
    main.dataset.step = String(step);
    main.dataset.at = String(replay.at);
    main.dataset.seat = replay.seat === null ? "" : String(replay.seat);
    const view = /** @type {GameView} */ ({ ...game, state: replay.state, decision: null, result: step === last ? game.result : null });
    redraw(els.board, (box) => {
      if (!replay.state) { box.append(h("p", {}, [t("replay.no_board")])); return; }
      box.append(rendererFor(game.type).board({
        game: view,
        state: replay.state,
        type: types.find((type) => type.slug === game.type) || null,
        data: detail?.data || null,
        choices: [],
        mySeat: replay.seat,
        ui: {},
        nameOf,
        seatBadge: badge,
        submit: async () => {},
        rerender: () => {},
      }));
      markChanges(box, marks, null);
    });
    const events = replay.events.filter((event) => event.seq > previousAt && event.seq <= at);
    redraw(els.happened, (box) => {
      box.append(h("h2", {}, [t("replay.happened")]));
      const list = h("ol", { id: "replay-events", class: "log" });
      for (const event of events) {
        list.append(h("li", { dataset: { seq: event.seq, type: event.type } }, [describeEvent(event, { nameOf, templates: detail?.log_templates, data: detail?.data })]));
      }
      box.append(events.length ? list : h("p", {}, [t("replay.nothing")]));
    });
    const address = `${location.origin}${location.pathname}${link}`;
    redraw(els.share, (box) => {
      box.append(
        h("h2", {}, [t("replay.share")]),
        h("p", {}, [h("input", { id: "replay-link", readonly: true, value: address, "aria-label": t("replay.share") }), " ",
          h("button", { type: "button", id: "replay-copy", onclick: () => { /** @type {HTMLInputElement} */ (box.querySelector("#replay-link")).select(); navigator.clipboard?.writeText(address); } }, [t("game.copy")])]),
      );
    });
    main.dataset.drawn = String(drawing);
  }

  /** Left and right arrows step while the focus is not in a field of its own. */
  const onKey = (/** @type {KeyboardEvent} */ event) => {
    const inField = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement;
    if (inField || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); go(step - 1); }
    if (event.key === "ArrowRight") { event.preventDefault(); go(step + 1); }
  };
  document.addEventListener("keydown", onKey);
  await draw();
  return () => {
    pause();
    document.removeEventListener("keydown", onKey);
    for (const key of ["step", "at", "seat", "drawn"]) delete main.dataset[key];
  };
}
