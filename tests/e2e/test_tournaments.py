"""Tournaments on real servers: an 8-player Swiss of the test duel on two PostgreSQL + Redis
instances (requests taking turns between them) with standings equal to the hand computation, and
a server SIGKILLed between a round's last game and the next round's creation: after the restart
the round exists once. (The same Swiss of Im Schutze der Burg, whose games are long, is played in
process by tests/rest/test_tournaments_api.py, against the same hand computation.)"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from persistence.database import create_db_engine
from persistence.migrate import migrate
from tests.support.client import CLOCK
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.http import auth
from tests.support.servers import ServerProcess, running_servers
from tests.support.tournament_api import Tourney, standings_by_hand
from tests.support.waiting import eventually

pytestmark = pytest.mark.timeout(900)

FAST_RUNNER = {
    "TABLETOP_TOURNAMENT_POLL_SECONDS": "0.2",
    "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
    "TABLETOP_RATE_LIMIT_BURST": "100000",
}


@pytest.mark.postgres
@pytest.mark.redis
def test_an_eight_player_swiss_on_two_instances_ends_with_standings_equal_to_the_hand_computation(
    tmp_path: Path,
) -> None:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url, **FAST_RUNNER}
        with (
            running_servers([env, env], tmp_path) as (a, b),
            httpx.Client(base_url=a.base, timeout=30) as first,
            httpx.Client(base_url=b.base, timeout=30) as second,
        ):
            tourney = Tourney([first, second])
            tourney.create(name="Two rooms", game_type="duel", format="swiss", rounds=3, clock=CLOCK)
            tourney.register([f"player {n}" for n in range(8)])
            tourney.start()
            for number in (1, 2, 3):
                tourney.play_round(number, seed=10 + number)
            final: dict[str, Any] = eventually(
                lambda: (t := tourney.tournament())["status"] == "finished" and t, 60, "finished"
            )
            assert final["current_round"] == 3
            rounds = tourney.rounds()
            served = {r["player_id"]: r for r in tourney.standings()}
        db = create_db_engine(database_url)
        try:
            with db.connect() as connection:
                per_round = connection.execute(
                    text("SELECT round, count(*) FROM tournament_tables GROUP BY round ORDER BY round")
                ).all()
        finally:
            db.dispose()
    assert [tuple(r) for r in per_round] == [(1, 4), (2, 4), (3, 4)]
    met = [frozenset(s["player_id"] for s in t["seats"]) for r in rounds for t in r["tables"]]
    assert len(set(met)) == 12
    for mine in standings_by_hand(rounds, tourney.results):
        row = served[mine["player_id"]]
        assert (row["points"], row["buchholz"], row["sonneborn_berger"], row["games"]) == pytest.approx(
            (mine["points"], mine["buchholz"], mine["sonneborn_berger"], mine["games"])
        )


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[tuple[ServerProcess, Path]]:
    db = tmp_path / "tabletop.db"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{db}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
        **FAST_RUNNER,
    }
    server = ServerProcess(env, tmp_path).start()
    try:
        yield server, db
    finally:
        server.stop()


def tables_per_round(db: Path) -> list[tuple[int, int]]:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as connection:
        rows = connection.execute(
            "SELECT round, count(*) FROM tournament_tables GROUP BY round ORDER BY round"
        )
        return [(int(r), int(c)) for r, c in rows.fetchall()]


def round_ready_notices(db: Path) -> list[tuple[int, int]]:
    """Per round: the ``tournament_round_ready`` deliveries written, and the distinct (endpoint,
    game) pairs among them."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as connection:
        rows = connection.execute(
            "SELECT t.round, count(*), count(DISTINCT d.endpoint_id || d.game_id) FROM webhook_deliveries d "
            "JOIN tournament_tables t ON t.game_id = d.game_id WHERE d.kind = 'tournament_round_ready' "
            "GROUP BY t.round ORDER BY t.round"
        )
        return [(int(r), int(c)) for r, c, distinct in rows.fetchall() if c == distinct]


def test_a_server_killed_between_the_last_game_and_the_next_round_creates_the_round_once(
    sqlite_server: tuple[ServerProcess, Path],
) -> None:
    server, db = sqlite_server
    with httpx.Client(base_url=server.base, timeout=30) as http:
        tourney = Tourney([http])
        tourney.create(
            name="Crash night", game_type="duel", format="swiss", rounds=2, clock=CLOCK, pause_seconds=3
        )
        tourney.register(["Ann", "Bob", "Cy", "Dee"])
        for token in tourney.players.values():  # nobody listens there: the notices stay pending
            hook = {"url": "http://127.0.0.1:9/hook", "filters": ["tournament_round_ready"]}
            assert http.post("/v1/webhooks", json=hook, headers=auth(token)).status_code == 201
        tourney.start()
        tourney.play_round(1, seed=1)
        # the last game's end is committed (its result recorded, the next round due after the
        # pause) and round 2 is not created yet: now the server dies
        state = tourney.tournament()
        assert state["current_round"] == 1 and state["next_round_at"] is not None
        assert all(t["finished"] for t in tourney.rounds()[0]["tables"])
        server.kill()
    assert tables_per_round(db) == [(1, 2)]
    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        tourney.use([http])
        second = tourney.wait_for_round(2, timeout=60)
        assert len(second["tables"]) == 2
        tourney.play_round(2, seed=2)
        eventually(lambda: tourney.tournament()["status"] == "finished", 60, "finished")
    assert tables_per_round(db) == [(1, 2), (2, 2)]
    assert round_ready_notices(db) == [(1, 4), (2, 4)]  # once per seated player and round
