"""Presence with fakes: a seat is connected while an instance keeps its subscription alive."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.presence import PresenceService
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock

TTL = timedelta(seconds=30)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def service(clock: ManualClock) -> Services:
    store = FakeRepository()
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), clock
    )


def two_seat_game(service: Services) -> str:
    created = service.lobby.create_game("duel", {"rounds": 1}, "seed")
    service.seats.join(created.match.id, "Ann")
    service.seats.join(created.match.id, "Bob")
    return created.match.id


def test_a_seat_is_connected_from_subscribe_to_unsubscribe_and_only_that_seat(
    service: Services,
) -> None:
    game_id = two_seat_game(service)
    presence = PresenceService(service.core, "instance-a", TTL)
    assert presence.connected(game_id) == frozenset()

    first = presence.connect(game_id, 1)
    second = presence.connect(game_id, 1)  # a second tab of the same seat
    assert presence.connected(game_id) == {1}
    presence.disconnect(first)
    assert presence.connected(game_id) == {1}
    presence.disconnect(second)
    assert presence.connected(game_id) == frozenset()


def test_a_seat_connected_on_one_instance_reads_as_connected_on_another(
    service: Services, clock: ManualClock
) -> None:
    game_id = two_seat_game(service)
    a, b = PresenceService(service.core, "a", TTL), PresenceService(service.core, "b", TTL)
    a.connect(game_id, 0)
    b.connect(game_id, 1)
    assert a.connected(game_id) == b.connected(game_id) == {0, 1}

    for _ in range(5):  # both instances beat: nothing expires, however long it lasts
        clock.advance(10)
        a.heartbeat()
        b.heartbeat()
    assert b.connected(game_id) == {0, 1}


def test_a_crashed_instances_seats_drop_out_within_one_time_to_live(
    service: Services, clock: ManualClock
) -> None:
    game_id = two_seat_game(service)
    crashed = PresenceService(service.core, "crashed", TTL)
    alive = PresenceService(service.core, "alive", TTL)
    crashed.connect(game_id, 0)
    alive.connect(game_id, 1)

    clock.advance(20)
    alive.heartbeat()  # "crashed" no longer beats
    assert alive.connected(game_id) == {0, 1}
    clock.advance(10)
    assert alive.connected(game_id) == {1}
    alive.heartbeat()  # and its row is purged, not only ignored
    with service.core.uow() as uow:
        assert {c.instance for c in uow.presence.connections.values()} == {"alive"}  # type: ignore[attr-defined]


def test_an_instance_that_stops_cleanly_ends_its_connections_at_once(service: Services) -> None:
    game_id = two_seat_game(service)
    stopping = PresenceService(service.core, "stopping", TTL)
    other = PresenceService(service.core, "other", TTL)
    stopping.connect(game_id, 0)
    other.connect(game_id, 1)
    stopping.leave()
    assert other.connected(game_id) == {1}
