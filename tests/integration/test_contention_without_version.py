"""Submits and joins without a ``version`` never answer 409, however many race (issue 10 item 16).

Many threads submit to one PostgreSQL game at once, each without a version: two seats keep
replacing their sealed card while the third seat holds the decision open, so every submit is a
write to the same row. Likewise a crowd joins one lobby. None may surface a ``VersionConflict``.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine

from domain.errors import GameFull
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.duel_play import start_duel
from tests.support.fakes import FakePublisher, FixedClock

pytestmark = [pytest.mark.timeout(120), pytest.mark.postgres]

THREADS = 12
SUBMITS_PER_THREAD = 6


def service_on(db_engine: Engine, registry: EngineRegistry) -> Services:
    return Services.build(SqlUnitOfWorkFactory(db_engine, registry), registry, FakePublisher(), FixedClock())


def test_concurrent_submits_without_a_version_all_land_on_postgresql(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    service = service_on(postgres_engine, registry)
    duel = start_duel(service, players=3)
    before = service.core.load(duel.game_id).version
    start = threading.Barrier(THREADS, timeout=30)

    def spam(n: int) -> list[str]:
        start.wait()
        outcomes = []
        for i in range(SUBMITS_PER_THREAD):
            card = 1 + (n + i) % 3
            try:
                result = service.play.submit(duel.game_id, duel.tokens[n % 2], {"card": card})
                outcomes.append(str(result.status))
            except Exception as exc:
                outcomes.append(type(exc).__name__)
        return outcomes

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        outcomes = [o for batch in pool.map(spam, range(THREADS)) for o in batch]

    assert outcomes == ["sealed"] * THREADS * SUBMITS_PER_THREAD
    stored = service.core.load(duel.game_id)
    assert stored.version == before + THREADS * SUBMITS_PER_THREAD
    history = service.reads.history(duel.game_id, 0, 10_000)
    assert [e.seq for e in history] == list(range(1, stored.last_seq + 1))


def test_a_crowd_joining_one_lobby_gets_every_seat_once_and_no_409(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    service = service_on(postgres_engine, registry)
    game_id = service.lobby.create_game("duel", None, None).match.id
    start = threading.Barrier(THREADS, timeout=30)

    def join(n: int) -> str:
        start.wait()
        try:
            return f"seat {service.seats.join(game_id, f'p{n}').seat}"
        except GameFull:
            return "full"
        except Exception as exc:
            return type(exc).__name__

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        outcomes = sorted(pool.map(join, range(THREADS)))

    assert outcomes == ["full"] * (THREADS - 3) + ["seat 0", "seat 1", "seat 2"]
