"""``./run bench-bots``: how strong the ``strong`` bot is, against ``greedy``, in every game.

Whole games in-process (engine and bots called directly, as ``simulate`` does): per game, 2 players
``strong`` against ``greedy`` with the seats alternated (game k seats ``strong`` at seat k mod
players), and at 3 and 4 players ``strong`` against greedy opponents. The strong bot's budget is a
number of iterations (the same pick on any machine, however loaded; in Carcassonne, whose strong
level searches the seat's whole turn, they only cap its rollouts); the games run in a process
pool (``--workers``, default every core). Reported: the strong seat's win rate with its 95 % Wilson
interval (a tie splits one win between the tied seats), its fair share (1 / players) and the ratio,
the mean score of each level, the mean decision time of each level and the machine's load.

    ./run bench-bots                       # the table of bench/README.md (long: see there)
    ./run bench-bots --games 20 --only carcassonne --players 2
    ./run bench-bots --cost 50 400         # CPU ms of one strong decision at 50 and 400 iterations
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from domain.bots import choose, context_for
from domain.bots.search import SearchBudget
from domain.model.seeding import rng_for_seed
from domain.registry import default_registry

GAMES = ("im-schutze-der-burg", "keythedral", "carcassonne")
DECISION_CAP = 20_000


@dataclass(frozen=True, slots=True)
class Played:
    """One game: the strong seat's share of the win, its score and the best greedy score, and
    the seconds each level spent choosing (with how many choices)."""

    credit: float
    strong_score: int
    greedy_score: float
    strong_seconds: float
    strong_decisions: int
    greedy_seconds: float
    greedy_decisions: int
    strong_cpu: list[float]


def play(slug: str, players: int, index: int, seed: str, iterations: int) -> Played:
    """Game ``index``: ``strong`` at seat ``index mod players``, ``greedy`` at the others."""
    game = default_registry().game(slug)
    engine = game.engine
    strong_seat = index % players
    state, _ = engine.setup(players, engine.meta.resolve_options({}), rng_for_seed(f"{seed}-{index}"))
    bot_rng = random.Random(f"bench-bots:{seed}-{index}")
    seconds = [0.0, 0.0]
    counts = [0, 0]
    strong_cpu: list[float] = []
    for _ in range(DECISION_CAP):
        decision = engine.decision(state)
        if decision is None:
            break
        joint = {}
        for seat in decision.seats:
            strong = seat == strong_seat
            level = "strong" if strong else "greedy"
            started, cpu = time.perf_counter(), time.process_time()
            context = context_for(engine, state, decision, seat, game.search)
            joint[seat] = choose(level, context, bot_rng, SearchBudget(iterations=iterations))
            seconds[strong] += time.perf_counter() - started
            counts[strong] += 1
            if strong and len(context.choices) > 1:
                strong_cpu.append(time.process_time() - cpu)
        engine.apply(state, joint)
    outcome = engine.outcome(state)
    if outcome is None:
        raise RuntimeError(f"{slug} game {seed}-{index} did not end in {DECISION_CAP} decisions")
    credit = 1.0 / len(outcome.winners) if strong_seat in outcome.winners else 0.0
    others = [s for seat, s in enumerate(outcome.scores) if seat != strong_seat]
    return Played(
        credit,
        outcome.scores[strong_seat],
        sum(others) / len(others),
        seconds[True],
        counts[True],
        seconds[False],
        counts[False],
        strong_cpu,
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: ``strong`` at one seat against ``greedy`` at the others."""

    game: str
    players: int
    games: int
    iterations: int
    strong_wins: float
    win_rate: float
    interval_95: tuple[float, float]
    fair_share: float
    vs_fair_share: float
    strong_mean_score: float
    greedy_mean_score: float
    strong_ms_per_decision: float
    greedy_ms_per_decision: float
    strong_cpu_ms: tuple[float, float, float]
    """CPU milliseconds of one strong decision with a real choice (mean, p99, max): what its
    iterations cost one core, however loaded the machine."""
    seconds: float
    load_1min: tuple[float, float]
    first: int = 0
    """The index of the row's first game (``--first``): the row played games ``first`` to
    ``first + games - 1``."""
    credits: tuple[float, ...] = ()
    """The strong seat's share of the win in each game, in the order of the games' indices: rows
    played in parts (``--first``) join into one, and two versions of the bot compare deal by deal."""

    def line(self) -> str:
        low, high = self.interval_95
        interval = f"{low:.1%}-{high:.1%}"
        scores = f"{self.strong_mean_score}/{self.greedy_mean_score}"
        times = f"{self.strong_ms_per_decision}/{self.greedy_ms_per_decision}"
        cpu = "/".join(str(round(ms)) for ms in self.strong_cpu_ms)
        load = f"{self.load_1min[0]}-{self.load_1min[1]}"
        return (
            f"{self.game:22} {self.players:>2} {self.games:>5} {self.win_rate:>8.1%} {interval:>15} "
            f"{self.vs_fair_share:>6} {scores:>13} {times:>13} {cpu:>15} {load:>10} {self.seconds:>7}"
        )


HEADER = (
    f"{'game':22} {'n':>2} {'games':>5} {'win rate':>8} {'95% interval':>15} {'x fair':>6} "
    f"{'scores s/g':>13} {'ms/dec s/g':>13} {'cpu ms mean/p99/max':>15} {'load':>10} "
    f"{'seconds':>7}"
)


