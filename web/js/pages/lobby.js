// @ts-check
// The lobby, phone first: "Your turn" and "My games" (panels/my_games.js), "Play now" (join the
// oldest open game of a type, else open one that bots fill after a wait the person chose), the
// open games; creating a game with every option (each explained) is a step of its own (#/new);
// joining by an invite link. Seats and the start button live on the game page (game.js).

import { api, ApiError, messageOf } from "../core/api.js";
import { h, clear } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { fillBotLevels, gameTypeDetail, seatName } from "../core/catalog.js";
import { clockFieldset, readClock } from "../panels/clock_options.js";
import { lastGameType, playerName, playerToken, rememberGameType, rememberName, rememberTokens } from "../core/store.js";
import { playerFor } from "../core/identity.js";
import { myGamesCards } from "../panels/my_games.js";
import { learnCard } from "../panels/tutorial.js";

/** @typedef {import("../core/types.js").GameType} GameType */
/** @typedef {{ [name: string]: import("../core/types.js").Scalar }} Options a game type's options as sent at creation */

/**
 * @param {string} id
 */
export function nameField(id) {
  const input = h("input", { id, name: "player-name", required: true, maxlength: 64, autocomplete: "nickname", value: playerName() });
  return h("p", {}, [h("label", { for: id }, [t("lobby.your_name")]), " ", input]);
}

/**
 * The name typed into a form's name field (nameField).
 * @param {HTMLFormElement} form
 */
export function typedName(form) {
  const input = form.elements.namedItem("player-name");
  return input instanceof HTMLInputElement ? input.value.trim() : "";
}

/**
 * @param {import("../core/types.js").GameOption} option
 */
export function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.type === "bool") {
    input = h("input", { type: "checkbox", id, name: option.name });
    input.checked = Boolean(option.default);
  } else if (option.allowed) {
    const labels = option.allowed_labels || [];
    input = h("select", { id, name: option.name }, option.allowed.map((value, index) =>
      h("option", { value: JSON.stringify(value), selected: value === option.default }, [labels[index] ?? String(value)])));
  } else {
    input = h("input", { type: option.type === "int" ? "number" : "text", id, name: option.name, value: option.default });
  }
  const badge = option.verified === false ? h("span", { class: "badge", title: t("lobby.reconstructed_help") }, [t("lobby.reconstructed")]) : null;
  return h("div", { class: "option" }, [
    h("label", { for: id }, [option.label || option.name, " ", input, " ", badge]),
    h("p", { class: "help", id: `${id}-help` }, [option.description]),
  ]);
}

/**
 * @param {HTMLFormElement} form
 * @param {GameType} type
 */
