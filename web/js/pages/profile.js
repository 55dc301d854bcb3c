// @ts-check
// A player's profile page (#/player/<id>): ratings per game type, a rating-history chart drawn here
// in SVG, the finishing rate and the recent games with links to their replays. Everything comes
// from GET /v1/players/{id}/profile.

import { api, messageOf } from "../core/api.js";
import { h, s, stacked, SEAT_COLOURS, SEAT_MARKS } from "../core/dom.js";
import { t } from "../core/i18n.js";
import { ratingText } from "../panels/ratings.js";

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { left: 48, right: 16, top: 16, bottom: 32 };

/**
 * @param {import("../core/types.js").GameType[]} types
 * @param {string} slug
 */
function typeName(types, slug) {
  return types.find((type) => type.slug === slug)?.name || slug;
}

/** The rating after each rated game, one line per game type, oldest game on the left. Colour is
 * never the only cue: each line's points carry its letter, and the legend names it.
 * @param {import("../core/types.js").RatingChange[]} history
 * @param {import("../core/types.js").GameType[]} types
 */
export function historyChart(history, types) {
  const games = [...history].reverse();
  const slugs = [...new Set(games.map((change) => change.game_type))];
  const values = games.flatMap((change) => [change.rating_before, change.rating]);
  let low = Math.floor(Math.min(...values, 0));
  let high = Math.ceil(Math.max(...values, 1));
  if (high - low < 2) { low -= 1; high += 1; }
  const x = (/** @type {number} */ index) => PAD.left + (games.length < 2 ? 0.5 : index / (games.length - 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (/** @type {number} */ value) => PAD.top + (1 - (value - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const summary = slugs.map((slug) => {
    const last = games.filter((change) => change.game_type === slug).at(-1);
    return t("ratings.chart_line", { game: typeName(types, slug), rating: last?.rating.toFixed(1) ?? "" });
  }).join("; ");
  const svg = s("svg", { id: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": `${t("ratings.history")}: ${summary}`, class: "rating-chart" }, [
    s("title", {}, [t("ratings.history")]),
  ]);
  const ticks = [low, (low + high) / 2, high];
  for (const tick of ticks) {
    svg.append(
      s("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(tick), y2: y(tick), class: "grid" }),
      s("text", { x: PAD.left - 6, y: y(tick) + 4, "text-anchor": "end", class: "axis" }, [tick.toFixed(1)]),
    );
  }
  svg.append(
    s("text", { x: PAD.left, y: HEIGHT - 8, class: "axis" }, [t("ratings.chart_first")]),
    s("text", { x: WIDTH - PAD.right, y: HEIGHT - 8, "text-anchor": "end", class: "axis" }, [t("ratings.chart_last")]),
  );
  slugs.forEach((slug, line) => {
    const colour = SEAT_COLOURS[line % 6];
    const points = games.map((change, index) => ({ change, index })).filter(({ change }) => change.game_type === slug);
    const path = points.map(({ change, index }) => `${x(index).toFixed(1)},${y(change.rating).toFixed(1)}`).join(" ");
    svg.append(s("polyline", { points: path, fill: "none", stroke: colour, "stroke-width": 2, class: "series", "data-game-type": slug }));
    for (const { change, index } of points) {
      svg.append(s("g", { class: "point" }, [
        s("circle", { cx: x(index), cy: y(change.rating), r: 9, fill: colour }),
        s("text", { x: x(index), y: y(change.rating) + 4, "text-anchor": "middle", class: "mark" }, [SEAT_MARKS[line % 6]]),
        s("title", {}, [t("ratings.chart_point", { game: typeName(types, slug), rating: change.rating.toFixed(1), rank: change.rank, at: new Date(change.at).toLocaleDateString() })]),
      ]));
    }
  });
  const legend = h("ul", { class: "legend" }, slugs.map((slug, line) => h("li", {}, [
    h("span", { class: "seat", style: `--seat:${SEAT_COLOURS[line % 6]}` }, [h("span", { class: "mark", "aria-hidden": "true" }, [SEAT_MARKS[line % 6]]), " ", typeName(types, slug)]),
  ])));
  return h("figure", { class: "chart" }, [svg, h("figcaption", {}, [legend])]);
}

/**
 * @param {import("../core/types.js").Finishing} finishing
 */
function finishingText(finishing) {
  if (finishing.rate === null) return t("ratings.finishing_none");
  return t("ratings.finishing", {
    percent: Math.round(finishing.rate * 100), finished: finishing.finished,
    resigned: finishing.resigned, timed_out: finishing.timed_out,
  });
}

/**
 * @param {HTMLElement} main
 * @param {string} playerId
 */
export async function showProfile(main, playerId) {
  let profile;
  try {
    profile = await api.profile(playerId);
  } catch (failure) {
    main.append(h("h1", {}, [t("ratings.profile")]), h("p", { class: "error", role: "alert" }, [messageOf(failure)]));
    return;
  }
  const types = await api.gameTypes();
  main.append(
    h("h1", { id: "profile-name" }, [profile.name]),
    h("p", { id: "finishing" }, [finishingText(profile.finishing)]),
    h("p", {}, [h("a", { href: `#/leaderboard/${profile.ratings[0]?.game_type || ""}` }, [t("ratings.leaderboard")])]),
  );
  const ratings = h("table", { id: "profile-ratings", class: "scores" }, [
    h("caption", {}, [t("ratings.ratings")]),
    h("thead", {}, [h("tr", {}, ["lobby.game", "ratings.rating", "ratings.games"].map((key) => h("th", { scope: "col" }, [t(key)])))]),
    h("tbody", {}, profile.ratings.map((rating) => h("tr", { dataset: { gameType: rating.game_type } }, [
      h("th", { scope: "row" }, [h("a", { href: `#/leaderboard/${rating.game_type}` }, [typeName(types, rating.game_type)])]),
      h("td", {}, [ratingText(rating)]),
      h("td", {}, [String(rating.games)]),
    ]))),
  ]);
  main.append(profile.ratings.length ? stacked(ratings) : h("p", {}, [t("ratings.no_rated_games")]));
  if (profile.history.length) {
    main.append(h("section", { class: "card" }, [h("h2", {}, [t("ratings.history")]), historyChart(profile.history, types)]));
  }
  const recent = h("table", { id: "recent-games", class: "scores" }, [
    h("caption", {}, [t("ratings.recent")]),
    h("thead", {}, [h("tr", {}, ["lobby.game", "ratings.place", "ratings.outcome", "ratings.rated", "ratings.replay"]
      .map((key) => h("th", { scope: "col" }, [t(key)])))]),
    h("tbody", {}, profile.recent_games.map((game) => h("tr", { dataset: { gameId: game.game_id } }, [
      h("th", { scope: "row" }, [typeName(types, game.game_type), " · ", new Date(game.at).toLocaleDateString()]),
      h("td", {}, [String(game.rank)]),
      h("td", {}, [t(`ratings.outcome_${game.outcome}`)]),
      h("td", {}, [t(game.rated ? "ratings.yes" : "ratings.no")]),
      h("td", {}, [h("a", { href: `#/replay/${game.game_id}/0` }, [t("ratings.replay")])]),
    ]))),
  ]);
  if (profile.recent_games.length) main.append(stacked(recent));
}
