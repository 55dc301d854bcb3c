"""``python -m api simulate``: play whole games with bots in-process and summarise them.

No HTTP and no database: the engine and the bot policies are called directly, so a run measures
the rules and the bots alone and shows any game that ends abnormally (an exception, a seat asked
with no legal choice, a game that never ends, a missing outcome, a broken invariant).
Game ``k`` of a run with seed ``S`` uses the game seed ``f"{S}-{k}"``; the bots draw from their own
generators seeded from the same string, so the same command line replays the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from domain.bots import BOT_LEVELS, choose, context_for
from domain.engine import JSON, Choice, GameEngine
from domain.errors import DomainError
from domain.manifest import HostedGame
from domain.model.seeding import rng_for_seed
from domain.registry import EngineRegistry, default_registry

DEFAULT_DECISION_CAP = 20_000
MAX_ABNORMAL_SHOWN = 20


class UsageError(Exception):
    """A bad command line: reported with exit code 2."""


@dataclass(frozen=True, slots=True)
class Abnormal:
    """Why game ``index`` (seed ``seed``) did not end normally, after ``decisions`` decisions."""

    index: int
    seed: str
    decisions: int
    reason: str
    stalled: bool = False
    """The game ended at its own safety cap (Keythedral's rounds, Q12): the rules have no end
    there, so it is reported but is no failure of the engine or the bots."""


@dataclass(frozen=True, slots=True)
class Largest:
    """The longest choice list a seat was offered (and its decision kind), and the largest view
    a deciding seat was sent, serialised as compact JSON (bytes of UTF-8)."""

    choices: int = 0
    choices_kind: str = ""
    view_bytes: int = 0

    def grown(self, choices: int, kind: str, view_bytes: int) -> Largest:
        bigger = choices > self.choices
        return Largest(
            choices if bigger else self.choices,
            kind if bigger else self.choices_kind,
            max(view_bytes, self.view_bytes),
        )


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    seed: str
    decisions: int
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()
    abnormal: Abnormal | None = None
    largest: Largest = Largest()


@dataclass(slots=True)
class Summary:
    """Everything the report prints, computed from the per-game results."""

    slug: str
    players: int
    bots: tuple[str, ...]
    options: dict[str, JSON]
    seed: str
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def finished(self) -> list[GameResult]:
        return [r for r in self.results if r.abnormal is None]

    @property
    def abnormal(self) -> list[Abnormal]:
        return [r.abnormal for r in self.results if r.abnormal is not None]

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.results)

    def seat_level(self, seat: int) -> str:
        return self.bots[seat % len(self.bots)]

    @property
    def largest(self) -> Largest:
        """The largest choice list and view over every game played (abnormal ones included)."""
        out = Largest()
        for result in self.results:
            out = out.grown(result.largest.choices, result.largest.choices_kind, result.largest.view_bytes)
        return out

    def win_credit(self) -> list[float]:
        """Wins per seat; a tie splits one win between the tied seats."""
        credit = [0.0] * self.players
        for result in self.finished:
            for seat in result.winners:
                credit[seat] += 1.0 / len(result.winners)
        return credit


def main(args: Sequence[str], registry: EngineRegistry | None = None) -> int:
    """Run the command; 0 if every game ended normally or stalled at its rules' safety cap, 1 if
    any failed otherwise, 2 on a usage error."""
    parser = _parser()
    try:
        options = parser.parse_args(list(args))
    except SystemExit as exc:  # argparse already printed why
        return int(exc.code) if isinstance(exc.code, int) else 2
    registry = registry if registry is not None else default_registry()
    try:
        game, players, resolved, bots = _resolve(options, registry)
    except (UsageError, DomainError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary = simulate(
        game,
        players,
        resolved,
        games=options.games,
        seed=options.seed,
        bots=bots,
        decision_cap=options.max_decisions,
        progress=not options.no_progress,
    )
    text = json.dumps(summary_json(summary), indent=2) if options.json else format_summary(summary)
    try:
        print(text, flush=True)
    except BrokenPipeError:  # e.g. piped into ``head``: not an error of the simulation
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if any(not a.stalled for a in summary.abnormal) else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m api simulate",
        description="Play whole games with bots in-process (no HTTP, no database) and summarise them.",
    )
    parser.add_argument("--game", required=True, help="game-type slug")
    parser.add_argument("--players", type=int, required=True, help="number of seats")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument(
        "--options",
        nargs="+",
        default=[],
        metavar="OPTION",
        help="a JSON object ('{\"rounds\": 3}') or name=value pairs (values parsed as JSON if possible)",
    )
    parser.add_argument("--seed", default="simulate", help="run seed; game k uses seed '<seed>-<k>'")
    parser.add_argument(
        "--bots",
        default="random",
        help=f"comma-separated bot levels ({', '.join(BOT_LEVELS)}); seat i uses level i mod count",
    )
    parser.add_argument(
        "--max-decisions",
        type=int,
        default=DEFAULT_DECISION_CAP,
        help=f"safety cap: a game still going after this many decisions is abnormal "
        f"(default {DEFAULT_DECISION_CAP})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    return parser


def parse_options(items: Sequence[str]) -> dict[str, JSON]:
    """Options from JSON objects and ``name=value`` items (a value that is not JSON is a string)."""
    options: dict[str, JSON] = {}
    for item in items:
        text = item.strip()
        if text.startswith("{"):
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError as exc:
                raise UsageError(f"--options: not a JSON object: {text!r} ({exc.msg})") from None
            if not isinstance(parsed, dict):
                raise UsageError(f"--options: not a JSON object: {text!r}")
            options.update(parsed)
            continue
        name, sep, raw = text.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--options: expected name=value or a JSON object, got {item!r}")
        try:
            value: JSON = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[name.strip()] = value
    return options


def _resolve(
    options: argparse.Namespace, registry: EngineRegistry
) -> tuple[HostedGame[Any], int, dict[str, JSON], tuple[str, ...]]:
    game = registry.game(options.game)
    meta = game.engine.meta
    resolved = meta.resolve_options(parse_options(options.options))
    most = meta.max_players_for(resolved)
    if not meta.min_players <= options.players <= most:
        raise UsageError(
            f"{meta.slug} takes {meta.min_players}-{most} players with these options, not {options.players}"
        )
    if options.games < 1:
        raise UsageError("--games must be at least 1")
    if options.max_decisions < 1:
        raise UsageError("--max-decisions must be at least 1")
    bots = tuple(level.strip() for level in options.bots.split(",") if level.strip())
    if not bots:
        raise UsageError("--bots names no bot level")
    unknown = sorted({level for level in bots if level not in BOT_LEVELS})
    if unknown:
        raise UsageError(f"unknown bot level(s) {', '.join(unknown)}; known: {', '.join(BOT_LEVELS)}")
    return game, options.players, resolved, bots


def simulate(
    game: HostedGame[Any],
    players: int,
    options: Mapping[str, JSON],
    *,
    games: int,
    seed: str,
    bots: Sequence[str],
    decision_cap: int = DEFAULT_DECISION_CAP,
    progress: bool = False,
) -> Summary:
    """Play ``games`` games and collect their results."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    summary = Summary(game.slug, players, tuple(bots), dict(options), seed)
    started = time.perf_counter()
    with tqdm(total=games, desc=game.slug, unit="game", file=sys.stderr, disable=not progress) as bar:
        for index in range(games):
            result = play_one(game, players, options, index, f"{seed}-{index}", bots, decision_cap)
            summary.results.append(result)
            bar.update(1)
            if result.abnormal is not None:
                bar.set_postfix(abnormal=len(summary.abnormal))
    summary.seconds = time.perf_counter() - started
    return summary


def play_one(
    game: HostedGame[Any],
    players: int,
    options: Mapping[str, JSON],
    index: int,
    seed: str,
    bots: Sequence[str],
    decision_cap: int,
) -> GameResult:
    """One whole game; any way it can go wrong becomes an ``Abnormal`` result, never an exception."""
    engine, check = game.engine, game.check_invariants
    bot_rngs = [random.Random(f"tabletop-bots:{seed}:{seat}") for seat in range(players)]
    decisions = 0
    largest = Largest()

    def abnormal(reason: str, stalled: bool = False) -> GameResult:
        return GameResult(
            index,
            seed,
            decisions,
            abnormal=Abnormal(index, seed, decisions, reason, stalled),
            largest=largest,
        )

    try:
        state, _ = engine.setup(players, options, rng_for_seed(seed))
        if check is not None and (broken := check(state)):
            return abnormal(f"invariant broken after setup: {'; '.join(broken)}")
        while (decision := engine.decision(state)) is not None:
            if decisions >= decision_cap:
                return abnormal(f"no end after {decision_cap} decisions (safety cap)")
            choices: dict[int, Choice] = {}
            for seat in decision.seats:
                context = context_for(engine, state, decision, seat, game.search)
                largest = largest.grown(len(context.choices), decision.kind, view_bytes(engine, state, seat))
                if not context.choices:
                    return abnormal(f"seat {seat} is asked ({decision.kind}) but has no legal choice")
                choices[seat] = choose(bots[seat % len(bots)], context, bot_rngs[seat])
            engine.apply(state, choices)
            decisions += 1
            if check is not None and (broken := check(state)):
                return abnormal(f"invariant broken after {decision.kind}: {'; '.join(broken)}")
        outcome = engine.outcome(state)
    except Exception as exc:
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return abnormal(f"{type(exc).__name__}: {exc} (at {where.filename}:{where.lineno})")
    if outcome is None:
        return abnormal("the game is over but has no outcome")
    if outcome.details.get("abnormal_end"):
        return abnormal("stalled: the game reached its rules' safety cap (e.g. on rounds)", stalled=True)
    if (
        len(outcome.scores) != players
        or not outcome.winners
        or not set(outcome.winners) <= set(range(players))
    ):
        return abnormal(f"malformed outcome: scores {outcome.scores}, winners {outcome.winners}")
    return GameResult(index, seed, decisions, tuple(outcome.scores), tuple(outcome.winners), largest=largest)


def view_bytes(engine: GameEngine[Any], state: Any, seat: int | None) -> int:
    """Size of ``seat``'s view as the service sends it: compact JSON, UTF-8."""
    text = json.dumps(engine.view(state, seat), separators=(",", ":"), ensure_ascii=False)
    return len(text.encode())


# -- report -------------------------------------------------------------------------------------------


class Stats(TypedDict):
    mean: float
    min: float
    max: float


class LevelReport(TypedDict):
    seats: int
    wins: float
    win_rate_per_seat: float | None


class AbnormalReport(TypedDict):
    game: int
    seed: str
    decisions: int
    reason: str
    stalled: bool


class LargestReport(TypedDict):
    choices: int
    choices_kind: str
    view_bytes: int


class SummaryReport(TypedDict):
    """What ``--json`` prints, and what the text summary is read from."""

    game: str
    players: int
    bots: list[str]
    options: dict[str, JSON]
    seed: str
    games: int
    finished: int
    seconds: float
    games_per_second: float | None
    decisions: int
    decisions_per_second: float | None
    length: Stats | None
    scores: list[Stats | None]
    largest: LargestReport
    win_rate_per_seat: list[float | None]
    win_rate_per_level: dict[str, LevelReport]
    abnormal: list[AbnormalReport]


def _stats(values: Sequence[float]) -> Stats | None:
    if not values:
        return None
    return Stats(mean=sum(values) / len(values), min=min(values), max=max(values))


def summary_json(summary: Summary) -> SummaryReport:
    finished = summary.finished
    lengths = _stats([r.decisions for r in finished])
    credit = summary.win_credit()
    per_level: dict[str, dict[str, float]] = {}
    for seat in range(summary.players):
        entry = per_level.setdefault(summary.seat_level(seat), {"seats": 0, "wins": 0.0})
        entry["seats"] += 1
        entry["wins"] += credit[seat]
    n = len(finished)
    return {
        "game": summary.slug,
        "players": summary.players,
        "bots": list(summary.bots),
        "options": summary.options,
        "seed": summary.seed,
        "games": summary.games,
        "finished": n,
        "seconds": summary.seconds,
        "games_per_second": summary.games / summary.seconds if summary.seconds else None,
        "decisions": summary.decisions,
        "decisions_per_second": summary.decisions / summary.seconds if summary.seconds else None,
        "length": lengths,
        "scores": [
            _stats([r.scores[seat] for r in finished if r.scores is not None])
            for seat in range(summary.players)
        ],
        "largest": {
            "choices": summary.largest.choices,
            "choices_kind": summary.largest.choices_kind,
            "view_bytes": summary.largest.view_bytes,
        },
        "win_rate_per_seat": [c / n if n else None for c in credit],
        "win_rate_per_level": {
            level: {
                "seats": int(entry["seats"]),
                "wins": entry["wins"],
                "win_rate_per_seat": entry["wins"] / (n * entry["seats"]) if n else None,
            }
            for level, entry in per_level.items()
        },
        "abnormal": [
            {
                "game": a.index,
                "seed": a.seed,
                "decisions": a.decisions,
                "reason": a.reason,
                "stalled": a.stalled,
            }
            for a in summary.abnormal
        ],
    }


def format_summary(summary: Summary) -> str:
    data = summary_json(summary)
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in summary.options.items()) or "none"
    lines = [
        f"{summary.slug}: {summary.games} games, {summary.players} players, bots "
        f"{', '.join(summary.seat_level(s) for s in range(summary.players))}; options {options}; "
        f"seed {summary.seed!r}",
        f"time       {summary.seconds:.2f} s: {data['games_per_second'] or 0:,.1f} games/s, "
        f"{data['decisions_per_second'] or 0:,.0f} decisions/s",
    ]
    length = data["length"]
    if length is not None:
        lines.append(
            f"length     mean {length['mean']:.1f}, min {length['min']:.0f}, "
            f"max {length['max']:.0f} decisions (finished games)"
        )
    largest = summary.largest
    lines.append(
        f"largest    {largest.choices} choices in one list"
        f"{f' ({largest.choices_kind})' if largest.choices_kind else ''}, "
        f"view {largest.view_bytes:,} bytes (deciding seat, compact JSON)"
    )
    lines.append("seat  level    score mean    min    max   win rate")
    for seat, stats in enumerate(data["scores"]):
        rate = data["win_rate_per_seat"][seat]
        score = (
            "      -      -      -"
            if stats is None
            else (f"{stats['mean']:11.1f} {stats['min']:6.0f} {stats['max']:6.0f}")
        )
        lines.append(
            f"{seat:>4}  {summary.seat_level(seat):<7}{score}   {'-' if rate is None else f'{rate:6.1%}'}"
        )
    lines.append(f"per level (ties split; a fair share is {1 / summary.players:.1%} per seat)")
    for level, entry in data["win_rate_per_level"].items():
        rate = entry["win_rate_per_seat"]
        lines.append(
            f"      {level:<7} {entry['seats']} seat(s), {entry['wins']:.1f} wins, "
            f"{'-' if rate is None else f'{rate:.1%}'} per seat"
        )
    abnormal = summary.abnormal
    if not abnormal:
        lines.append(f"abnormal   none ({summary.games}/{summary.games} games ended normally)")
    else:
        stalled = sum(1 for a in abnormal if a.stalled)
        lines.append(
            f"abnormal   {len(abnormal)} of {summary.games} games ({stalled} stalled at the rules' "
            "safety cap, not counted as failures):"
        )
        for item in abnormal[:MAX_ABNORMAL_SHOWN]:
            lines.append(
                f"  game {item.index} (seed {item.seed!r}, after {item.decisions} decisions): {item.reason}"
            )
        if len(abnormal) > MAX_ABNORMAL_SHOWN:
            lines.append(f"  ... and {len(abnormal) - MAX_ABNORMAL_SHOWN} more")
    return "\n".join(lines)
