"""What the owner's unread load saves (issue 28 item 4): Carcassonne moves submitted through the
real group commit, in one process, with the game's row read before each move (A, as before) and
taken from what this process kept of its own last write (B), alternating in rounds.

``PYTHONPATH=. .venv/bin/python bench/unread_cost.py --database sqlite`` or ``--database
postgresql+psycopg://postgres@127.0.0.1:5432/NAME`` (the database is dropped and created).
``--games`` games of two seats are played by as many threads at once (so batches form as on a
server); each round submits ``--moves`` moves per game. Printed per round and side: the CPU of
the group commit's writers per move (all a move's work in the transaction: load, rules, save,
commit), the process CPU and the wall time per move (these include the driving threads' own read of
each game to pick the next move), the statements per move (those of the drivers' reads included),
then the medians and B ÷ A.
A turns the kept rows off (``persistence.repository.kept_row`` answers None: nothing is kept but
the state, exactly as before the change); everything else is the same code.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent))

from save_cost import fresh_url

import persistence.repository as repository
from domain.registry import default_registry
from domain.services.bundle import Services
from persistence.database import create_db_engine
from persistence.group_commit import GroupCommitter
from persistence.hot_states import HotStates
from persistence.migrate import migrate
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, FixedClock

KEPT_ROW: Callable[[Any], Any] = repository.kept_row  # type: ignore[attr-defined]


def kept_nothing(_values: Any) -> None:
    """Side A: no row kept with the state, as before the change."""
    return None


KEYS = ("writer_cpu_us", "cpu_us", "wall_us", "statements")


def started(services: Services, count: int) -> list[tuple[str, list[str]]]:
    made = []
    for number in range(count):
        created = services.lobby.create_game("carcassonne", None, f"unread-cost-{number}")
        tokens = []
        for seat in range(2):
            joined = services.seats.join(created.match.id, f"player {seat}")
            assert joined.token is not None
            tokens.append(joined.token)
        services.seats.start(created.match.id, created.host_token)
        made.append((created.match.id, tokens))
    return made


def play(services: Services, game: tuple[str, list[str]], moves: int) -> int:
    """``moves`` moves of one game, each by the seat to decide with its first legal choice (a new
    game once one ends); returns the moves made."""
    game_id, tokens = game
    for _ in range(moves):
        match = services.core.load(game_id)
        decision = match.decision()
        if decision is None:
            return 0
        seat = decision.seats[0]
        _, choices = match.choices_for(seat)
        services.play.submit(game_id, tokens[seat], choices[0], match.version)
    return moves


def timed_writers(committer: GroupCommitter) -> list[float]:
    """A cell holding the CPU seconds the committer's writer threads spend in their batches from
    now on (each batch's transaction is all of its moves' work there), read between rounds."""
    writing = [0.0]
    lock = threading.Lock()
    commit = committer._commit

    def timed_commit(batch: Any) -> None:
        started_at = time.thread_time()
        try:
            commit(batch)
        finally:
            with lock:
                writing[0] += time.thread_time() - started_at

    committer._commit = timed_commit  # type: ignore[method-assign]
    return writing


def print_medians(results: dict[str, list[dict[str, float]]], keys: Sequence[str]) -> None:
    """Each side's median of every figure over its rounds, and B ÷ A."""
    medians = {
        side: {key: statistics.median(r[key] for r in rows) for key in keys} for side, rows in results.items()
    }
    for side, values in medians.items():
        print(f"median {side}: " + ", ".join(f"{key} {value:.2f}" for key, value in values.items()))
    print("B ÷ A: " + ", ".join(f"{key} {medians['B'][key] / medians['A'][key]:.2f}" for key in medians["A"]))


def timed_moves(
    services: Services, games: list[tuple[str, list[str]]], moves: int, writing: list[float]
) -> tuple[int, dict[str, float]]:
    """``moves`` moves in each of ``games``, one thread per game: the moves made, and per move the
    commit threads' CPU (``writing``, from ``timed_writers``), the process's CPU and the wall clock,
    in microseconds."""
    writers = writing[0]
    wall, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(max_workers=len(games)) as pool:
        made = sum(pool.map(lambda game: play(services, game, moves), games))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return made, {
        "writer_cpu_us": (writing[0] - writers) / made * 1e6,
        "cpu_us": cpu / made * 1e6,
        "wall_us": wall / made * 1e6,
    }


def one_round(
    services: Services, games: list[tuple[str, list[str]]], moves: int, sent: list[int], writing: list[float]
) -> dict[str, float]:
    statements = sent[0]
    made, figures = timed_moves(services, games, moves, writing)
    return {**figures, "statements": (sent[0] - statements) / made}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", default="sqlite", help="sqlite, or a PostgreSQL URL (recreated)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--moves", type=int, default=30, help="moves per game and round")
    args = parser.parse_args()
    url = fresh_url(args.database)
    migrate(url)
    db_engine = create_db_engine(url)
    registry = default_registry()
    units = SqlUnitOfWorkFactory(db_engine, registry, HotStates(500))
    committer = GroupCommitter(units, writers=4 if db_engine.dialect.name == "postgresql" else 1)
    services = Services.build(units, registry, FakePublisher(), FixedClock(), committer)
    sent = [0]
    lock = threading.Lock()

    def count(*_args: Any) -> None:
        with lock:
            sent[0] += 1

    event.listen(db_engine, "before_cursor_execute", count)
    writing = timed_writers(committer)
    results: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    try:
        for number in range(args.rounds + 1):
            order = ("A", "B") if number % 2 == 0 else ("B", "A")
            for side in order:
                repository.kept_row = KEPT_ROW if side == "B" else kept_nothing  # type: ignore[attr-defined,assignment]
                games = started(services, args.games)
                play(services, games[0], 2)  # the first write keeps (or not) a row
                figures = one_round(services, games, args.moves, sent, writing)
                if number == 0:
                    continue  # warm-up
                results[side].append(figures)
                print(
                    f"round {number} {side}: writers' CPU {figures['writer_cpu_us']:.0f} µs/move, "
                    f"CPU {figures['cpu_us']:.0f} µs/move, wall {figures['wall_us']:.0f} "
                    f"µs/move, {figures['statements']:.2f} statements/move",
                    flush=True,
                )
    finally:
        repository.kept_row = KEPT_ROW  # type: ignore[attr-defined,assignment]
        committer.close()
    print_medians(results, KEYS)


if __name__ == "__main__":
    main()
