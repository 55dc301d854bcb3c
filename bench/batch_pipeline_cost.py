"""What one pipeline per batch saves (issue 28 item 4): Carcassonne moves submitted through the
real group commit on PostgreSQL, in one process, with the batch's writes sent as they are made (A,
as before: ``GroupCommitter.hold_writes`` off) and held for one pipeline with the next statement
that needs a result or the commit (B), alternating in rounds.

``PYTHONPATH=. .venv/bin/python bench/batch_pipeline_cost.py --database
postgresql+psycopg://postgres@127.0.0.1:5432/NAME`` (the database is dropped and created).
``--games`` games of two seats are played by as many threads at once (so batches form as on a
server), each move by the game's owner (its read skipped, as ``bench/unread_cost.py`` B); each round
submits ``--moves`` moves per game. Printed per round and side: the CPU of the group commit's
writers per move (all a move's work in the transaction: load, rules, save, commit), the process CPU
and the wall time per move (these include the driving threads' own read of each game to pick the
next move), the writers' round trips to the server per move (``tests.support.round_trips``: a
statement alone, a pipeline, a commit), the works per batch, then the medians and B ÷ A.

``--batch N``: batches of exactly N moves (one per game, N games), each committed on this thread
by the group commit's own code (``GroupCommitter._commit``), so that neither the batching nor the
threads vary between the sides: the CPU per move is then this thread's alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from save_cost import fresh_url
from unread_cost import play, print_medians, started, timed_moves, timed_writers

from domain.registry import default_registry
from domain.services.bundle import Services
from domain.services.play import _submit_request
from persistence.database import create_db_engine
from persistence.group_commit import GroupCommitter, _Job
from persistence.hot_states import HotStates
from persistence.migrate import migrate
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, FixedClock
from tests.support.round_trips import RoundTrips

KEYS = ("writer_cpu_us", "cpu_us", "wall_us", "round_trips", "batch")


def one_round(
    services: Services,
    committer: GroupCommitter,
    games: list[tuple[str, list[str]]],
    moves: int,
    trips: RoundTrips,
    writing: list[float],
) -> dict[str, float]:
    sent = trips.count
    batches, works = committer.batches, committer.works
    made, figures = timed_moves(services, games, moves, writing)
    return {
        **figures,
        "round_trips": (trips.count - sent) / made,
        "batch": (committer.works - works) / max(1, committer.batches - batches),
    }


def fixed_batches(
    services: Services, committer: GroupCommitter, size: int, batches: int, trips: RoundTrips
) -> dict[str, float]:
    """``batches`` batches of one move in each of ``size`` fresh games, committed on this thread."""
    games = started(services, size)
    plans = []
    for game_id, tokens in games:
        play(services, (game_id, tokens), 1)  # the owner's first write: the next skip the read
        match = services.core.load(game_id)
        plans.append((game_id, tokens, match))
    sent, made = trips.count, 0
    cpu, wall = time.thread_time(), time.perf_counter()
    for _ in range(batches):
        jobs = []
        for game_id, tokens, match in plans:
            decision = match.decision()
            if decision is None:
                continue
            seat = decision.seats[0]
            _, choices = match.choices_for(seat)
            request, expected = _submit_request(choices[0], match.version, None)
            work = services.play._submit_work(game_id, tokens[seat], choices[0], expected, None, request)
            jobs.append(_Job(game_id, work))
        committer._commit(jobs)  # sorts ``jobs`` by game
        moved = {job.key: job.answer.result()[2] for job in jobs}
        plans = [(game_id, tokens, moved.get(game_id, match)) for game_id, tokens, match in plans]
        made += len(jobs)
    cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    return {
        "writer_cpu_us": cpu / made * 1e6,
        "cpu_us": cpu / made * 1e6,
        "wall_us": wall / made * 1e6,
        "round_trips": (trips.count - sent) / made,
        "batch": made / batches,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", required=True, help="a PostgreSQL URL (recreated)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--moves", type=int, default=30, help="moves per game and round")
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument(
        "--batch", type=int, default=0, help="fixed batches of this many moves, on this thread"
    )
    args = parser.parse_args()
    url = fresh_url(args.database)
    migrate(url)
    db_engine = create_db_engine(url)
    registry = default_registry()
    units = SqlUnitOfWorkFactory(db_engine, registry, HotStates(500))
    committer = GroupCommitter(units, writers=args.writers)
    services = Services.build(units, registry, FakePublisher(), FixedClock(), committer)
    trips = RoundTrips(db_engine, threads="group-commit-" if not args.batch else "MainThread")
    writing = timed_writers(committer)
    results: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    try:
        for number in range(args.rounds + 1):
            order = ("A", "B") if number % 2 == 0 else ("B", "A")
            for side in order:
                committer.hold_writes = side == "B"
                if args.batch:
                    figures = fixed_batches(services, committer, args.batch, args.moves, trips)
                else:
                    games = started(services, args.games)
                    for game in games:
                        play(services, game, 1)  # the first write keeps the row: the next skip the read
                    figures = one_round(services, committer, games, args.moves, trips, writing)
                if number == 0:
                    continue  # warm-up
                results[side].append(figures)
                print(
                    f"round {number} {side}: writers' CPU {figures['writer_cpu_us']:.0f} µs/move, "
                    f"CPU {figures['cpu_us']:.0f} µs/move, wall {figures['wall_us']:.0f} µs/move, "
                    f"{figures['round_trips']:.2f} round trips/move, {figures['batch']:.2f} works/batch",
                    flush=True,
                )
    finally:
        committer.close()
        trips.close()
    print(f"batches run again (a held guard failed): {committer.stale_batches}")
    print_medians(results, KEYS)


if __name__ == "__main__":
    main()
