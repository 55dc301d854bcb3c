"""Presence on real SQLite and PostgreSQL: rows shared by instances, kept alive, expired, purged."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.presence import PresenceService
from persistence.tables import presence
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, ManualClock

TTL = timedelta(seconds=30)


def test_instances_share_presence_and_a_silent_instances_seats_expire(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    clock = ManualClock()
    service = Services.build(uow_factory, registry, FakePublisher(), clock)
    created = service.lobby.create_game("duel", None, "seed")
    game_id = created.match.id
    for name in ("Ann", "Bob", "Cid"):
        service.seats.join(game_id, name)
    a, b = PresenceService(service.core, "a", TTL), PresenceService(service.core, "b", TTL)

    ann = a.connect(game_id, 0)
    b.connect(game_id, 2)
    assert b.connected(game_id) == {0, 2}
    a.disconnect(ann)
    a.connect(game_id, 1)
    assert b.connected(game_id) == {1, 2}

    clock.advance(25)
    b.heartbeat()  # a has gone silent (crashed)
    clock.advance(10)
    assert a.connected(game_id) == {2}
    b.heartbeat()
    with uow_factory.db_engine.connect() as connection:
        assert connection.execute(select(presence.c.instance)).scalars().all() == ["b"]
    b.leave()
    assert a.connected(game_id) == frozenset()
