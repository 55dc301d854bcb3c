"""Real concurrent submits through ``Services``: optimistic locking under contention.

A gate holds each thread's first load until both threads are there, so both really start from
the same version; the database then decides who wins (on PostgreSQL the loser of the row lock
loads the winner's version; on SQLite it loses the version check at ``save``).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import Any, Self

import pytest
from sqlalchemy import Engine

from domain.errors import VersionConflict
from domain.model.match import Match
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.play import SubmitAnswer
from persistence.uow import SqlUnitOfWork, SqlUnitOfWorkFactory
from tests.support.duel_play import StartedDuel, start_duel
from tests.support.fakes import FakePublisher, FixedClock

pytestmark = pytest.mark.timeout(60)


class GatedRepository:
    def __init__(self, inner: Any, gate: SaveGate) -> None:
        self._inner = inner
        self._gate = gate

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def get(self, game_id: str, for_update: bool = False) -> Match:
        self._gate.wait()
        match: Match = self._inner.get(game_id, for_update)
        return match


class SaveGate:
    """Lets the first ``parties`` loads through together; later loads (retries) pass freely."""

    def __init__(self, parties: int) -> None:
        self._barrier = threading.Barrier(parties, timeout=10)
        self._left = parties
        self._lock = threading.Lock()

    def wait(self) -> None:
        with self._lock:
            gated = self._left > 0
            self._left -= 1
        if gated:
            self._barrier.wait()


class GatedUnitOfWork:
    def __init__(self, inner: SqlUnitOfWork, gate: SaveGate) -> None:
        self._inner = inner
        self._gate = gate

    def __enter__(self) -> Self:
        self._inner.__enter__()
        self.games = GatedRepository(self._inner.games, self._gate)
        self.players = self._inner.players
        self.webhooks = self._inner.webhooks
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._inner.__exit__(exc_type, exc, tb)

    def commit(self) -> None:
        self._inner.commit()


def plain_service(db_engine: Engine, registry: EngineRegistry) -> Services:
    return Services.build(SqlUnitOfWorkFactory(db_engine, registry), registry, FakePublisher(), FixedClock())


def gated_service(db_engine: Engine, registry: EngineRegistry, gate: SaveGate) -> Services:
    factory = SqlUnitOfWorkFactory(db_engine, registry)
    return Services.build(
        lambda: GatedUnitOfWork(factory(), gate),  # type: ignore[arg-type]
        registry,
        FakePublisher(),
        FixedClock(),
    )


def both_seats_play(
    service: Services, duel: StartedDuel, version: int | None, seats: tuple[int, int] = (0, 1)
) -> list[SubmitAnswer | BaseException]:
    def submit(seat: int) -> SubmitAnswer | BaseException:
        try:
            return service.play.submit(duel.game_id, duel.tokens[seat], {"card": 3}, version)
        except VersionConflict as conflict:
            return conflict

    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(submit, seats))


@pytest.mark.postgres
def test_of_two_submits_of_one_seat_on_the_same_version_exactly_one_wins(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    plain = plain_service(postgres_engine, registry)
    duel = start_duel(plain)
    before = plain.core.load(duel.game_id)

    outcomes = both_seats_play(
        gated_service(postgres_engine, registry, SaveGate(2)), duel, before.version, (0, 0)
    )

    wins = [o for o in outcomes if isinstance(o, SubmitAnswer)]
    conflicts = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert len(wins) == 1 and len(conflicts) == 1, outcomes
    winner = 0
    stored = plain.core.load(duel.game_id)
    history = plain.reads.history(duel.game_id, after=0, limit=1_000)
    assert stored.version == before.version + 1 == wins[0].version
    assert stored.sealed == {winner: {"card": 3}}
    assert stored.last_seq == before.last_seq + 1
    assert [e.seq for e in history] == list(range(1, stored.last_seq + 1))
    assert history[-1].event.private == {winner: {"choice": {"card": 3}, "replaced": False}}


@pytest.mark.postgres
def test_two_seats_sealing_on_the_same_version_both_land(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    """The version both read was current when the pick was put to them: another seat sealing
    in the meantime is not a change of either seat's decision (no false 409)."""
    plain = plain_service(postgres_engine, registry)
    duel = start_duel(plain)
    before = plain.core.load(duel.game_id)

    outcomes = both_seats_play(gated_service(postgres_engine, registry, SaveGate(2)), duel, before.version)

    assert sorted(o.status for o in outcomes if isinstance(o, SubmitAnswer)) == ["applied", "sealed"]
    assert plain.core.load(duel.game_id).version == before.version + 2


@pytest.mark.postgres
def test_two_submits_without_a_version_both_land_after_a_retry(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    plain = plain_service(postgres_engine, registry)
    duel = start_duel(plain)
    before = plain.core.load(duel.game_id)

    outcomes = both_seats_play(gated_service(postgres_engine, registry, SaveGate(2)), duel, None)

    assert sorted(o.status for o in outcomes if isinstance(o, SubmitAnswer)) == ["applied", "sealed"]
    stored = plain.core.load(duel.game_id)
    history = plain.reads.history(duel.game_id, after=0, limit=1_000)
    assert stored.version == before.version + 2
    assert stored.sealed == {}
    assert stored.engine.dump(stored.state)["phase"] == "bank"
    assert [e.seq for e in history] == list(range(1, stored.last_seq + 1))
    assert any(e.event.type == "reveal" for e in history)


def test_writers_of_one_version_serialise_on_every_backend(
    db_engine: Engine, registry: EngineRegistry
) -> None:
    """The same race on whichever backend is configured (SQLite waits on its busy timeout)."""
    plain = plain_service(db_engine, registry)
    duel = start_duel(plain)
    version = plain.core.load(duel.game_id).version

    outcomes = both_seats_play(gated_service(db_engine, registry, SaveGate(2)), duel, version, (0, 0))

    assert sorted(isinstance(o, VersionConflict) for o in outcomes) == [False, True]
    assert plain.core.load(duel.game_id).version == version + 1