export function readOptions(form, type) {
  /** @type {Options} */
  const options = {};
  for (const option of type.options) {
    const input = form.querySelector(`#opt-${option.name}`); // not form.elements[name]: an option may be called "length"
    if (!(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) continue;
    if (option.type === "bool") options[option.name] = input instanceof HTMLInputElement && input.checked;
    else if (option.allowed) options[option.name] = JSON.parse(input.value);
    else options[option.name] = option.type === "int" ? Number(input.value) : input.value;
  }
  return options;
}

/**
 * @param {GameType} type
 * @param {Options} options
 */
function maxPlayers(type, options) {
  let max = type.max_players;
  for (const limit of type.player_limits || []) {
    if (options[limit.option] === limit.value) max = Math.min(max, limit.max_players);
  }
  return max;
}

/**
 * @param {GameType[]} types
 */
function createForm(types, slug = "") {
  const first = types.find((type) => type.slug === slug) ?? types.find((type) => type.slug === lastGameType()) ?? types[0];
  const typeSelect = h("select", { id: "game-type", name: "type" },
    types.map((type) => h("option", { value: type.slug, selected: type === first }, [type.name])));
  const description = h("p", { class: "help" });
  const optionsBox = h("fieldset", { class: "options" });
  const bots = h("input", { type: "number", id: "bots", name: "bots", min: 0, value: 1 });
  const level = h("select", { id: "bot-level", name: "level" });
  const error = h("p", { class: "error", role: "alert" });
  const privateBox = h("input", { type: "checkbox", id: "private", name: "private" });
  const takebacks = h("select", { id: "takebacks", name: "takebacks" }, [
    h("option", { value: "" }, [t("lobby.takebacks_default")]),
    h("option", { value: "on" }, [t("lobby.takebacks_on")]),
    h("option", { value: "off" }, [t("lobby.takebacks_off")]),
  ]);
  const form = h("form", { id: "create-form", class: "card" }, [
    h("h2", {}, [t("lobby.create")]),
    h("p", {}, [h("label", { for: "game-type" }, [t("lobby.game")]), " ", typeSelect]),
    description,
    optionsBox,
    clockFieldset(),
    nameField("create-name"),
    h("p", {}, [h("label", { for: "bots" }, [t("lobby.bots")]), " ", bots, " ",
      h("label", { for: "bot-level" }, [t("lobby.bot_level")]), " ", level]),
    h("p", { class: "help" }, [t("lobby.bots_help")]),
    h("p", {}, [h("label", { for: "private" }, [privateBox, " ", t("lobby.private")])]),
    h("p", { class: "help" }, [t("lobby.private_help")]),
    h("p", {}, [h("label", { for: "takebacks" }, [t("lobby.takebacks")]), " ", takebacks]),
    h("button", { type: "submit", class: "primary" }, [t("lobby.create_button")]),
    error,
  ]);
  const selected = () => types.find((type) => type.slug === typeSelect.value) ?? types[0];
  function showType() {
    const type = selected();
    description.textContent = `${type.description} (${t("lobby.players", { min: type.min_players, max: type.max_players })})`;
    clear(optionsBox).append(h("legend", {}, [t("lobby.options")]), ...type.options.map(optionInput));
    bots.max = String(type.max_players - 1);
    levelsReady = fillBotLevels(level, type.slug);
  }
  let levelsReady = Promise.resolve();
  typeSelect.addEventListener("change", showType);
  showType();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const type = selected();
    const name = typedName(form);
    const options = readOptions(form, type);
    const botCount = Number(bots.value);
    await levelsReady;
    if (botCount + 1 > maxPlayers(type, options)) {
      error.textContent = t("lobby.too_many", { max: maxPlayers(type, options) });
      return;
    }
    try {
      rememberName(name);
      rememberGameType(type.slug);
      // Created under this browser's player identity: the lobby lists only games a player created.
      const player = await playerFor(name);
      const undo = takebacks.value ? takebacks.value === "on" : undefined;
      const created = await api.createGame(type.slug, options, privateBox.checked, readClock(form), player, undo);
      rememberTokens(created.id, { host: created.host_token, invite: created.invite_code || null });
      // The creator's seat is tied to the same identity ("my games" on any device).
      const seat = await api.join(created.id, created.invite_code ? { name, invite_code: created.invite_code } : { name }, player);
      rememberTokens(created.id, { seat: seat.token, seatIndex: seat.seat });
      for (let i = 0; i < botCount; i++) await api.join(created.id, { bot: level.value }, created.host_token);
      location.hash = `#/game/${created.id}`;
    } catch (failure) {
      error.textContent = messageOf(failure);
    }
  });
  return form;
}

/**
 * @param {number} seconds
 */
function ageText(seconds) {
  if (seconds < 60) return t("lobby.age_now");
  if (seconds < 3600) return t("lobby.age_minutes", { minutes: Math.floor(seconds / 60) });
  return t("lobby.age_hours", { hours: Math.floor(seconds / 3600) });
}

/**
 * @param {import("../core/types.js").GameSummary["clock"]} clock
 */
export function clockText(clock) {
  if (clock.mode === "per_decision") return t("lobby.clock_per_decision", { seconds: clock.seconds });
  if (clock.mode === "fischer") return t("lobby.clock_fischer", { seconds: clock.seconds, increment: clock.increment });
  return t("lobby.clock_none");
}

/**
 * @param {import("../core/types.js").GameSummary["creator"]} creator
 */
function creatorText(creator) {
  if (!creator) return "";
  const rate = creator.finishing_rate === null ? t("lobby.finishing_new") : t("lobby.finishing", { rate: Math.round(creator.finishing_rate * 100) });
  return `${t("lobby.created_by", { name: creator.name })} (${rate})`;
}

/**
 * @param {import("../core/types.js").GameSummary} game
 */
function ratedText(game) {
  if (game.rated) return t("lobby.rated");
  return t("lobby.unrated", { reasons: game.unrated_reasons.map((reason) => reason.text).join(", ") });
}

/**
 * One open game: type, creator and their finishing rate, age, seats, clock, rated or why not.
 * @param {import("../core/types.js").GameSummary} game
 * @param {{ [slug: string]: string }} names
 * @param {import("../core/types.js").BotLevel[]} levels
 */
