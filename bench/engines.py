"""Engine-only random play: whole games/s and decisions/s per game and player count, single core.

``python bench/engines.py [--only SLUG] [--players P] [--games N] [--runs R] [--seconds S] [--json]``
``python bench/engines.py --only SLUG --players P --profile GAMES`` (cProfile hot spots instead)

Rates are per second of CPU time of this process (``time.process_time``): the engines are
single-threaded, so this is the rate on one otherwise idle core, and it stays meaningful on a
machine shared with other work; the wall-clock games/s is printed beside it.
Each (game, player count) is played in ``R`` runs of ``N`` whole games (``N`` sized so that one
run takes about ``S`` seconds, unless given); the median run is reported. Every seat picks
uniformly among its legal choices; no bots, no views, no serialisation, no database. For
Carcassonne, tile placements/s counts land-tile placements (decision kind ``place_tile``) plus
abbey placements (an ``abbey`` choice in ``abbey_or_draw``/``end_abbey``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import domain.games  # noqa: E402
from domain.engine import JSON, Choice, GameEngine  # noqa: E402
from domain.manifest import HostedGame  # noqa: E402
from domain.model.seeding import rng_for_seed  # noqa: E402
from domain.registry import EngineRegistry, default_registry  # noqa: E402

FORCED_OPTIONS: dict[str, dict[str, JSON]] = {"carcassonne": {"abbey_and_mayor": True}}
"""Options the targets are stated for (Carcassonne: with the Abbey & Mayor expansion)."""

PLACEMENT_KINDS = frozenset({"place_tile"})
ABBEY_KINDS = frozenset({"abbey_or_draw", "end_abbey"})


@dataclass(frozen=True, slots=True)
class Target:
    slug: str
    players: int | None  # None: every player count
    metric: str  # "games_per_s" or "placements_per_s"
    minimum: float
    label: str


TARGETS = (
    Target("im-schutze-der-burg", 4, "games_per_s", 300, ">= 300 games/s (4p)"),
    Target("keythedral", 4, "games_per_s", 50, ">= 50 games/s (4p)"),
    Target("carcassonne", None, "placements_per_s", 5_000, ">= 5,000 placements/s"),
)


@dataclass(frozen=True, slots=True)
class Run:
    games: int
    seconds: float
    cpu_seconds: float
    decisions: int
    placements: int


@dataclass(slots=True)
class Row:
    slug: str
    players: int
    options: dict[str, JSON]
    games_per_run: int
    runs: int
    wall_games_per_s: float = 0.0
    games_per_s: float = 0.0
    decisions_per_s: float = 0.0
    placements_per_s: float | None = None
    decisions_per_game: float = 0.0
    target: str | None = None
    verdict: str | None = None  # "PASS" / "MISS"
    error: str | None = None


def play_random_game(
    engine: GameEngine[Any], players: int, options: Mapping[str, JSON], seed: str
) -> tuple[int, int]:
    """One whole random game; returns (decisions, tile placements)."""
    state, _ = engine.setup(players, options, rng_for_seed(seed))
    chooser = random.Random(seed)
    pick = chooser.choice
    decide, legal, apply = engine.decision, engine.legal_choices, engine.apply
    decisions = placements = 0
    while (decision := decide(state)) is not None:
        choices: dict[int, Choice] = {}
        for seat in decision.seats:
            options_of_seat = legal(state, seat)
            if not options_of_seat:
                raise RuntimeError(f"seat {seat} asked ({decision.kind}) with no legal choice")
            choices[seat] = pick(options_of_seat)
        kind = decision.kind
        if kind in PLACEMENT_KINDS or (
            kind in ABBEY_KINDS and any(c.get("action") == "abbey" for c in choices.values())
        ):
            placements += 1
        apply(state, choices)
        decisions += 1
        if decisions > 100_000:
            raise RuntimeError("no end after 100,000 decisions")
    return decisions, placements


def timed_run(
    engine: GameEngine[Any], players: int, options: Mapping[str, JSON], games: int, tag: str
) -> Run:
    decisions = placements = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for k in range(games):
        d, p = play_random_game(engine, players, options, f"bench-{tag}-{k}")
        decisions += d
        placements += p
    return Run(games, time.perf_counter() - started, time.process_time() - cpu_started, decisions, placements)


def size_run(engine: GameEngine[Any], players: int, options: Mapping[str, JSON], seconds: float) -> int:
    """Games per run so that a run takes about ``seconds`` (measured on a short warm-up)."""
    played, started = 0, time.process_time()
    while (elapsed := time.process_time() - started) < min(0.3, seconds / 4) or played < 2:
        play_random_game(engine, players, options, f"bench-warmup-{played}")
        played += 1
    return max(1, round(seconds * played / elapsed))


def bench_row(engine: GameEngine[Any], players: int, games: int | None, runs: int, seconds: float) -> Row:
    slug = engine.meta.slug
    options = engine.meta.resolve_options(FORCED_OPTIONS.get(slug))
    row = Row(slug, players, options, games or 0, runs)
    try:
        row.games_per_run = games or size_run(engine, players, options, seconds)
        results = [
            timed_run(engine, players, options, row.games_per_run, f"{players}p-r{r}") for r in range(runs)
        ]
    except Exception as exc:
        row.error = f"{type(exc).__name__}: {exc}"
        return row
    row.wall_games_per_s = statistics.median(r.games / r.seconds for r in results)
    row.games_per_s = statistics.median(r.games / r.cpu_seconds for r in results)
    row.decisions_per_s = statistics.median(r.decisions / r.cpu_seconds for r in results)
    row.decisions_per_game = sum(r.decisions for r in results) / sum(r.games for r in results)
    if slug == "carcassonne":
        row.placements_per_s = statistics.median(r.placements / r.cpu_seconds for r in results)
    for target in TARGETS:
        if target.slug == slug and target.players in (None, players):
            value = getattr(row, target.metric)
            row.target = target.label
            row.verdict = "PASS" if value is not None and value >= target.minimum else "MISS"
    return row


def profile_row(engine: GameEngine[Any], players: int, games: int, top: int = 25) -> str:
    """The functions with the most own time over ``games`` random games, as cProfile reports them."""
    import cProfile
    import io
    import pstats

    options = engine.meta.resolve_options(FORCED_OPTIONS.get(engine.meta.slug))
    profiler = cProfile.Profile()
    profiler.enable()
    timed_run(engine, players, options, games, f"{players}p-profile")
    profiler.disable()
    out = io.StringIO()
    out.write(f"== {engine.meta.slug} {players}p, {games} games under cProfile\n")
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def engines_to_bench(registry: EngineRegistry, discover: bool) -> list[GameEngine[Any]]:
    engines = {engine.meta.slug: engine for engine in registry}
    if discover:
        for package in pkgutil.iter_modules(domain.games.__path__, "domain.games."):
            try:
                module = importlib.import_module(package.name)
            except Exception as exc:
                print(f"note: {package.name} does not import: {exc}", file=sys.stderr)
                continue
            game = vars(module).get("GAME")
            if isinstance(game, HostedGame):
                engines.setdefault(game.slug, game.engine)
    return [engines[slug] for slug in sorted(engines)]


def format_table(rows: Sequence[Row]) -> str:
    header = (
        f"{'game':<22}{'players':>7}{'games/run':>10}{'games/s':>10}{'decisions/s':>13}"
        f"{'placements/s':>14}{'dec/game':>10}{'wall games/s':>14}  target"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        if row.error:
            lines.append(f"{row.slug:<22}{row.players:>7}  ERROR {row.error}")
            continue
        placements = "" if row.placements_per_s is None else f"{row.placements_per_s:,.0f}"
        target = f"{row.verdict} {row.target}" if row.target else ""
        lines.append(
            f"{row.slug:<22}{row.players:>7}{row.games_per_run:>10}{row.games_per_s:>10,.1f}"
            f"{row.decisions_per_s:>13,.0f}{placements:>14}{row.decisions_per_game:>10.1f}"
            f"{row.wall_games_per_s:>14,.1f}  {target}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", action="append", metavar="SLUG", help="bench only this game (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only this player count (repeatable)")
    parser.add_argument("--games", type=int, help="games per run (default: sized to --seconds)")
    parser.add_argument("--runs", type=int, default=5, help="runs per row, median reported (default 5)")
    parser.add_argument("--seconds", type=float, default=1.5, help="target seconds per run (default 1.5)")
    parser.add_argument(
        "--discover",
        action="store_true",
        help="also bench engines under domain/games that are not registered yet",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument(
        "--profile",
        type=int,
        metavar="GAMES",
        help="instead of timing, play GAMES games of each row under cProfile and print the hot spots",
    )
    args = parser.parse_args(argv)
    if args.runs < 1 or (args.games is not None and args.games < 1):
        parser.error("--runs and --games must be at least 1")

    engines = engines_to_bench(default_registry(), args.discover)
    if args.only:
        known = {engine.meta.slug for engine in engines}
        unknown = sorted(set(args.only) - known)
        if unknown:
            print(
                f"error: unknown game(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}",
                file=sys.stderr,
            )
            return 2
        engines = [engine for engine in engines if engine.meta.slug in args.only]
    if not engines:
        print("error: no game registered (try --discover)", file=sys.stderr)
        return 2

    rows: list[Row] = []
    progress: Callable[[str], None] = (
        (lambda _: None) if args.json else (lambda text: print(text, file=sys.stderr, flush=True))
    )
    for engine in engines:
        meta = engine.meta
        options = meta.resolve_options(FORCED_OPTIONS.get(meta.slug))
        for players in range(meta.min_players, meta.max_players_for(options) + 1):
            if args.players and players not in args.players:
                continue
            progress(f"… {meta.slug} {players}p")
            if args.profile:
                print(profile_row(engine, players, args.profile))
                continue
            rows.append(bench_row(engine, players, args.games, args.runs, args.seconds))

    if args.profile:
        return 0
    if args.json:
        print(
            json.dumps(
                {
                    "python": platform.python_version(),
                    "machine": platform.machine(),
                    "load_average": os.getloadavg(),
                    "rows": [asdict(row) for row in rows],
                },
                indent=2,
            )
        )
    else:
        print(format_table(rows))
        print(
            "Rates are per second of this process's CPU time (time.process_time), median of the runs;"
            "\n'wall games/s' is per wall-clock second and drops when other processes share the cores."
        )
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average now {load}")
    return 1 if any(row.error for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
