// @ts-check
// A tournament's page (#/tournament/<id>[/<invite code>]), phone first: "your game is ready" at the
// top when the viewer has a game to play in the current round, then what the viewer can do
// (register, unregister, withdraw; the host starts or cancels it), the standings, each round's
// tables with links to their games, the entrants and the settings. It follows the tournament live
// (core/tournaments.js: its SSE stream, else re-reading every few seconds) and redraws by
// comparison (core/morph.js), so a field being typed in or a question being answered survives.

import { api, messageOf } from "../core/api.js";
import { h, stacked } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { redraw } from "../core/morph.js";
import { gameTypeDetail } from "../core/catalog.js";
import { playerName, playerToken, rememberName } from "../core/store.js";
import { followTournament, keep, kept, newView, nowFollowing, playerTokenFor, tournamentApi, whoAmI } from "../core/tournaments.js";
import { tournamentClock, when } from "./tournaments.js";
import { noteTournamentGames } from "../panels/tournament_link.js";

/** @typedef {import("../core/tournaments.js").Tournament} Tournament */
/** @typedef {import("../core/tournaments.js").StandingRow} StandingRow */
/** @typedef {import("../core/tournaments.js").Round} Round */
/** @typedef {import("../core/tournaments.js").RoundTable} RoundTable */

/**
 * @typedef {object} Seen what the page shows, read together
 * @property {Tournament} tournament
 * @property {StandingRow[]} standings
 * @property {Round[]} rounds
 * @property {import("../core/types.js").MyGame[]} mine
 * @property {string | null} me this browser's entrant
 */

/**
 * @param {number} value
 */
function number(value) {
  return value.toLocaleString(document.documentElement.lang || undefined, { maximumFractionDigits: 2 });
}

/**
 * @param {string} id
 * @returns {Promise<Seen>}
 */
async function read(id) {
  const token = playerToken();
  const [tournament, standings, rounds, mine] = await Promise.all([
    tournamentApi.get(id),
    tournamentApi.standings(id),
    tournamentApi.rounds(id),
    token ? api.myGames(token).catch(() => []) : Promise.resolve([]),
  ]);
  return { tournament, standings, rounds, mine, me: whoAmI(tournament, rounds, mine) };
}

/**
 * The viewer's table in the current round, while its game is running.
 * @param {Seen} seen
 */
function myTable(seen) {
  if (!seen.me || seen.tournament.status !== "running") return null;
  if (seen.tournament.entrants.some((entrant) => entrant.player_id === seen.me && entrant.withdrawn)) return null; // resigned: a bot plays it
  const round = seen.rounds.find((entry) => entry.round === seen.tournament.current_round);
  const table = round?.tables.find((entry) => !entry.finished && entry.seats.some((seat) => seat.player_id === seen.me));
  if (!round || !table) return null;
  const seat = table.seats.find((entry) => entry.player_id === seen.me);
  return seat ? { round: round.round, table, seat: seat.seat } : null;
}

/**
 * @param {Tournament} tournament
 */
function statusLine(tournament) {
  switch (tournament.status) {
    case "registering":
      return tournament.starts_at ? t("tournaments.registering_until", { at: when(tournament.starts_at) }) : t("tournaments.registering_host");
    case "running":
      if (tournament.next_round_at) return t("tournaments.next_round_at", { round: tournament.current_round + 1, at: when(tournament.next_round_at) });
      return t("tournaments.round_of", { round: tournament.current_round, rounds: tournament.rounds });
    case "finished":
      return t("tournaments.finished");
    default:
      return t("tournaments.cancelled");
  }
}

/**
 * The seats of a table in words: "Ann – Bob", each with its place once the game ended.
 * @param {RoundTable} table
 * @param {string | null} me
 */
function seatsOf(table, me) {
  /** @type {(Node | string)[]} */
  const parts = [];
  table.seats.forEach((seat, index) => {
    if (index) parts.push(" – ");
    const label = seat.rank === null ? seat.name : t("tournaments.seat_place", { name: seat.name, rank: seat.rank });
    parts.push(seat.player_id === me ? h("strong", {}, [label]) : label);
  });
  return parts;
}

/**
 * @param {Seen} seen
 */