def run(
    slug: str,
    players: int,
    games: int,
    seed: str,
    iterations: int,
    pool: Executor,
    progress: bool = False,
    first: int = 0,
) -> Row:
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    futures = [pool.submit(play, slug, players, k, seed, iterations) for k in range(first, first + games)]
    results = []
    for k, future in enumerate(futures):
        results.append(future.result())
        if progress:
            wins = sum(r.credit for r in results)
            elapsed = time.perf_counter() - started
            print(
                f"{slug} {players}p: {k + 1}/{games} games, strong {wins:g} wins "
                f"({wins / (k + 1):.1%}), {elapsed:.0f} s, load {os.getloadavg()[0]:.1f}",
                file=sys.stderr,
                flush=True,
            )
    wins = sum(r.credit for r in results)
    low, high = wilson(wins, games)
    fair = 1.0 / players
    strong_decisions = sum(r.strong_decisions for r in results)
    cpu = sorted(ms for r in results for ms in r.strong_cpu) or [0.0]
    greedy_decisions = sum(r.greedy_decisions for r in results)
    return Row(
        game=slug,
        players=players,
        games=games,
        iterations=iterations,
        strong_wins=round(wins, 2),
        win_rate=round(wins / games, 3),
        interval_95=(round(low, 3), round(high, 3)),
        fair_share=round(fair, 3),
        vs_fair_share=round(wins / games / fair, 2),
        strong_mean_score=round(sum(r.strong_score for r in results) / games, 1),
        greedy_mean_score=round(sum(r.greedy_score for r in results) / games, 1),
        strong_ms_per_decision=round(
            1000 * sum(r.strong_seconds for r in results) / max(1, strong_decisions), 1
        ),
        greedy_ms_per_decision=round(
            1000 * sum(r.greedy_seconds for r in results) / max(1, greedy_decisions), 1
        ),
        strong_cpu_ms=(
            round(1000 * sum(cpu) / len(cpu), 1),
            round(1000 * cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))], 1),
            round(1000 * cpu[-1], 1),
        ),
        seconds=round(time.perf_counter() - started, 1),
        load_1min=(round(load_before, 1), round(os.getloadavg()[0], 1)),
        first=first,
        credits=tuple(r.credit for r in results),
    )


COST_EVERY = 12
"""``--cost``: a strong decision is timed at every 12th decision of the game (with 3+ choices)."""


def cost(slug: str, budgets: list[int], seed: str) -> dict[str, Any]:
    """CPU milliseconds (mean, max) of one strong decision at each of ``budgets`` iterations, at
    positions along one 2-player game of greedy bots: what an iteration budget costs one core."""
    game = default_registry().game(slug)
    engine = game.engine
    state, _ = engine.setup(2, engine.meta.resolve_options({}), rng_for_seed(f"{seed}-cost"))
    rng = random.Random(f"bench-bots:{seed}-cost")
    spent: dict[int, list[float]] = {n: [] for n in budgets}
    step = 0
    while (decision := engine.decision(state)) is not None:
        step += 1
        seat = decision.seats[0]
        if step % COST_EVERY == 0 and len(engine.legal_choices(state, seat)) > 2:
            for n in budgets:
                context = context_for(engine, state, decision, seat, game.search)
                started = time.process_time()
                choose("strong", context, random.Random(step), SearchBudget(iterations=n))
                spent[n].append(time.process_time() - started)
        engine.apply(
            state,
            {
                s: choose("greedy", context_for(engine, state, decision, s, game.search), rng)
                for s in decision.seats
            },
        )
    return {
        "game": slug,
        "positions": len(spent[budgets[0]]),
        "cpu_ms_mean_max": {
            n: (round(1000 * sum(v) / len(v), 1), round(1000 * max(v), 1)) for n, v in spent.items() if v
        },
        "load_1min": round(os.getloadavg()[0], 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="./run bench-bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per row at 2 players (default 200)")
    parser.add_argument(
        "--games-multi", type=int, default=60, help="games per row at 3 and 4 players (default 60)"
    )
    parser.add_argument(
        "--iterations", type=int, default=SearchBudget().iterations, help="strong's iterations per decision"
    )
    parser.add_argument(
        "--players", type=int, nargs="+", default=[2, 3, 4], help="player counts (default 2 3 4)"
    )
    parser.add_argument("--only", nargs="+", choices=GAMES, default=list(GAMES), help="games to run")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)"
    )
    parser.add_argument("--seed", default="bench-bots")
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="index of a row's first game (default 0): a long row played in parts, each game the "
        "same deal and seats whatever the part",
    )
    parser.add_argument(
        "--progress", action="store_true", help="a line on stderr as each game ends (the running win rate)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per row instead of the table")
    parser.add_argument(
        "--cost",
        type=int,
        nargs="+",
        metavar="ITERATIONS",
        help="instead of games: the CPU ms of one strong decision at these iteration budgets",
    )
    options = parser.parse_args(argv)
    if options.cost:
        for slug in options.only:
            print(json.dumps(cost(slug, options.cost, options.seed)), flush=True)
        return 0
    if not options.json:
        print(HEADER, flush=True)
    with ProcessPoolExecutor(options.workers) as pool:
        for slug in options.only:
            for players in options.players:
                games = options.games if players == 2 else options.games_multi
                row = run(
                    slug,
                    players,
                    games,
                    options.seed,
                    options.iterations,
                    pool,
                    options.progress,
                    options.first,
                )
                print(json.dumps(asdict(row)) if options.json else row.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