function openGameItem(game, names, levels) {
  const seated = game.seats.map((seat) => seatName(seat, levels)).join(", ");
  return h("li", { dataset: { game: game.id } }, [
    h("strong", {}, [names[game.type] || game.type]), " ",
    h("span", { class: "creator" }, [creatorText(game.creator)]), " · ",
    h("span", { class: "age" }, [ageText(game.age_seconds)]), " · ",
    `${t("lobby.seated", { count: game.players })} (${game.players}/${game.max_players}${seated ? `: ${seated}` : ""})`, " · ",
    h("span", { class: "clock" }, [clockText(game.clock)]), " · ",
    h("span", { class: game.rated ? "rated" : "unrated" }, [ratedText(game)]), " ",
    h("a", { href: `#/join/${game.id}`, class: "button" }, [t("lobby.join")]),
    " ",
    h("a", { href: `#/game/${game.id}` }, [t("lobby.watch")]),
  ]);
}

/**
 * @param {GameType[]} types
 * @param {(filters: { [name: string]: string | number | undefined }) => void} apply
 */
function filterForm(types, apply) {
  const type = h("select", { id: "filter-type", name: "type" }, [
    h("option", { value: "" }, [t("lobby.filter_any")]),
    ...types.map((entry) => h("option", { value: entry.slug }, [entry.name])),
  ]);
  const seats = h("input", { type: "number", id: "filter-seats", name: "open_seats", min: 1, max: 64, value: 1 });
  const clock = h("select", { id: "filter-clock", name: "clock" }, [
    h("option", { value: "" }, [t("lobby.filter_any")]),
    ...["none", "per_decision", "fischer"].map((mode) =>
      h("option", { value: mode }, [t(`clock.mode_${mode}`)])),
  ]);
  const form = h("form", { id: "lobby-filters", class: "filters" }, [
    h("label", { for: "filter-type" }, [t("lobby.game")]), " ", type, " ",
    h("label", { for: "filter-seats" }, [t("lobby.filter_seats")]), " ", seats, " ",
    h("label", { for: "filter-clock" }, [t("lobby.filter_clock")]), " ", clock, " ",
    h("button", { type: "submit" }, [t("lobby.filter_button")]),
  ]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    apply({ type: type.value || undefined, open_seats: Number(seats.value) || undefined, clock: clock.value || undefined });
  });
  return form;
}

/**
 * @param {GameType[]} types
 */
async function openGames(types) {
  const names = Object.fromEntries(types.map((type) => [type.slug, type.name]));
  const levels = (types.length ? (await gameTypeDetail(types[0].slug))?.bot_levels : null) ?? []; // the same for every game
  const list = h("ul", { class: "games", id: "open-games" });
  const error = h("p", { class: "error", role: "alert" });
  /**
   * @param {{ [name: string]: string | number | undefined }} filters
   */
  async function show(filters) {
    error.textContent = "";
    try {
      const page = await api.listGames({ joinable: true, limit: 20, ...filters });
      clear(list);
      if (!page.items.length) list.append(h("li", {}, [t("lobby.no_open_games")]));
      for (const game of page.items) list.append(openGameItem(game, names, levels));
    } catch (failure) {
      error.textContent = messageOf(failure);
    }
    list.dataset.loaded = "true";
  }
  await show({});
  return h("section", { class: "card" }, [h("h2", {}, [t("lobby.open_games")]), filterForm(types, show), error, list]);
}

/** The waits a person can choose before bots take the free seats of a game opened by "Play now". */
const FILL_WAITS = [0, 30, 60, 120, 300];

/**
 * @param {number} seconds
 */
function waitText(seconds) {
  if (seconds === 0) return t("play_now.wait_none");
  if (seconds < 60) return t("play_now.wait_seconds", { seconds });
  return t("play_now.wait_minutes", { minutes: seconds / 60 });
}

/**
 * "Play now": take a seat in the oldest open listed game of the type (not one of mine), else open a
 * listed game with the type's defaults that bots fill after the wait chosen (game.js does, while
 * the host's page is open), and go to it.
 * @param {GameType} type
 * @param {string} name
 * @param {number} waitSeconds
 */
async function playNow(type, name, waitSeconds) {
  rememberName(name);
  rememberGameType(type.slug);
  const player = await playerFor(name);
  const mine = new Set((await api.myGames(player)).map((game) => game.game_id));
  const open = (await api.listGames({ type: type.slug, joinable: true, limit: 50 })).items
    .filter((game) => !mine.has(game.id))
    .sort((a, b) => b.age_seconds - a.age_seconds);
  for (const game of open) {
    try {
      const seat = await api.join(game.id, { name }, player);
      rememberTokens(game.id, { seat: seat.token, seatIndex: seat.seat });
      location.hash = `#/game/${game.id}`;
      return;
    } catch (failure) {
      if (!(failure instanceof ApiError) || failure.status >= 500) throw failure; // taken meanwhile: the next one
    }
  }
  const created = await api.createGame(type.slug, {}, false, undefined, player);
  rememberTokens(created.id, { host: created.host_token, fillAt: Date.now() + waitSeconds * 1000, fillTo: type.min_players });
  const seat = await api.join(created.id, { name }, player);
  rememberTokens(created.id, { seat: seat.token, seatIndex: seat.seat });
  location.hash = `#/game/${created.id}`;
}

