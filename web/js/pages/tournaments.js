// @ts-check
// The tournaments' lobby (#/tournaments[/<status>]): the public tournaments open for registration,
// running or finished, each linking to its page; and a new tournament (#/tournaments/new): game
// and its options, clock, format, rounds, seats per table, start time, seat limit, pause between
// rounds, private or public, rated or not, and whether the host plays in it too.

import { messageOf, api } from "../core/api.js";
import { h, clear } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { clockFieldset, readClock } from "../panels/clock_options.js";
import { clockText, nameField, optionInput, readOptions, typedName } from "./lobby.js";
import { lastGameType, playerName, playerToken, rememberName } from "../core/store.js";
import { keep, kept, myTournamentIds, newView, playerTokenFor, tournamentApi } from "../core/tournaments.js";

/** @typedef {import("../core/tournaments.js").Tournament} Tournament */
/** @typedef {import("../core/types.js").GameType} GameType */

export const STATUSES = /** @type {const} */ (["registering", "running", "finished"]);
const FORMATS = ["swiss", "round_robin", "single_elimination"];
const PAUSES = [0, 30, 60, 120, 300, 600];

/**
 * A tournament's clock in words ("60 s pro Zug"), or "no clock".
 * @param {Tournament["clock"]} clock
 */
export function tournamentClock(clock) {
  if (!clock) return t("lobby.clock_none");
  return clockText({ mode: clock.mode, seconds: clock.seconds, increment: clock.increment ?? 0 });
}

/**
 * A date and time in the page's language.
 * @param {string} iso
 */
