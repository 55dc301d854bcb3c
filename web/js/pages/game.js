// @ts-check
// The game page: seats and the host's lobby controls, the board (one renderer per game), whose turn
// it is and why the game waits, every legal move, the game log and the final scores. It follows the
// game live and re-reads the view after each event; all it shows comes from the API.
//
// Each part is drawn afresh from the page's state and the page is changed only where the drawing
// differs (core/morph.js): what the person is doing meanwhile (an open panel, a half-made move, the
// resign question, the focus, a board panned or zoomed) stays as it is while events arrive.

import { api, ApiError, messageOf, newKey } from "../core/api.js";
import { h, byId, SEAT_COLOURS, SEAT_MARKS } from "../core/dom.js";
import { redraw } from "../core/morph.js";
import { t } from "../core/i18n.js";
import { SocketLost, followGame } from "../core/live.js";
import { chatPanel } from "../panels/chat.js";
import { describeEvent } from "../panels/log.js";
import { markChanges } from "../games/highlight.js";
import { rulesPanel } from "../panels/rules.js";
import { ranking, resultDetails } from "../panels/result.js";
import { gameTokens, rememberTokens } from "../core/store.js";
import { rendererFor, choiceText } from "../games/index.js";
import { botLevelOptions, gameTypeDetail, seatName } from "../core/catalog.js";
import { lapseNotice, seatStatus, tickClocks } from "../panels/seat_status.js";
import { rematchControl, resignControl, seatRemovalControl } from "../panels/seat_actions.js";
import { takebackControl } from "../panels/takebacks.js";
import { clearTurn, notifyControl, showTurn } from "../panels/turn_notice.js";
import { emailControl } from "../panels/email_notices.js";
import { pushControl } from "../panels/push.js";
import { renewSeat } from "../core/identity.js";
import { ratedNote, seatRating } from "../panels/ratings.js";
import { detailsPanel } from "../panels/details.js";
import { guideFor } from "../panels/tutorial.js";
import { replayLink } from "./replay.js";

const PRESENCE_REFRESH_MS = 15000;
const REMATCH_POLL_MS = 3000; // a finished game records no event when someone offers its rematch

/**
 * @param {number} seat
 * @param {string} name
 */
export function seatBadge(seat, name) {
  return h("span", { class: "seat", style: `--seat:${SEAT_COLOURS[seat % 6]}` }, [
    h("span", { class: "mark", "aria-hidden": "true" }, [SEAT_MARKS[seat % 6]]), " ", name,
  ]);
}

/** @typedef {import("../core/types.js").GameView} GameView */

/**
 * What the game page knows: the view, the moves open to the viewer, the half-made choice (`ui`,
 * kept while the same moves stay open) and the log read so far.
 * @typedef {object} PageState
 * @property {string} id
 * @property {string | null} token the viewer's seat token (null: a spectator)
 * @property {string | null} hostToken
 * @property {GameView | null} game
 * @property {import("../core/types.js").GameType | null} type
 * @property {import("../core/types.js").GameTypeDetail | null} detail
 * @property {import("../core/types.js").Choice[] | null} choices
 * @property {number | null} decisionVersion
 * @property {import("../core/types.js").GameEvent[]} events
 * @property {import("../core/types.js").HalfMadeMove} ui a renderer's half-made move (which square, which cards)
 * @property {{ asking: boolean }} resign whether the resign question is open
 * @property {number} readAt when the view arrived (Date.now()): clocks count down from then
 * @property {boolean} busy
 * @property {boolean} live this page's own stream is connected
 * @property {import("../games/highlight.js").Pictures} marks the board pictures highlight.js compares
 * @property {number | false} ownMove the version of the viewer's own move the next picture follows, else false
 * @property {Promise<string | null> | null} renewing
 */

/**
 * @param {HTMLElement} main
 * @param {string} gameId
 * @returns {Promise<() => void>} the clean-up when the person leaves the page
 */