/**
 * The "Play now" card: a game (the last one played first), how long to wait for people, a name.
 * @param {GameType[]} types
 */
function playNowCard(types) {
  const first = types.find((type) => type.slug === lastGameType()) ?? types[0];
  const typeSelect = h("select", { id: "play-now-type" }, types.map((type) =>
    h("option", { value: type.slug, selected: type === first }, [type.name])));
  const wait = h("select", { id: "play-now-wait" }, FILL_WAITS.map((seconds) =>
    h("option", { value: seconds, selected: seconds === 60 }, [waitText(seconds)])));
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { id: "play-now", class: "card" }, [
    h("h2", {}, [t("play_now.title")]),
    h("p", { class: "field" }, [h("label", { for: "play-now-type" }, [t("lobby.game")]), typeSelect]),
    h("p", { class: "field" }, [h("label", { for: "play-now-wait" }, [t("play_now.wait")]), wait]),
    h("p", { class: "help", id: "play-now-help" }, [t("play_now.help")]),
    playerToken() ? null : nameField("play-now-name"),
    h("p", { class: "step" }, [
      h("button", { type: "submit", class: "primary", "aria-describedby": "play-now-help" }, [t("play_now.button")]),
      h("a", { href: `#/new/${first.slug}`, id: "new-game-link", class: "button" }, [t("play_now.with_options")]),
    ]),
    error,
  ]);
  const link = form.querySelector("#new-game-link");
  typeSelect.addEventListener("change", () => link?.setAttribute("href", `#/new/${typeSelect.value}`));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const type = types.find((entry) => entry.slug === typeSelect.value) ?? first;
    const name = typedName(form) || playerName() || t("play_now.default_name");
    try {
      await playNow(type, name, Number(wait.value));
    } catch (failure) {
      error.textContent = messageOf(failure);
    }
  });
  return form;
}

/**
 * @param {HTMLElement} main
 */
export async function showLobby(main) {
  document.title = t("app.title");
  const types = await api.gameTypes();
  const { yourTurn, mine } = await myGamesCards(types);
  main.append(
    h("h1", {}, [t("lobby.title")]),
    h("div", { class: "lobby" }, [
      h("div", {}, [yourTurn, playNowCard(types)]),
      h("div", {}, [mine, learnCard(types), await openGames(types)]),
    ]),
    h("p", { class: "help" }, [t("lobby.intro")]),
  );
}

/**
 * #/new[/<slug>]: a new game with every option, a step of its own.
 * @param {HTMLElement} main
 * @param {string} [slug]
 */
export async function showCreate(main, slug) {
  document.title = `${t("lobby.create")} · ${t("app.title")}`;
  const types = await api.gameTypes();
  main.append(
    h("p", {}, [h("a", { href: "#/", class: "button back" }, [t("lobby.back")])]),
    h("div", { class: "create-step" }, [createForm(types, slug)]),
  );
}

/**
 * An invite link (#/join/<id>): ask for a name, take the next free seat, go to the game.
 * @param {HTMLElement} main
 * @param {string} gameId
 * @param {string} [inviteCode]
 */
export async function showJoin(main, gameId, inviteCode) {
  const game = await api.game(gameId);
  const types = await api.gameTypes();
  const type = types.find((candidate) => candidate.slug === game.type);
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { id: "join-form", class: "card" }, [
    h("h1", {}, [t("join.title", { game: type ? type.name : game.type })]),
    h("p", {}, [t("join.seated", { names: game.seats.map((seat) => seat.name).join(", ") || "—" })]),
    nameField("join-name"),
    h("button", { type: "submit", class: "primary" }, [t("join.button")]),
    error,
  ]);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = typedName(form);
    try {
      rememberName(name);
      const seat = await api.join(gameId, inviteCode ? { name, invite_code: inviteCode } : { name }, await playerFor(name));
      rememberTokens(gameId, { seat: seat.token, seatIndex: seat.seat });
      location.hash = `#/game/${gameId}`;
    } catch (failure) {
      error.textContent = messageOf(failure);
    }
  });
  main.append(form);
}
