"""CPU of the store's part of a move: one unit of work that loads a game for update, saves it and
commits, on SQLite or PostgreSQL (``persistence`` only: no HTTP, no rules).

``PYTHONPATH=. .venv/bin/python bench/save_cost.py --database sqlite`` or ``--database
postgresql+psycopg://postgres@127.0.0.1:5432/NAME`` (the database is dropped and created). A
Carcassonne game with 3 bots is played 40 turns, then the loop runs ``--rounds`` times ``--calls``
units of work; printed: the process CPU per unit of work, median and min of the rounds. Compare two
checkouts by running it from each (``PYTHONPATH`` decides which code is measured), alternately.

``--state-cost``: the same loop with and without the state in the row's ``UPDATE`` (no dump, no
column), alternating in one process: the most that writing the state only every N moves could
save on a move that does not write it.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from typing import Any

from sqlalchemy import bindparam, create_engine, text, update
from sqlalchemy.engine import make_url

import persistence.repository as repository
from domain.registry import default_registry
from domain.services.bundle import Services
from persistence.database import create_db_engine
from persistence.driver_sql import DriverStatement
from persistence.hot_states import HotStates
from persistence.mapping import FIXED_GAME_COLUMNS
from persistence.migrate import migrate
from persistence.tables import games
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, FixedClock


def prepared(url: str) -> tuple[SqlUnitOfWorkFactory, str]:
    migrate(url)
    registry = default_registry()
    units = SqlUnitOfWorkFactory(create_db_engine(url), registry, HotStates(64))
    games = Services.build(units, registry, FakePublisher(), FixedClock(), None)
    created = games.lobby.create_game("carcassonne", None, "save-cost")
    for _ in range(3):
        games.seats.join(created.match.id, "bot", "random", created.host_token)
    games.seats.start(created.match.id, created.host_token)
    for _ in range(40):
        games.play.play_bot_turn(created.match.id)
    return units, created.match.id


def cpu_per_call(units: SqlUnitOfWorkFactory, game_id: str, calls: int) -> float:
    """Microseconds of process CPU per load-for-update + save + commit."""
    start = time.process_time()
    for _ in range(calls):
        with units() as uow:
            match = uow.games.get(game_id, for_update=True)
            uow.games.save(match)
            uow.commit()
    return (time.process_time() - start) / calls * 1e6


def state_cost(units: SqlUnitOfWorkFactory, game_id: str, rounds: int, calls: int) -> None:
    """Alternate the real save with one that leaves the state out (for measuring only)."""
    with_state = repository._SAVE_GAME, repository.game_values  # type: ignore[attr-defined]
    stateless = DriverStatement(
        update(games).where(
            games.c.id == bindparam("match_id"), games.c.version == bindparam("loaded_version")
        ),
        [c.key for c in games.c if c.key not in FIXED_GAME_COLUMNS and c.key != "state"],
    )

    def values_without_state(match: Any, now: Any) -> dict[str, Any]:
        engine = match.engine
        engine.dump = lambda state: None  # hides the method on this instance: no dump
        try:
            values = with_state[1](match, now)
        finally:
            del engine.dump
        values["state"] = None
        return values

    sides = {"with the state": with_state, "without the state": (stateless, values_without_state)}
    spent: dict[str, list[float]] = {name: [] for name in sides}
    for number in range(2 * rounds):
        for name in sides if number % 2 == 0 else reversed(sides):
            repository._SAVE_GAME, repository.game_values = sides[name]  # type: ignore[attr-defined,assignment]
            spent[name].append(cpu_per_call(units, game_id, calls))
    repository._SAVE_GAME, repository.game_values = with_state  # type: ignore[attr-defined]
    for name, values in spent.items():
        print(f"{name}: median {statistics.median(values):.0f} µs, min {min(values):.0f} µs")


def fresh_url(database: str) -> str:
    if database == "sqlite":
        return f"sqlite:///{tempfile.mkdtemp(prefix='save-cost-')}/bench.db"
    url = make_url(database)
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{url.database}"'))
    admin.dispose()
    return database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", default="sqlite", help="sqlite, or a PostgreSQL URL (recreated)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--state-cost", action="store_true", help="with and without the state, alternately")
    args = parser.parse_args()
    units, game_id = prepared(fresh_url(args.database))
    cpu_per_call(units, game_id, 200)  # warm-up
    if args.state_cost:
        state_cost(units, game_id, args.rounds, args.calls)
        return
    rounds = [cpu_per_call(units, game_id, args.calls) for _ in range(args.rounds)]
    print(f"CPU per get+save+commit: median {statistics.median(rounds):.0f} µs, min {min(rounds):.0f} µs")


if __name__ == "__main__":
    main()