export function when(iso) {
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * One listed tournament: name (its link), game, format, players, start.
 * @param {Tournament} tournament
 * @param {{ [slug: string]: string }} names
 * @param {boolean} [mine] one of "My tournaments" (its status and whether this browser hosts it shown)
 */
function listItem(tournament, names, mine = false) {
  const start = tournament.starts_at ? t("tournaments.starts_at", { at: when(tournament.starts_at) }) : t("tournaments.host_starts");
  const round = tournament.status === "running" ? t("tournaments.round_of", { round: tournament.current_round, rounds: tournament.rounds }) : start;
  const role = kept(tournament.id).host ? t("tournaments.hosting") : null;
  const status = mine ? t(`tournaments.state_${tournament.status}`) : null;
  return h("li", { dataset: { tournament: tournament.id } }, [
    h("a", { href: `#/tournament/${tournament.id}`, class: "tournament-link" }, [tournament.name]),
    mine && role ? h("span", { class: "badge" }, [role]) : null,
    status ? h("strong", {}, [status]) : null,
    h("span", {}, [names[tournament.game_type] || tournament.game_type]), " · ",
    h("span", {}, [t(`tournaments.format_${tournament.format}`)]), " · ",
    h("span", {}, [t("tournaments.players_count", { count: tournament.entrants.length, max: tournament.max_players })]), " · ",
    h("span", {}, [round]), " · ",
    h("span", {}, [tournament.rated ? t("tournaments.rated") : t("tournaments.unrated")]),
  ]);
}

/**
 * @param {HTMLElement} main
 * @param {string | undefined} status
 */
export async function showTournaments(main, status) {
  const view = newView();
  if (status === "new") return showNewTournament(main, view);
  const shown = STATUSES.find((entry) => entry === status) ?? "registering";
  const types = await api.gameTypes();
  const names = Object.fromEntries(types.map((type) => [type.slug, type.name]));
  const mine = await myTournaments(names);
  if (!view.current()) return; // the router has moved on meanwhile
  document.title = `${t("tournaments.title")} · ${t("app.title")}`;
  const list = h("ul", { class: "games tournaments", id: "tournament-list" });
  const error = h("p", { class: "error", role: "alert" });
  main.append(
    h("h1", {}, [t("tournaments.title")]),
    h("p", { class: "help" }, [t("tournaments.intro")]),
    h("p", { class: "step" }, [h("a", { href: "#/tournaments/new", id: "new-tournament-link", class: "button primary" }, [t("tournaments.create")])]),
    mine ?? "",
    h("nav", { class: "step tabs", "aria-label": t("tournaments.by_status") }, STATUSES.map((entry) =>
      h("a", { href: `#/tournaments/${entry}`, class: "button", id: `tournaments-${entry}`, "aria-current": entry === shown ? "page" : null }, [t(`tournaments.status_${entry}`)]))),
    h("section", { class: "card", "aria-labelledby": "tournament-list-title" }, [
      h("h2", { id: "tournament-list-title" }, [t(`tournaments.status_${shown}`)]), error, list,
    ]),
  );
  try {
    const found = await tournamentApi.list(shown);
    clear(list);
    if (!found.length) list.append(h("li", {}, [t("tournaments.none")]));
    for (const tournament of found) list.append(listItem(tournament, names));
  } catch (failure) {
    error.textContent = messageOf(failure);
  }
  list.dataset.loaded = "true";
}

/** How many of this browser's tournaments "My tournaments" shows. */
const MINE = 10;

/**
 * "My tournaments": the ones this browser hosts or plays in, private ones too (null when none).
 * @param {{ [slug: string]: string }} names
 */
async function myTournaments(names) {
  const found = await Promise.all(myTournamentIds(MINE).map((id) => tournamentApi.get(id).catch(() => null)));
  const shown = found.filter((tournament) => tournament !== null);
  if (!shown.length) return null;
  return h("section", { class: "card", id: "my-tournaments", "aria-labelledby": "my-tournaments-title" }, [
    h("h2", { id: "my-tournaments-title" }, [t("tournaments.mine")]),
    h("ul", { class: "games tournaments" }, shown.map((tournament) => listItem(tournament, names, true))),
  ]);
}

/**
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} input
 * @param {string} [help]
 */
function field(id, label, input, help) {
  if (help) input.setAttribute("aria-describedby", `${id}-help`);
  return h("div", { class: "field" }, [
    h("label", { for: id }, [label]), input,
    help ? h("p", { class: "help", id: `${id}-help` }, [help]) : null,
  ]);
}

/**
 * @param {number} seconds
 */
function pauseText(seconds) {
  if (seconds === 0) return t("tournaments.pause_none");
  if (seconds < 60) return t("play_now.wait_seconds", { seconds });
  return t("play_now.wait_minutes", { minutes: seconds / 60 });
}

/**
 * The new tournament's form. Defaults: the last game played, Swiss in 5 rounds at tables of the
 * game's fewest seats (at least 2), 60 s per decision (a rated tournament needs a clock), 32
 * players, the host starts it, public and rated; the host plays too.
 * @param {GameType[]} types
 */
function createForm(types) {
  const first = types.find((type) => type.slug === lastGameType()) ?? types[0];
  const name = h("input", { id: "tournament-name", required: true, maxlength: 80, value: t("tournaments.default_name") });
  const typeSelect = h("select", { id: "game-type", name: "type" },
    types.map((type) => h("option", { value: type.slug, selected: type === first }, [type.name])));
  const description = h("p", { class: "help" });
  const optionsBox = h("fieldset", { class: "options" });
  const format = h("select", { id: "tournament-format" }, FORMATS.map((value) =>
    h("option", { value }, [t(`tournaments.format_${value}`)])));
  const formatHelp = h("p", { class: "help", id: "tournament-format-help" });
  format.setAttribute("aria-describedby", "tournament-format-help");
  const rounds = h("input", { id: "tournament-rounds", type: "number", min: 1, max: 30, value: 5, inputmode: "numeric" });
  const roundsField = field("tournament-rounds", t("tournaments.rounds"), rounds, t("tournaments.rounds_help"));
  const tableSize = h("input", { id: "tournament-table", type: "number", min: 2, max: 5, value: 2, inputmode: "numeric" });
  const maxPlayers = h("input", { id: "tournament-max", type: "number", min: 2, max: 256, value: 32, inputmode: "numeric" });
  const startsAt = h("input", { id: "tournament-start", type: "datetime-local" });
  const pause = h("select", { id: "tournament-pause" }, PAUSES.map((seconds) => h("option", { value: seconds }, [pauseText(seconds)])));
  const privateBox = h("input", { type: "checkbox", id: "tournament-private" });
  const ratedBox = h("input", { type: "checkbox", id: "tournament-rated", checked: true });
  const playBox = h("input", { type: "checkbox", id: "tournament-play", checked: true });
  const error = h("p", { class: "error", role: "alert", id: "tournament-error" });
  const clock = clockFieldset();
  const form = h("form", { id: "tournament-form", class: "card" }, [
    h("h2", {}, [t("tournaments.create")]),
    field("tournament-name", t("tournaments.name"), name),
    field("game-type", t("lobby.game"), typeSelect),
    description,
    optionsBox,
    clock,
    field("tournament-format", t("tournaments.format"), format),
    formatHelp,
    roundsField,
    field("tournament-table", t("tournaments.table_size"), tableSize, t("tournaments.table_size_help")),
    field("tournament-max", t("tournaments.max_players"), maxPlayers),
    field("tournament-start", t("tournaments.start"), startsAt, t("tournaments.start_help")),
    field("tournament-pause", t("tournaments.pause"), pause),
    h("p", {}, [h("label", { for: "tournament-private" }, [privateBox, " ", t("tournaments.private")])]),
    h("p", { class: "help" }, [t("tournaments.private_help")]),
    h("p", {}, [h("label", { for: "tournament-rated" }, [ratedBox, " ", t("tournaments.rated")])]),
    h("p", { class: "help" }, [t("tournaments.rated_help")]),
    h("p", {}, [h("label", { for: "tournament-play" }, [playBox, " ", t("tournaments.play_too")])]),
    playerToken() ? null : nameField("create-name"),
    h("p", { class: "step" }, [h("button", { type: "submit", class: "primary" }, [t("tournaments.create_button")])]),
    error,
  ]);
  // The player's name is asked for only when the host plays and this browser has no player yet.
  const nameInput = form.querySelector("#create-name");
  function showName() {
    if (!(nameInput instanceof HTMLInputElement)) return;
    nameInput.required = playBox.checked;
    const holder = nameInput.parentElement;
    if (holder) holder.hidden = !playBox.checked;
  }
  playBox.addEventListener("change", showName);
  showName();
  // A tournament is rated by default, and a rated one needs a clock: 60 s per decision to start with.
  const mode = clock.querySelector("#clock-mode");
  if (mode instanceof HTMLSelectElement) {
    mode.value = "per_decision";
    mode.dispatchEvent(new Event("change"));
  }
  const selected = () => types.find((type) => type.slug === typeSelect.value) ?? first;
  function showType() {
    const type = selected();
    description.textContent = `${type.description} (${t("lobby.players", { min: type.min_players, max: type.max_players })})`;
    clear(optionsBox).append(h("legend", {}, [t("lobby.options")]), ...type.options.map(optionInput));
    const fewest = Math.max(2, type.min_players);
    tableSize.min = String(fewest);
    tableSize.max = String(Math.min(5, type.max_players));
    tableSize.value = String(fewest);
  }
  function showFormat() {
    formatHelp.textContent = t(`tournaments.format_${format.value}_help`);
    roundsField.hidden = format.value !== "swiss";
  }
  typeSelect.addEventListener("change", showType);
  format.addEventListener("change", showFormat);
  showType();
  showFormat();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const type = selected();
    const button = form.querySelector("button[type=submit]");
    if (button instanceof HTMLButtonElement) button.disabled = true;
    try {
      const created = await tournamentApi.create({
        name: name.value.trim(),
        game_type: type.slug,
        format: format.value,
        options: readOptions(form, type),
        clock: readClock(form),
        rounds: format.value === "swiss" ? Number(rounds.value) : undefined,
        table_size: Number(tableSize.value),
        max_players: Number(maxPlayers.value),
        starts_at: startsAt.value ? new Date(startsAt.value).toISOString() : undefined,
        private: privateBox.checked,
        rated: ratedBox.checked,
        pause_seconds: Number(pause.value),
      });
      const id = created.tournament.id;
      keep(id, { host: created.host_token, invite: created.invite_code });
      if (playBox.checked) {
        const who = typedName(form) || playerName() || t("play_now.default_name");
        rememberName(who);
        const joined = await tournamentApi.register(id, await playerTokenFor(who), created.invite_code);
        const me = joined.entrants.find((entrant) => entrant.name === who) ?? joined.entrants[joined.entrants.length - 1];
        if (me) keep(id, { me: me.player_id });
      }
      location.hash = `#/tournament/${id}`;
    } catch (failure) {
      error.textContent = messageOf(failure);
    } finally {
      if (button instanceof HTMLButtonElement) button.disabled = false;
    }
  });
  return form;
}

/**
 * #/tournaments/new: a new tournament, a step of its own.
 * @param {HTMLElement} main
 * @param {{ current: () => boolean }} view
 */
async function showNewTournament(main, view) {
  const types = await api.gameTypes();
  if (!view.current()) return;
  document.title = `${t("tournaments.create")} · ${t("app.title")}`;
  main.append(
    h("p", {}, [h("a", { href: "#/tournaments", class: "button back" }, [t("tournaments.back")])]),
    h("div", { class: "create-step" }, [createForm(types)]),
  );
}
