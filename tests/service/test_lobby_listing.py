"""The lobby lists what a player can really join (issue 19 item 4): anonymous creates are never
listed, open listed lobbies are capped per player and per client address, entries say who
created them, their clock and whether they can be rated, and a host removes and blocks a
seat-taker (player identity and client address)."""

from __future__ import annotations

import pytest

from domain.engine import JSON
from domain.errors import Forbidden, InvalidRequest, SeatBlocked, TooManyListedGames
from domain.model.lobby import LobbyFilter
from domain.model.players import Player
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock

PER_SEAT_CLOCK: dict[str, JSON] = {"mode": "per_decision", "seconds": 60}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def service(clock: ManualClock) -> Services:
    store = FakeRepository()
    service = Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), clock
    )
    service.lobby.max_open_listed_per_player = 2
    service.lobby.max_open_listed_per_address = 3
    return service


def listed_ids(service: Services, where: LobbyFilter | None = None) -> list[str]:
    return [s.id for s in service.lobby.list_games(where or LobbyFilter(), 200).items]


def test_anonymous_creates_are_never_listed_however_many(service: Services) -> None:
    for _ in range(150):
        service.lobby.create_game("duel", None, None, address="10.0.0.9")
    assert listed_ids(service) == []
    assert service.lobby.list_games(LobbyFilter(joinable=True), 50).total == 0


def test_open_listed_lobbies_are_capped_per_player_and_per_address(service: Services) -> None:
    first = service.lobby.create_game("duel", None, None, creator_id="p1", address="10.0.0.1")
    service.lobby.create_game("duel", None, None, creator_id="p1", address="10.0.0.1")
    assert first.match.listed
    with pytest.raises(TooManyListedGames, match="player"):
        service.lobby.create_game("duel", None, None, creator_id="p1", address="10.0.0.2")
    service.lobby.create_game("duel", None, None, creator_id="p2", address="10.0.0.1")
    with pytest.raises(TooManyListedGames, match="client address"):
        service.lobby.create_game("duel", None, None, creator_id="p3", address="10.0.0.1")
    # private and anonymous games cost no listed slot; starting or aborting a lobby frees one
    service.lobby.create_game("duel", None, None, private=True, creator_id="p1", address="10.0.0.1")
    service.seats.abort(first.match.id, first.host_token)
    service.lobby.create_game("duel", None, None, creator_id="p1", address="10.0.0.1")
    assert len(listed_ids(service, LobbyFilter("lobby"))) == 3


def test_an_entry_names_its_creator_age_seats_clock_and_why_it_is_not_rated(
    service: Services, clock: ManualClock
) -> None:
    with service.core.uow() as uow:
        uow.players.add(Player("p1", "Ann", "hash", clock.now()))
        uow.commit()
    rated = service.lobby.create_game("duel", None, None, clock=PER_SEAT_CLOCK, creator_id="p1")
    casual = service.lobby.create_game("duel", None, None, creator_id="p1")
    service.seats.join(casual.match.id, "guest")
    clock.advance(90)
    entries = {s.id: s for s in service.lobby.list_games(LobbyFilter(), 10).items}
    ranked, friendly = entries[rated.match.id], entries[casual.match.id]
    assert ranked.creator is not None and ranked.creator.name == "Ann"
    assert ranked.creator.finishing_rate is None and ranked.age_seconds == 90
    assert (ranked.players, ranked.max_players, ranked.open_seats) == (0, 3, 3)
    assert ranked.clock.mode == "per_decision" and ranked.unrated_reasons == ()
    assert friendly.unrated_reasons == ("anonymous_seat", "no_clock")
    assert friendly.open_seats == 2


def test_filters_by_free_seats_player_count_and_clock(service: Services, clock: ManualClock) -> None:
    clocked = service.lobby.create_game("duel", None, None, clock=PER_SEAT_CLOCK, creator_id="p1")
    clock.advance(1)
    empty = service.lobby.create_game("duel", {"rounds": 1}, None, creator_id="p2").match.id
    clock.advance(1)
    plain = service.lobby.create_game("duel", None, None, creator_id="p3").match.id
    service.seats.join(plain, "ann")
    service.seats.join(plain, "bob")
    assert listed_ids(service, LobbyFilter(clock="per_decision")) == [clocked.match.id]
    assert listed_ids(service, LobbyFilter(clock="none")) == [plain, empty]
    assert listed_ids(service, LobbyFilter(open_seats=2)) == [empty, clocked.match.id]
    assert listed_ids(service, LobbyFilter(players=3)) == [plain, empty, clocked.match.id]
    assert listed_ids(service, LobbyFilter(players=2)) == []
    with pytest.raises(InvalidRequest):
        LobbyFilter(clock="hourglass")
    with pytest.raises(InvalidRequest):
        LobbyFilter(open_seats=0)


def test_the_host_removes_and_blocks_a_seat_taker_by_player_and_by_address(
    service: Services,
) -> None:
    created = service.lobby.create_game("duel", None, None, creator_id="p1")
    game_id, host = created.match.id, created.host_token
    squatter = service.seats.join(game_id, "squat", player_id="p9", address="10.0.0.9")
    anonymous = service.seats.join(game_id, "anon", address="10.0.0.7")
    with pytest.raises(Forbidden):
        service.seats.remove_seat(game_id, squatter.seat, squatter.token, block=True)
    service.seats.remove_seat(game_id, squatter.seat, host, block=True)
    with pytest.raises(SeatBlocked):
        service.seats.join(game_id, "squat again", player_id="p9", address="10.0.0.50")
    with pytest.raises(SeatBlocked):
        service.seats.join(game_id, "new identity", address="10.0.0.9")
    service.seats.remove_seat(game_id, 0, host, block=True)  # "anon" moved up to seat 0
    assert anonymous.seat == 1
    with pytest.raises(SeatBlocked):
        service.seats.join(game_id, "anon", address="10.0.0.7")
    # a plain removal blocks nobody; others still sit down
    friend = service.seats.join(game_id, "friend", address="10.0.0.3")
    service.seats.remove_seat(game_id, friend.seat, host)
    service.seats.join(game_id, "friend", address="10.0.0.3")
    assert [s.name for s in service.core.load(game_id).seats] == ["friend"]
