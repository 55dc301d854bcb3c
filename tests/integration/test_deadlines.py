"""Deadlines on real SQLite and PostgreSQL: stored with the game, claimed once by competing firers."""

from __future__ import annotations

import threading
from datetime import timedelta

from sqlalchemy import select

from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.deadlines import DeadlineService
from persistence.tables import game_events, games
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, ManualClock


def test_a_due_clock_fires_exactly_once_among_competing_firers(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    clock = ManualClock()
    service = Services.build(uow_factory, registry, FakePublisher(), clock)
    created = service.lobby.create_game("duel", None, "seed", clock={"mode": "per_decision", "seconds": 5})
    game_id = created.match.id
    for name in ("a", "b", "c"):
        service.seats.join(game_id, name)
    service.seats.start(game_id, created.host_token)
    with uow_factory.db_engine.connect() as connection:
        stored = connection.execute(select(games.c.next_deadline)).scalar_one()
    assert stored is not None
    assert stored.replace(tzinfo=None) == (clock.now() + timedelta(seconds=5)).replace(tzinfo=None)

    clock.advance(5)
    firers = [DeadlineService(service.core) for _ in range(6)]
    fired: list[int] = []
    barrier = threading.Barrier(len(firers))

    def fire(firer: DeadlineService) -> None:
        barrier.wait()
        fired.append(firer.fire_due())

    threads = [threading.Thread(target=fire, args=(f,)) for f in firers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(fired) == 1
    with uow_factory.db_engine.connect() as connection:
        expired = (
            connection.execute(select(game_events.c.data).where(game_events.c.type == "clock_expired"))
            .scalars()
            .all()
        )
        next_deadline = connection.execute(select(games.c.next_deadline)).scalar_one()
    assert sorted(e["seat"] for e in expired) == [0, 1, 2]
    assert next_deadline is None  # every seat is now played by a bot: nothing more to time
    match = service.core.load(game_id)
    assert [s.stand_in for s in match.seats] == ["lapsed"] * 3  # the stand-in plays this decision
    with uow_factory() as uow:
        assert uow.games.count_bot_only_in_progress() == 1, "the bot-only cap counts it meanwhile"
    while service.play.play_bot_turn(game_id):
        pass  # the stand-ins play the lapsed decisions: the seats are the people's again
    assert [s.stand_in for s in service.core.load(game_id).seats] == [None] * 3
    with uow_factory() as uow:
        assert uow.games.count_bot_only_in_progress() == 1, "nobody played: still bots only"


def test_an_abandoned_lobby_expires_in_the_database_and_a_young_one_stays(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    clock = ManualClock()
    service = Services.build(uow_factory, registry, FakePublisher(), clock)
    old = service.lobby.create_game("duel", None, None).match.id
    clock.advance(3600)
    young = service.lobby.create_game("duel", None, None).match.id
    clock.advance(1)
    assert DeadlineService(service.core, timedelta(hours=1)).fire_due() == 1
    assert service.core.load(old).status.value == "aborted"
    assert service.core.load(young).status.value == "lobby"
    (event,) = service.reads.history(old, 0, 10)
    assert (event.event.type, event.event.data["reason"]) == ("game_aborted", "lobby_expired")


def test_a_clockless_games_silent_seat_is_handed_to_the_stand_in_after_the_inactivity_limit(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    clock = ManualClock()
    service = Services.build(uow_factory, registry, FakePublisher(), clock)
    service.lobby.inactivity_days = 3
    created = service.lobby.create_game("duel", None, "seed")
    game_id = created.match.id
    for name in ("a", "b"):
        service.seats.join(game_id, name)
    service.seats.start(game_id, created.host_token)
    with uow_factory.db_engine.connect() as connection:
        stored = connection.execute(select(games.c.next_deadline)).scalar_one()
    assert stored.replace(tzinfo=None) == (clock.now() + timedelta(days=3)).replace(tzinfo=None)
    clock.advance(3 * 86400)
    assert DeadlineService(service.core).fire_due() == 1
    assert [s.stand_in for s in service.core.load(game_id).seats] == ["timeout", "timeout"]
    assert service.core.load(game_id).timing.public(clock.now())["inactivity_days"] == 3