function yourGame(seen) {
  const mine = myTable(seen);
  if (!mine) return null;
  const others = mine.table.seats.filter((seat) => seat.player_id !== seen.me).map((seat) => seat.name).join(", ");
  return h("section", { id: "your-game", class: "card your-game", "aria-labelledby": "your-game-title" }, [
    h("h2", { id: "your-game-title" }, [t("tournaments.your_game_ready", { round: mine.round })]),
    h("p", {}, [t("tournaments.your_opponents", { names: others, table: mine.table.number })]),
    h("p", { class: "step" }, [
      h("a", { href: `#/mine/${mine.table.game_id}/${mine.seat}`, id: "your-game-link", class: "button primary" }, [t("tournaments.play_your_game")]),
    ]),
  ]);
}

/**
 * @param {Seen} seen
 */
function standingsTable(seen) {
  const elimination = seen.tournament.format === "single_elimination";
  const headings = ["tournaments.rank", "tournaments.player", "tournaments.points", "tournaments.games", "tournaments.buchholz", "tournaments.sonneborn_berger"];
  if (elimination) headings.push("tournaments.reached");
  const table = h("table", { id: "standings-table", class: "scores standings" }, [
    h("caption", { class: "sr" }, [t("tournaments.standings")]),
    h("thead", {}, [h("tr", {}, headings.map((key) => h("th", { scope: "col" }, [t(key)])))]),
    h("tbody", {}, seen.standings.map((row) => {
      const notes = [row.withdrawn ? t("tournaments.withdrawn") : null, row.eliminated ? t("tournaments.eliminated") : null, row.player_id === seen.me ? t("tournaments.you") : null].filter(Boolean);
      return h("tr", { "data-key": `standing-${row.player_id}`, class: row.player_id === seen.me ? "me" : null, dataset: { player: row.player_id, points: row.points } }, [
        h("td", { class: "rank" }, [String(row.rank)]),
        h("th", { scope: "row" }, [h("a", { href: `#/player/${encodeURIComponent(row.player_id)}` }, [row.name]), notes.length ? ` (${notes.join(", ")})` : ""]),
        h("td", { class: "points" }, [number(row.points)]),
        h("td", {}, [String(row.games)]),
        h("td", {}, [number(row.buchholz)]),
        h("td", {}, [number(row.sonneborn_berger)]),
        elimination ? h("td", {}, [String(row.reached)]) : null,
      ]);
    })),
  ]);
  return stacked(table);
}

/**
 * @param {Seen} seen
 */
function roundsList(seen) {
  if (!seen.rounds.length) return [h("p", {}, [t("tournaments.no_rounds")])];
  const names = new Map(seen.tournament.entrants.map((entrant) => [entrant.player_id, entrant.name]));
  const withdrawn = seen.tournament.entrants.some((entrant) => entrant.player_id === seen.me && entrant.withdrawn);
  return [...seen.rounds].reverse().map((round) => h("section", { "data-key": `round-${round.round}`, class: "round", dataset: { round: round.round } }, [
    h("h3", {}, [t("tournaments.round", { round: round.round })]),
    h("ul", { class: "games pairings" }, [
      ...round.tables.map((table) => {
        const mine = table.seats.some((seat) => seat.player_id === seen.me) && !withdrawn;
        const seat = table.seats.find((entry) => entry.player_id === seen.me)?.seat;
        const href = mine && !table.finished ? `#/mine/${table.game_id}/${seat}` : `#/game/${table.game_id}`;
        const label = table.finished ? t("tournaments.see_game") : mine ? t("tournaments.play_your_game") : t("tournaments.watch_game");
        return h("li", { "data-key": `table-${table.game_id}`, dataset: { game: table.game_id, finished: String(table.finished) } }, [
          h("span", {}, [t("tournaments.table", { table: table.number }), ": ", ...seatsOf(table, seen.me)]),
          h("span", { class: "table-state" }, [table.finished ? t("tournaments.game_over") : t("tournaments.game_running")]),
          h("a", { href, class: "button game-link", "aria-label": `${label}: ${t("tournaments.round_table", { round: round.round, table: table.number })}` }, [label]),
        ]);
      }),
      ...round.byes.map((player) => h("li", { "data-key": `bye-${player}`, class: "bye" }, [t("tournaments.bye", { name: names.get(player) ?? player })])),
    ]),
  ]));
}

/**
 * @param {Seen} seen
 * @param {import("../core/types.js").GameTypeDetail | null} type
 */
