"""CPU of the store's part of a move: one unit of work that loads a game for update, saves it and
commits, on SQLite or PostgreSQL (``persistence`` only: no HTTP, no rules).

``PYTHONPATH=. .venv/bin/python bench/save_cost.py --database sqlite`` or ``--database
postgresql+psycopg://postgres@127.0.0.1:5432/NAME`` (the database is dropped and created). A
Carcassonne game with 3 bots is played 40 turns, then the loop runs ``--rounds`` times ``--calls``
units of work; printed: the process CPU per unit of work, median and min of the rounds. Compare two
checkouts by running it from each (``PYTHONPATH`` decides which code is measured), alternately.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from domain.registry import default_registry
from domain.services.bundle import Services
from persistence.database import create_db_engine
from persistence.hot_states import HotStates
from persistence.schema import migrate
from persistence.uow import SqlUnitOfWorkFactory
from tests.fakes import FakePublisher, FixedClock


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
    args = parser.parse_args()
    units, game_id = prepared(fresh_url(args.database))
    cpu_per_call(units, game_id, 200)  # warm-up
    rounds = [cpu_per_call(units, game_id, args.calls) for _ in range(args.rounds)]
    print(f"CPU per get+save+commit: median {statistics.median(rounds):.0f} µs, min {min(rounds):.0f} µs")


if __name__ == "__main__":
    main()