export async function showGame(main, gameId) {
  const tokens = gameTokens(gameId);
  /** @type {PageState} */
  const page = {
    id: gameId,
    token: tokens.seat || null,
    hostToken: tokens.host || null,
    game: null,
    type: null,
    detail: null,
    choices: null,
    decisionVersion: null,
    events: [],
    ui: {},
    resign: { asking: false },
    readAt: Date.now(),
    busy: false,
    live: false,
    marks: {},
    ownMove: false,
    renewing: null,
  };
  const els = {
    title: h("h1", { id: "game-title" }),
    status: h("p", { id: "turn", class: "turn", role: "status", "aria-live": "polite" }),
    error: h("p", { id: "game-error", class: "error", role: "alert" }),
    takeback: h("div", { id: "takebacks" }),
    lobby: h("section", { id: "seats", class: "card" }),
    board: h("section", { id: "board", class: "board", "aria-label": t("game.board") }),
    actions: h("section", { id: "actions", class: "card actions" }),
    result: h("section", { id: "result", class: "card", hidden: true }),
    log: h("ol", { id: "log", class: "log", "aria-live": "polite", tabindex: 0, "aria-label": t("game.log") }), // focusable: it scrolls
    side: h("aside", { class: "side-col" }),
  };
  els.side.append(els.lobby, h("section", { class: "card" }, [h("h2", {}, [t("game.log")]), els.log]));
  const details = detailsPanel(main, () => page.detail?.data ?? null);
  /** @type {Awaited<ReturnType<typeof guideFor>>} a guided first game's hints (panels/tutorial.js) */
  let guide = null;
  let drawn = 0; // how many times the page was drawn: main[data-drawn] tells tests a redraw happened
  main.append(
    els.title, els.status, els.error,
    h("div", { class: "game-layout" }, [
      // The take-back control comes and goes between turns: below the board, so the board never
      // moves, and docked with the move panel at the bottom of a phone's screen, so it is in view.
      h("div", { class: "main-col" }, [els.board, details.panel, h("div", { class: "dock" }, [els.takeback, els.actions]), els.result]),
      els.side,
    ]),
  );

  const types = await api.gameTypes();
  /** @type {Map<number, string>} seats named by the log's seat_joined events, before the view lists them */
  const joined = new Map();
  const names = () => ({
    ...Object.fromEntries(joined),
    ...Object.fromEntries((page.game?.seats || []).map((seat) => [seat.seat, seatName(seat, page.detail?.bot_levels)])),
  });
  const nameOf = (/** @type {number | null | undefined} */ seat) => (seat === null || seat === undefined ? t("game.nobody") : names()[seat] ?? `#${seat}`);

  /**
   * What a renderer draws from.
   * @param {GameView} game
   * @returns {import("../games/index.js").RenderContext}
   */
  function context(game) {
    const mySeat = game.viewer?.seat ?? null;
    return {
      game,
      state: game.state || {},
      type: page.type,
      data: page.detail?.data || null,
      choices: page.choices || [],
      mySeat,
      ui: page.ui,
      nameOf,
      seatBadge: (seat) => seatBadge(seat, nameOf(seat)),
      submit,
      rerender: render,
    };
  }

  /**
   * `call(token)` with this page's seat token; when the server no longer knows the token (the same
   * player opened the game on another device), once more with a fresh one from the identity.
   * @template T
   * @param {(token: string | null) => Promise<T>} call
   * @returns {Promise<T>}
   */
  async function withSeat(call) {
    const used = page.token;
    try {
      return await call(used);
    } catch (failure) {
      if (!(failure instanceof ApiError) || failure.status !== 401 || !used) throw failure;
      if (page.token === used) {
        page.renewing ||= renewSeat(gameId)
          .catch((gone) => { if (gone instanceof ApiError && gone.status === 404) return null; throw gone; })
          .finally(() => { page.renewing = null; });
        const fresh = await page.renewing;
        if (!fresh && page.game?.status === "lobby") {
          // The host removed our lobby seat (perhaps blocking us): read on as a spectator.
          page.token = null;
          rememberTokens(gameId, { seat: null, seatIndex: null });
          return call(null);
        }
        if (!fresh) throw failure;
        page.token = fresh;
      }
      return call(page.token);
    }
  }

  /**
   * @param {import("../core/types.js").Choice} choice
   */
  async function submit(choice) {
    if (page.busy) return;
    page.busy = true;
    document.body.dataset.busy = "submit";
    els.error.textContent = "";
    try {
      // The seat's concurrency token: a 409 only if this seat's own decision moved on meanwhile.
      const key = newKey();
      const submitted = await withSeat((token) => sendMove(token, choice, key));
      page.ownMove = submitted.version;
      for (const line of els.log.querySelectorAll(".recent")) line.classList.remove("recent");
      page.ui = {};
      page.choices = null;
      await refresh();
    } catch (failure) {
      els.error.textContent = messageOf(failure);
      await refresh().catch(() => {}); // the message above says why; a dead server also fails this
    } finally {
      page.busy = false;
      delete document.body.dataset.busy;
    }
  }

  /**
   * A move over the live socket when it is open with this seat's token, else (or when the socket
   * closes before the answer) over REST with the same idempotency key: made once either way.
   * @param {string | null} token
   * @param {import("../core/types.js").Choice} choice
   * @param {string} key
   */
  async function sendMove(token, choice, key) {
    const overSocket = live.submit(token, choice, page.decisionVersion, key);
    if (overSocket) {
      try {
        return await overSocket;
      } catch (failure) {
        if (!(failure instanceof SocketLost)) throw failure;
      }
    }
    return api.submit(gameId, token, choice, page.decisionVersion, key);
  }

  /**
   * @param {GameView} game
   */
  function myDecision(game) {
    const seat = game.viewer?.seat;
    const decision = game.decision;
    if (seat === null || seat === undefined || !decision || game.status !== "in_progress") return false;
    return decision.seats.includes(seat) && !decision.sealed.includes(seat);
  }

  /** @type {Promise<void> | null} */
  let refreshing = null;
  let again = false;
  async function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      try {
        do {
          again = false;
          const game = await withSeat((token) => api.game(gameId, token));
          const pending = myDecision(game) ? await withSeat((token) => api.choices(gameId, token)) : null;
          const choices = pending ? pending.choices : null;
          if (JSON.stringify(choices) !== JSON.stringify(page.choices)) page.ui = {};
          page.game = game;
          page.readAt = Date.now();
          page.choices = choices;
          page.decisionVersion = pending ? pending.decision_version : null;
        } while (again);
      } finally {
        refreshing = null; // a failed read (server restarting) must not block every later one
      }
      render();
    })();
    return refreshing;
  }

  /** A refresh nobody awaits (timers, the live stream), never left unhandled. The server's answer
   * is shown; an unreachable server is not (the live label says "reconnecting", and the stream
   * refreshes again once it is back). */
  function refreshSoon() {
    refresh().catch((failure) => { if (failure instanceof ApiError) els.error.textContent = failure.message; });
  }

  /**
   * Whose turn it is and why the game waits.
   * @param {HTMLElement} box
   * @param {GameView} game
   */
  function drawStatus(box, game) {
    const mySeat = game.viewer.seat;
    if (game.status === "lobby") {
      box.append(t("status.lobby", { count: game.seats.length, max: game.max_players }));
    } else if (game.status === "finished") {
      box.append(t("status.finished"));
    } else if (game.status === "aborted") {
      box.append(t("status.aborted"));
    } else if (game.decision) {
      const decision = game.decision;
      const waiting = decision.seats.filter((seat) => !decision.sealed.includes(seat));
      if (page.choices) {
        box.append(h("strong", {}, [t("status.your_turn")]), " ", decision.prompt);
      } else if (mySeat !== null && decision.sealed.includes(mySeat)) {
        box.append(t("status.sealed_waiting", { names: waiting.map(nameOf).join(", ") }));
      } else if (decision.simultaneous) {
        box.append(t("status.waiting_secret", { names: waiting.map(nameOf).join(", ") }));
      } else {
        box.append(t("status.waiting_for", { names: waiting.map(nameOf).join(", ") }), " ", h("span", { class: "prompt" }, [`(${decision.prompt})`]));
      }
      if (decision.simultaneous && decision.sealed.length) {
        box.append(" · ", t("status.sealed_by", { names: decision.sealed.map(nameOf).join(", ") }));
      }
    }
  }

  /**
   * The seats with their status, the viewer's own controls, and the host's lobby controls.
   * @param {HTMLElement} box
   * @param {GameView} game
   */
  function drawSeats(box, game) {
    box.append(h("h2", {}, [t("game.players")]));
    const list = h("ul", { class: "seats" });
    for (const seat of game.seats) {
      const you = seat.seat === game.viewer.seat ? ` (${t("game.you")})` : "";
      const levelName = page.detail?.bot_levels?.find((level) => level.level === seat.bot)?.name || seat.bot;
      const named = seat.bot && seat.name === `${seat.bot} bot`; // already named by its level (seatName)
      const bot = seat.bot && !named ? ` · ${t("game.bot", { level: levelName ?? seat.bot })}` : "";
      const remove = seatRemovalControl(game, seat, page.hostToken, act);
      list.append(h("li", { dataset: { key: `seat-${seat.seat}`, seat: seat.seat } }, [seatBadge(seat.seat, nameOf(seat.seat)), you, bot,
        h("span", { class: "seat-rating", dataset: { ratingSeat: seat.seat } }, seatRating(game, seat.seat, render) ?? []),
        seatStatus(game, seat, page.live, page.readAt),
        remove ? " " : null, remove]));
    }
    box.append(list, ratedNote(game));
    const lapse = lapseNotice(game, page.token, act);
    if (lapse) box.append(lapse);
    const resign = resignControl(game, page.token, act, page.resign, render);
    if (resign) box.append(resign);
    const notify = page.token && ["lobby", "in_progress"].includes(game.status) ? notifyControl() : null;
    if (notify) box.append(notify);
    const push = page.token && ["lobby", "in_progress"].includes(game.status) ? pushControl(render) : null;
    if (push) box.append(push);
    const email = page.token && ["lobby", "in_progress"].includes(game.status) ? emailControl(render) : null;
    if (email) box.append(email);
    if (game.status === "in_progress" && game.viewer.seat !== null) {
      box.append(h("p", {}, [h("a", { id: "replay-so-far", class: "button", href: replayLink(gameId, "last") }, [t("replay.so_far")])]));
    }
    if (game.status !== "lobby") return;
    // A private game's link carries its invite code, which only the host's browser knows.
    const invite = gameTokens(gameId).invite;
    if (!game.private || invite) {
      const link = `${location.origin}${location.pathname}#/join/${gameId}${invite ? `/${encodeURIComponent(invite)}` : ""}`;
      box.append(
        h("p", {}, [h("label", { for: "invite-link" }, [t("game.invite")]), " ",
          h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("game.invite") }), " ",
          h("button", { type: "button", onclick: () => { byId("invite-link", HTMLInputElement).select(); navigator.clipboard?.writeText(link); } }, [t("game.copy")])]),
      );
    }
    if (!page.token && game.seats.length < game.max_players) {
      box.append(h("p", {}, [h("a", { class: "button", href: `#/join/${gameId}` }, [t("lobby.join")])]));
    }
    if (page.hostToken) {
      const hostToken = page.hostToken;
      const full = game.seats.length >= game.max_players;
      const fillAt = gameTokens(gameId).fillAt;
      if (fillAt) {
        box.append(h("p", { id: "bot-fill", class: "turn" }, [
          t("play_now.filling", { time: new Date(fillAt).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" }) }), " ",
          h("button", { type: "button", id: "bot-fill-now", onclick: () => fillWithBots(true) }, [t("play_now.fill_now")]), " ",
          h("button", { type: "button", id: "bot-fill-cancel", onclick: () => { rememberTokens(gameId, { fillAt: null }); render(); } }, [t("game.cancel")]),
        ]));
      }
      box.append(h("p", {}, [
        h("button", { type: "button", id: "add-bot", disabled: full, onclick: () => act(() => api.join(gameId, { bot: byId("add-bot-level", HTMLSelectElement).value }, hostToken)) }, [t("game.add_bot")]),
        " ", h("select", { id: "add-bot-level", "aria-label": t("lobby.bot_level") }, botLevelOptions(page.detail?.bot_levels ?? [])), " ",
        h("button", { type: "button", id: "start", class: "primary", disabled: game.seats.length < (page.type?.min_players ?? 1), onclick: () => act(() => api.start(gameId, hostToken)) }, [t("game.start")]),
      ]));
    } else {
      box.append(h("p", {}, [t("game.waiting_host")]));
    }
  }

  /**
   * "Play now" (lobby.js): once the chosen wait is over, bots take the seats still free up to the
   * number asked for and the host's page starts the game; `now` does it before the time.
   * @param {boolean} [now]
   */
  async function fillWithBots(now = false) {
    const { fillAt, fillTo } = gameTokens(gameId);
    const game = page.game;
    const hostToken = page.hostToken;
    if (!fillAt || !hostToken || !game || (!now && Date.now() < fillAt)) return;
    rememberTokens(gameId, { fillAt: null });
    if (game.status !== "lobby") return;
    const level = page.detail?.bot_levels?.at(-1)?.level ?? "random"; // the strongest
    await act(async () => {
      for (let seats = game.seats.length; seats < Math.max(fillTo ?? 0, page.type?.min_players ?? 2); seats++) {
        await api.join(gameId, { bot: level }, hostToken);
      }
      await api.start(gameId, hostToken);
    });
  }

  /**
   * @param {() => Promise<unknown>} action
   */
  async function act(action) {
    els.error.textContent = "";
    try { await action(); await refresh(); } catch (failure) { els.error.textContent = messageOf(failure); refreshSoon(); }
  }

  /**
   * The viewer's move: the renderer's panel (a half-made move's next step), then every legal move.
   * @param {HTMLElement} box
   * @param {GameView} game
   * @param {ReturnType<typeof context>} ctx
   */
  function drawActions(box, game, ctx) {
    if (!page.choices) return;
    box.append(h("h2", {}, [game.decision?.prompt || t("game.your_move")]));
    const renderer = rendererFor(game.type);
    const panel = renderer.panel ? renderer.panel(ctx) : null;
    if (panel) box.append(panel);
    const list = h("ul", { class: "choice-list" });
    page.choices.forEach((choice, index) => {
      list.append(h("li", {}, [h("button", { type: "button", class: "choice", dataset: { index }, onclick: () => submit(choice) }, [choiceText(game.type, choice, ctx)])]));
    });
    box.append(h("details", { class: "all-moves", open: Boolean(renderer.movesOpen) }, [h("summary", {}, [t("game.all_moves", { count: page.choices.length })]), list]));
  }

  /**
   * The final scores and how each came about, then the rematch.
   * @param {HTMLElement} box
   * @param {GameView} game
   */
  function drawResult(box, game) {
    const result = game.result;
    if (!result) return;
    // Ranked: first place first, each with its place (a shared place for equal standing).
    const rows = ranking(result, game.seats.map((seat) => seat.seat)).map(({ seat, rank }) => h("tr", { class: result.winners.includes(seat) ? "winner" : null, dataset: { seat, rank } }, [
      h("td", { class: "rank" }, [String(rank)]),
      h("th", { scope: "row" }, [seatBadge(seat, nameOf(seat)), result.winners.includes(seat) ? ` ★ ${t("result.winner")}` : ""]),
      h("td", {}, [String(result.scores[seat])]),
    ]));
    box.append(
      h("h2", {}, [t("result.title")]),
      h("table", { id: "scores", class: "scores" }, [
        h("thead", {}, [h("tr", {}, [h("th", { scope: "col" }, [t("result.rank")]), h("th", { scope: "col" }, [t("result.player")]), h("th", { scope: "col" }, [t("result.score")])])]),
        h("tbody", {}, rows),
      ]),
      h("details", { class: "score-details", open: true }, [h("summary", {}, [t("result.details")]),
        resultDetails(result, game, { nameOf, data: page.detail?.data, seatBadge: (seat) => seatBadge(seat, nameOf(seat)) })]),
    );
    box.append(h("p", {}, [h("a", { id: "replay-link-result", class: "button", href: replayLink(gameId, 0) }, [t("replay.open")])]));
    // A spectator has no rematch to offer.
    const rematch = rematchControl(game, page.token, page.hostToken, (message) => { els.error.textContent = message; });
    if (rematch) box.append(rematch);
  }

  /** Draw every part again from the page's state; only what differs changes on the page. */
  function render() {
    const game = page.game;
    if (!game) return;
    page.type = types.find((type) => type.slug === game.type) || null;
    els.title.textContent = page.type ? page.type.name : game.type;
    showTurn(`${els.title.textContent} · ${t("app.title")}`, Boolean(page.choices), `${gameId}/${page.decisionVersion}`);
    const ctx = context(game);
    redraw(els.status, (box) => drawStatus(box, game));
    redraw(els.takeback, (box) => {
      const control = takebackControl(game, page.token, act, nameOf);
      if (control) box.append(control);
    });
    redraw(els.lobby, (box) => drawSeats(box, game));
    redraw(els.board, (box) => {
      if (!game.state) return;
      box.append(rendererFor(game.type).board(ctx));
      // The picture after our own move is the base; if others moved already, the one before it.
      const own = page.ownMove;
      const rebase = own === false ? (page.busy ? "busy" : null) : (game.version <= own ? "now" : "previous");
      markChanges(box, page.marks, rebase);
      page.ownMove = false;
      details.refresh(box);
    });
    els.actions.hidden = !page.choices;
    redraw(els.actions, (box) => { drawActions(box, game, ctx); details.refresh(box); });
    els.result.hidden = !game.result;
    redraw(els.result, (box) => drawResult(box, game));
    guide?.update();
    main.dataset.drawn = String(++drawn);
  }

  let followLog = true; // false while the reader has scrolled the log back from its end
  els.log.addEventListener("scroll", () => { followLog = els.log.scrollHeight - els.log.scrollTop - els.log.clientHeight < 24; });

  /**
   * A line of the log; `live` lines by others since the viewer's last move are marked recent.
   * @param {import("../core/types.js").GameEvent} event
   * @param {boolean} [live]
   */
  function addToLog(event, live = false) {
    page.events.push(event);
    const who = event.data;
    if (event.type === "seat_joined" && who && typeof who.seat === "number" && typeof who.name === "string") {
      joined.set(who.seat, seatName({ name: who.name, bot: typeof who.bot === "string" ? who.bot : null }, page.detail?.bot_levels));
    }
    const mySeat = page.game?.viewer.seat;
    const others = Number.isInteger(mySeat) && event.data?.seat !== mySeat;
    els.log.append(h("li", { class: live && others ? "recent" : null, dataset: { seq: event.seq, type: event.type } }, [describeEvent(event, { nameOf, templates: page.detail?.log_templates, data: page.detail?.data })]));
    // Only the log's own box scrolls, and only while the reader has not scrolled back: the page never moves.
    if (followLog) els.log.scrollTop = els.log.scrollHeight;
  }

  await refresh();
  const game = page.game;
  if (!game) throw new Error(`game ${gameId} was not read`);
  page.detail = await gameTypeDetail(game.type);
  guide = await guideFor(gameId, () => page);
  render();
  const rules = await rulesPanel(game.type, page.detail?.data ?? null);
  if (rules) els.lobby.after(rules);
  const chat = chatPanel({ gameId, token: page.token, hostToken: page.hostToken, game: () => page.game, seatBadge: (/** @type {number | null} */ seat) => seatBadge(seat ?? 0, nameOf(seat)) });
  els.side.append(chat.element);
  let after = 0;
  for (;;) {
    const history = await withSeat((token) => api.events(gameId, token, after));
    for (const event of history.events) addToLog(event);
    if (!history.events.length) break;
    after = history.last_seq;
  }
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pending;
  const live = followGame({
    gameId,
    token: () => page.token,
    after,
    onEvent(event) {
      addToLog(event, true);
      clearTimeout(pending);
      pending = setTimeout(refreshSoon, 40);
    },
    onStatus(status, detail, used) {
      const label = byId("live-status", HTMLElement);
      label.textContent = t(`live.${status}`);
      label.dataset.state = status;
      page.live = status === "live";
      if (status === "error") {
        // A token refused at (re)subscription: refresh renews it if it can, then follow again with it.
        // The refused token is the one the socket used: a move may have renewed the page's since.
        const refused = used === undefined ? page.token : used;
        refresh().then(() => { if (page.token !== refused) live.reconnect(); else if (detail) els.error.textContent = detail; })
          .catch((failure) => { els.error.textContent = messageOf(failure); });
      }
      if (status === "live") refreshSoon();
    },
  });
  const stopClocks = tickClocks();
  // A turned phone or a resized window draws the board again, measured for its new size.
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let resizeTimer;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(render, 150); };
  window.addEventListener("resize", onResize);
  // Presence changes record no event: re-read the view now and then while the game is open.
  const presenceTimer = setInterval(() => {
    if (!document.hidden && ["lobby", "in_progress"].includes(page.game?.status ?? "")) refreshSoon();
  }, PRESENCE_REFRESH_MS);
  // On a finished game, the rematch offer appears for everyone at the table within seconds.
  const rematchTimer = setInterval(() => {
    if (page.game?.status === "finished" && !page.game.rematch_id && (page.token || page.hostToken)) refreshSoon();
  }, REMATCH_POLL_MS);
  const fillTimer = setInterval(() => { if (gameTokens(gameId).fillAt) fillWithBots(); }, 1000);
  fillWithBots();
  window.__tabletop = { page, live };
  if (tokens.seat && game.viewer.seat !== null) rememberTokens(gameId, { seatIndex: game.viewer.seat });
  return () => {
    live.close(); chat.close(); guide?.close(); stopClocks(); clearInterval(presenceTimer); clearInterval(rematchTimer); clearInterval(fillTimer); clearTurn();
    window.removeEventListener("resize", onResize);
    delete main.dataset.drawn;
  };
}