function settingsList(seen, type) {
  const tournament = seen.tournament;
  const optionNames = new Map((type?.options ?? []).map((option) => [option.name, option]));
  /** @param {string} name @param {import("../core/types.js").Scalar} value */
  const optionText = (name, value) => {
    const option = optionNames.get(name);
    const index = option?.allowed?.indexOf(value) ?? -1;
    const shown = index >= 0 && option?.allowed_labels ? option.allowed_labels[index] : typeof value === "boolean" ? t(value ? "tournaments.yes" : "tournaments.no") : String(value);
    return `${option?.label || name}: ${shown}`;
  };
  const rows = [
    ["tournaments.game", type?.name ?? tournament.game_type],
    ["lobby.options", Object.entries(tournament.options).map(([name, value]) => optionText(name, value)).join("; ") || "—"],
    ["tournaments.format", t(`tournaments.format_${tournament.format}`)],
    ["tournaments.rounds", String(tournament.rounds)],
    ["tournaments.table_size", tournament.min_table_size === tournament.table_size ? String(tournament.table_size) : `${tournament.min_table_size}–${tournament.table_size}`],
    ["clock.title", tournamentClock(tournament.clock)],
    ["tournaments.max_players", String(tournament.max_players)],
    ["tournaments.start", tournament.starts_at ? when(tournament.starts_at) : t("tournaments.host_starts")],
    ["tournaments.pause", tournament.pause_seconds ? t("tournaments.pause_seconds", { seconds: tournament.pause_seconds }) : t("tournaments.pause_none")],
    ["tournaments.rated", t(tournament.rated ? "tournaments.yes" : "tournaments.no")],
    ["tournaments.private", t(tournament.private ? "tournaments.yes" : "tournaments.no")],
  ];
  return h("dl", { class: "info-rows" }, rows.flatMap(([key, value]) => [h("dt", {}, [t(key)]), h("dd", {}, [value])]));
}

/**
 * @param {HTMLElement} main
 * @param {string} id
 * @param {string} [inviteCode]
 * @returns {Promise<() => void>} what ends the page (its live updates)
 */
