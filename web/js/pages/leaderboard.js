// @ts-check
// The leaderboard page (#/leaderboard/<game type>): players and bot levels, established ones first,
// then by display rating, best first, each player's finishing rate beside, one cursor page at a time, with a "minimum games" filter. Everything comes from
// GET /v1/leaderboards/{game_type}.

import { api, messageOf } from "../core/api.js";
import { h, clear, stacked } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { ratingText } from "../panels/ratings.js";

const PAGE = 25;

/**
 * A leaderboard line's name: a link to a player's profile; a bot level's translated name.
 * @param {import("../core/types.js").Standing} entry
 */
export function subjectName(entry) {
  if (entry.kind === "bot") return t("ratings.bot_level", { level: entry.subject.replace(/^bot:/, "") });
  return h("a", { href: `#/player/${encodeURIComponent(entry.subject)}` }, [entry.name]);
}

/**
 * A player who has not yet played established opponents enough is ranked below everyone who has:
 * the line says so (bot levels are always established).
 * @param {import("../core/types.js").Standing} entry
 */
function newcomerMark(entry) {
  if (entry.established !== false) return [];
  return [" ", h("small", { class: "newcomer", title: t("ratings.newcomer_help") }, [t("ratings.newcomer")])];
}

/**
 * A player's finishing rate (games played to the end), its counts in the title; a bot level has none.
 * @param {import("../core/types.js").Standing} entry
 */
function finishingCell(entry) {
  const finishing = entry.finishing;
  if (!finishing) return h("td", { class: "finishing" }, ["–"]);
  if (finishing.rate === null) return h("td", { class: "finishing" }, [t("ratings.finishing_none")]);
  const percent = Math.round(finishing.rate * 100);
  return h("td", { class: "finishing", title: t("ratings.finishing", { percent, finished: finishing.finished, resigned: finishing.resigned, timed_out: finishing.timed_out }) },
    [t("ratings.finishing_rate", { percent })]);
}

/**
 * @param {HTMLElement} main
 * @param {string | undefined} gameType
 */
export async function showLeaderboard(main, gameType) {
  const types = await api.gameTypes();
  const slug = types.some((type) => type.slug === gameType) ? gameType : types[0]?.slug;
  const select = h("select", { id: "leaderboard-type" },
    types.map((type) => h("option", { value: type.slug, selected: type.slug === slug }, [type.name])));
  const minGames = h("input", { id: "leaderboard-min", type: "number", min: 0, max: 1000, value: 0, inputmode: "numeric" });
  const body = h("tbody");
  const status = h("p", { id: "leaderboard-status", role: "status" });
  const more = h("button", { type: "button", id: "leaderboard-more", hidden: true }, [t("ratings.more")]);
  const table = h("table", { id: "leaderboard", class: "scores" }, [
    h("caption", { class: "sr" }, [t("ratings.leaderboard")]),
    h("thead", {}, [h("tr", {}, ["ratings.rank", "ratings.name", "ratings.rating", "ratings.games", "ratings.finishing_col"]
      .map((key) => h("th", { scope: "col" }, [t(key)])))]),
    body,
  ]);
  main.append(
    h("h1", {}, [t("ratings.leaderboard")]),
    h("p", {}, [t("ratings.leaderboard_intro")]),
    h("form", { class: "filters", onsubmit: (/** @type {SubmitEvent} */ event) => { event.preventDefault(); load(null); } }, [
      h("label", { for: "leaderboard-type" }, [t("lobby.game")]), " ", select, " ",
      h("label", { for: "leaderboard-min" }, [t("ratings.min_games")]), " ", minGames, " ",
      h("button", { type: "submit" }, [t("ratings.show")]),
    ]),
    status, table, h("p", {}, [more]),
  );
  select.addEventListener("change", () => { location.hash = `#/leaderboard/${select.value}`; });

  /** @type {string | null} */
  let cursor = null;
  /**
   * @param {string | null} after
   */
  async function load(after) {
    if (!after) clear(body);
    status.textContent = "";
    try {
      const page = await api.leaderboard(select.value, { min_games: minGames.value || 0, limit: PAGE, cursor: after });
      for (const entry of page.entries) {
        body.append(h("tr", { dataset: { subject: entry.subject } }, [
          h("td", {}, [String(entry.rank)]),
          h("th", { scope: "row" }, [subjectName(entry), ...newcomerMark(entry)]),
          h("td", { title: t("ratings.mu_sigma", { mu: entry.mu.toFixed(2), sigma: entry.sigma.toFixed(2) }) }, [ratingText(entry)]),
          h("td", {}, [String(entry.games)]),
          finishingCell(entry),
        ]));
      }
      stacked(table);
      cursor = page.next_cursor;
      more.hidden = !cursor;
      if (!body.children.length) status.textContent = t("ratings.nobody_yet");
    } catch (failure) {
      status.textContent = messageOf(failure);
    }
  }
  more.addEventListener("click", () => load(cursor));
  await load(null);
}
