"""Rematch with fakes: same type, options, clock and seats; bots sit down, people take their seat."""

from __future__ import annotations

import pytest

from domain.errors import GameNotFinished, NotEnoughPlayers, RematchExists, Unauthorized
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.rematch import RematchService
from tests.support.duel_game import DuelEngine
from tests.support.duel_play import person_token
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock


@pytest.fixture
def service() -> Services:
    store = FakeRepository()
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), ManualClock()
    )


def finished_game(service: Services) -> tuple[str, str, list[str], str]:
    players = PlayerService(service.core, service.seats)
    ann = players.create("Ann")
    created = service.lobby.create_game(
        "duel", {"rounds": 1}, "seed", clock={"mode": "per_decision", "seconds": 60}
    )
    game_id = created.match.id
    tokens = [
        person_token(service.seats.join(game_id, "Bob")),
        person_token(players.join(game_id, ann.token, None)),
    ]
    service.seats.join(game_id, "random bot", "random", created.host_token)
    service.seats.start(game_id, created.host_token)
    service.play.submit(game_id, tokens[0], {"card": 3})
    service.play.submit(game_id, tokens[1], {"card": 2})
    while service.play.play_bot_turn(game_id):
        pass
    service.play.submit(game_id, tokens[0], {"action": "pass"})
    assert service.core.load(game_id).status.value == "finished"
    return game_id, created.host_token, tokens, ann.token


def test_a_rematch_keeps_type_options_clock_and_seats_and_links_both_games(
    service: Services,
) -> None:
    game_id, _, tokens, ann = finished_game(service)
    created = RematchService(service.core).create(game_id, tokens[0])  # any seat may ask
    new = created.match
    old = service.core.load(game_id)
    assert old.rematch_id == new.id and new.rematch_of == game_id
    assert (new.game_type, new.options) == (old.game_type, old.options)
    assert new.timing.settings == old.timing.settings and new.seed != old.seed
    assert [(s.name, s.bot, s.confirmed) for s in new.seats] == [
        ("Bob", None, False),
        ("Ann", None, False),
        ("random bot", "random", True),
    ]
    with pytest.raises(NotEnoughPlayers, match="have not joined yet"):
        service.seats.start(new.id, created.host_token)

    bob = RematchService(service.core).take_held_seat(new.id, tokens[0])
    assert bob is not None and bob.seat == 0 and bob.token != tokens[0]
    assert RematchService(service.core).take_held_seat(new.id, tokens[0]) is None  # the old token is spent
    ann_seat = PlayerService(service.core, service.seats).join(
        new.id, ann, None
    )  # the player token takes seat 1
    assert ann_seat.seat == 1
    started = service.seats.start(new.id, created.host_token)
    assert started.status.value == "in_progress" and len(started.seats) == 3
    mine = PlayerService(service.core, service.seats).games_of(ann, 10, 0)
    assert [g.game_id for g in mine][:2] == [new.id, game_id]


def test_only_a_finished_game_gets_one_rematch_from_its_own_tokens(service: Services) -> None:
    game_id, host, tokens, _ = finished_game(service)
    with pytest.raises(Unauthorized):
        RematchService(service.core).create(game_id, "stranger")
    with pytest.raises(Unauthorized):
        RematchService(service.core).create(game_id, None)
    RematchService(service.core).create(game_id, host)
    with pytest.raises(RematchExists):
        RematchService(service.core).create(game_id, tokens[1])
    lobby = service.lobby.create_game("duel", None, None)
    with pytest.raises(GameNotFinished):
        RematchService(service.core).create(lobby.match.id, lobby.host_token)


def test_the_rematch_starts_by_itself_when_its_last_held_seat_is_taken(service: Services) -> None:
    game_id, _, tokens, _ = finished_game(service)
    rematches = RematchService(service.core)
    new = rematches.create(game_id, tokens[0]).match
    assert rematches.take_held_seat(new.id, tokens[0]) is not None
    assert service.core.load(new.id).status.value == "lobby"  # Ann's seat is still held
    assert rematches.take_held_seat(new.id, tokens[1]) is not None
    started = service.core.load(new.id)
    assert started.status.value == "in_progress"
    assert [r.event.type for r in service.reads.history(new.id, 0, 100)].count("game_started") == 1