export async function showTournament(main, id, inviteCode) {
  const view = newView();
  if (inviteCode) keep(id, { invite: decodeURIComponent(inviteCode) });
  /** @type {Seen} */
  let seen;
  try {
    seen = await read(id);
  } catch (failure) {
    if (view.current()) main.append(h("p", { class: "error", role: "alert" }, [messageOf(failure)]));
    return () => {};
  }
  const type = await gameTypeDetail(seen.tournament.game_type).catch(() => null);
  if (!view.current()) return () => {}; // the router has moved on meanwhile
  document.title = `${seen.tournament.name} · ${t("app.title")}`;
  const page = h("div", { id: "tournament", class: "tournament", dataset: { tournament: id } });
  const live = h("p", { id: "tournament-live", class: "help", role: "status" });
  main.append(h("p", {}, [h("a", { href: "#/tournaments", class: "button back" }, [t("tournaments.back")])]), page, live);
  /** @type {"" | "withdraw" | "cancel"} */
  let asking = "";
  let message = "";
  let failed = "";
  let acting = false;

  /**
   * Do one thing the viewer asked, then read everything again.
   * @param {() => Promise<unknown>} action
   * @param {string} [done] what to say once done (a translation key)
   */
  async function act(action, done) {
    if (acting) return;
    acting = true;
    failed = "";
    message = "";
    asking = "";
    draw();
    try {
      await action();
      message = done ? t(done) : "";
    } catch (failure) {
      failed = messageOf(failure);
    }
    acting = false;
    await refresh().catch((failure) => { failed = messageOf(failure); draw(); });
  }

  /** @param {HTMLElement} fresh */
  function actions(fresh) {
    const tournament = seen.tournament;
    const host = kept(id).host;
    const me = seen.me ? tournament.entrants.find((entrant) => entrant.player_id === seen.me) : null;
    const token = playerToken();
    /** @type {(Node | null)[]} */
    const parts = [h("h2", { id: "tournament-actions-title" }, [t("tournaments.your_part")])];
    if (tournament.status === "registering") {
      if (me) {
        parts.push(h("p", { id: "registered" }, [t("tournaments.registered", { name: me.name })]));
        parts.push(h("p", { class: "step" }, [h("button", { type: "button", id: "unregister", disabled: acting, onclick: () => act(() => tournamentApi.unregister(id, token), "tournaments.unregistered") }, [t("tournaments.unregister")])]));
      } else if (tournament.entrants.length >= tournament.max_players) {
        parts.push(h("p", {}, [t("tournaments.full")]));
      } else {
        const needsCode = tournament.private && !kept(id).invite;
        parts.push(h("form", { id: "register-form", onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const form = /** @type {HTMLFormElement} */ (event.currentTarget);
          const nameInput = form.querySelector("#register-name");
          const codeInput = form.querySelector("#register-code");
          const who = (nameInput instanceof HTMLInputElement ? nameInput.value.trim() : "") || playerName() || t("play_now.default_name");
          const code = codeInput instanceof HTMLInputElement ? codeInput.value.trim() : kept(id).invite ?? null;
          act(async () => {
            rememberName(who);
            const before = new Set(seen.tournament.entrants.map((entrant) => entrant.player_id));
            const after = await tournamentApi.register(id, await playerTokenFor(who), code || null);
            const added = after.entrants.find((entrant) => !before.has(entrant.player_id) && entrant.name === who)
              ?? after.entrants.find((entrant) => !before.has(entrant.player_id));
            if (added) keep(id, { me: added.player_id });
            if (code) keep(id, { invite: code });
          }, "tournaments.now_registered");
        } }, [
          token ? null : h("p", { class: "field" }, [h("label", { for: "register-name" }, [t("lobby.your_name")]),
            h("input", { id: "register-name", required: true, maxlength: 64, autocomplete: "nickname", value: playerName() })]),
          needsCode ? h("p", { class: "field" }, [h("label", { for: "register-code" }, [t("tournaments.invite_code")]),
            h("input", { id: "register-code", required: true, maxlength: 128, autocomplete: "off" })]) : null,
          h("p", { class: "step" }, [h("button", { type: "submit", id: "register", class: "primary", disabled: acting }, [t("tournaments.register")])]),
        ]));
      }
    } else if (tournament.status === "running" && me) {
      if (me.withdrawn) parts.push(h("p", {}, [t("tournaments.you_withdrew")]));
      else if (asking === "withdraw") {
        parts.push(h("p", { id: "withdraw-question" }, [t("tournaments.withdraw_question")]),
          h("p", { class: "step" }, [
            h("button", { type: "button", id: "withdraw-confirm", class: "danger", onclick: () => act(() => tournamentApi.withdraw(id, token), "tournaments.withdrew") }, [t("tournaments.withdraw_confirm")]),
            h("button", { type: "button", id: "withdraw-keep", onclick: () => { asking = ""; draw(); } }, [t("tournaments.keep_playing")]),
          ]));
      } else {
        parts.push(h("p", {}, [t("tournaments.playing_as", { name: me.name })]),
          h("p", { class: "step" }, [h("button", { type: "button", id: "withdraw", onclick: () => { asking = "withdraw"; draw(); } }, [t("tournaments.withdraw")])]));
      }
    } else if (!host) {
      parts.push(h("p", {}, [t(tournament.status === "running" ? "tournaments.spectating" : "tournaments.over")]));
    }
    if (host && tournament.status === "registering") {
      const enough = tournament.entrants.length >= 2;
      parts.push(h("h3", {}, [t("tournaments.host")]));
      if (tournament.private && kept(id).invite) {
        const link = `${location.origin}${location.pathname}#/tournament/${id}/${encodeURIComponent(kept(id).invite ?? "")}`;
        parts.push(h("p", { class: "field" }, [h("label", { for: "tournament-invite" }, [t("tournaments.invite_link")]),
          h("input", { id: "tournament-invite", readonly: true, value: link })]));
      }
      if (asking === "cancel") {
        parts.push(h("p", { id: "cancel-question" }, [t("tournaments.cancel_question")]),
          h("p", { class: "step" }, [
            h("button", { type: "button", id: "cancel-confirm", class: "danger", onclick: () => act(() => tournamentApi.cancel(id, host), "tournaments.cancelled") }, [t("tournaments.cancel_confirm")]),
            h("button", { type: "button", id: "cancel-keep", onclick: () => { asking = ""; draw(); } }, [t("tournaments.keep_tournament")]),
          ]));
      } else {
        parts.push(h("p", { class: "help", id: "start-help" }, [enough ? t("tournaments.start_now_help", { count: tournament.entrants.length }) : t("tournaments.need_players")]),
          h("p", { class: "step" }, [
            h("button", { type: "button", id: "start-tournament", class: "primary", disabled: !enough || acting, "aria-describedby": "start-help", onclick: () => act(() => tournamentApi.start(id, host), "tournaments.started") }, [t("tournaments.start_now")]),
            h("button", { type: "button", id: "cancel-tournament", disabled: acting, onclick: () => { asking = "cancel"; draw(); } }, [t("tournaments.cancel")]),
          ]));
      }
    }
    parts.push(h("p", { id: "tournament-message", role: "status" }, [message]));
    parts.push(h("p", { id: "tournament-error", class: "error", role: "alert" }, [failed]));
    fresh.append(...parts.filter((part) => part !== null));
  }

  function draw() {
    const tournament = seen.tournament;
    page.dataset.status = tournament.status;
    page.dataset.version = String(tournament.version);
    redraw(page, (fresh) => {
      fresh.append(
        h("h1", { id: "tournament-title" }, [tournament.name]),
        h("p", { id: "tournament-status", class: `turn status-${tournament.status}` }, [statusLine(tournament)]),
        ...[yourGame(seen)].filter((node) => node !== null),
        h("section", { id: "tournament-actions", class: "card", "aria-labelledby": "tournament-actions-title" }, []),
        h("section", { id: "standings", class: "card", "aria-labelledby": "standings-title" }, [
          h("h2", { id: "standings-title" }, [t("tournaments.standings")]),
          seen.standings.length ? standingsTable(seen) : h("p", {}, [t("tournaments.no_standings")]),
        ]),
        h("section", { id: "rounds", class: "card", "aria-labelledby": "rounds-title" }, [
          h("h2", { id: "rounds-title" }, [t("tournaments.rounds_title")]),
          ...roundsList(seen),
        ]),
        h("section", { id: "entrants", class: "card", "aria-labelledby": "entrants-title" }, [
          h("h2", { id: "entrants-title" }, [t("tournaments.entrants", { count: tournament.entrants.length, max: tournament.max_players })]),
          tournament.entrants.length
            ? h("ul", { class: "entrants" }, tournament.entrants.map((entrant) => h("li", { "data-key": `entrant-${entrant.player_id}`, dataset: { player: entrant.player_id } }, [
              h("a", { href: `#/player/${encodeURIComponent(entrant.player_id)}` }, [entrant.name]),
              ` · ${t("tournaments.rating", { rating: Math.round(entrant.rating) })}`,
              entrant.withdrawn ? ` · ${t("tournaments.withdrawn")}` : "",
              entrant.player_id === seen.me ? ` · ${t("tournaments.you")}` : "",
            ])))
            : h("p", {}, [t("tournaments.nobody")]),
        ]),
        h("section", { id: "tournament-settings", class: "card", "aria-labelledby": "settings-title" }, [
          h("h2", { id: "settings-title" }, [t("tournaments.settings")]),
          settingsList(seen, type),
        ]),
      );
      const box = fresh.querySelector("#tournament-actions");
      if (box instanceof HTMLElement) actions(box);
    });
  }

  /** @type {(() => void) | null} */
  let stopLive = null;
  const over = () => seen.tournament.status === "finished" || seen.tournament.status === "cancelled";

  async function refresh() {
    const next = await read(id);
    seen = next;
    noteGames();
    draw();
    page.dataset.refreshed = String(Number(page.dataset.refreshed || 0) + 1);
    if (over()) stopFollowing(); // nothing changes any more (its stream has ended too)
  }

  function stopFollowing() {
    stopLive?.();
    stopLive = null;
    live.textContent = "";
  }

  /** The game pages of these rounds link back here (panels/tournament_link.js). */
  function noteGames() {
    noteTournamentGames(id, seen.tournament.name, seen.rounds.flatMap((round) => round.tables.map((table) => table.game_id)));
  }

  noteGames();
  draw();
  if (over()) return () => {};
  stopLive = nowFollowing(followTournament(id, refresh, (mode) => {
    live.textContent = mode === "live" ? t("tournaments.live") : t("tournaments.polling");
    live.dataset.mode = mode;
  }));
  return () => stopFollowing();
}
