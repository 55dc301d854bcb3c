"""Players with fakes: tokens, seats tied to players, "my games" with turn and since-when, re-issue."""

from __future__ import annotations

import pytest

from domain.errors import Forbidden, GameNotFound, Unauthorized
from domain.model.tokens import hash_token
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def games(clock: ManualClock) -> Services:
    store = FakeRepository()
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), clock
    )


@pytest.fixture
def players(games: Services) -> PlayerService:
    return PlayerService(games.core, games.seats)


def test_a_player_token_is_shown_once_and_stored_only_as_a_hash(players: PlayerService) -> None:
    created = players.create("Ann")
    assert created.player.token_hash == hash_token(created.token)
    assert created.token not in repr(created.player)
    assert players.authenticate(created.token).id == created.player.id
    with pytest.raises(Unauthorized):
        players.authenticate("not-a-player-token")
    with pytest.raises(Unauthorized):
        players.authenticate(None)


def test_my_games_says_whose_turn_it_is_and_since_when(
    games: Services, players: PlayerService, clock: ManualClock
) -> None:
    ann = players.create("Ann")
    created = games.lobby.create_game("duel", {"rounds": 1}, "seed")
    game_id = created.match.id
    seat = players.join(game_id, ann.token, None)
    other = games.seats.join(game_id, "Bob")
    assert games.core.load(game_id).seats[seat.seat].name == "Ann"
    (lobby,) = players.games_of(ann.token, 10, 0)
    assert (lobby.status, lobby.your_turn, lobby.waiting_since) == ("lobby", False, None)

    clock.advance(5)
    started_at = clock.now()
    games.seats.start(game_id, created.host_token)
    (mine,) = players.games_of(ann.token, 10, 0)
    assert (mine.status, mine.seat, mine.your_turn) == ("in_progress", 0, True)
    assert mine.waiting_since == started_at
    assert mine.deadline is None

    clock.advance(3)
    games.play.submit(game_id, seat.token, {"card": 3})  # sealed: no longer waited for
    (mine,) = players.games_of(ann.token, 10, 0)
    assert (mine.your_turn, mine.waiting_since) == (False, None)
    games.play.submit(game_id, other.token, {"card": 1})  # reveal: Ann (first seat) banks or passes
    (mine,) = players.games_of(ann.token, 10, 0)
    assert mine.your_turn and mine.waiting_since == clock.now()


def test_my_games_lists_only_the_players_own_seats_newest_first(
    games: Services, players: PlayerService, clock: ManualClock
) -> None:
    ann, bob = players.create("Ann"), players.create("Bob")
    first = games.lobby.create_game("duel", None, None).match.id
    second = games.lobby.create_game("duel", None, None).match.id
    players.join(first, ann.token, "Ann the First")
    clock.advance(1)
    players.join(second, ann.token, None)
    players.join(second, bob.token, None)
    assert [g.game_id for g in players.games_of(ann.token, 10, 0)] == [second, first]
    assert [g.game_id for g in players.games_of(ann.token, 1, 1)] == [first]
    assert [(g.game_id, g.seat) for g in players.games_of(bob.token, 10, 0)] == [(second, 1)]
    assert games.core.load(first).seats[0].name == "Ann the First"


def test_a_lost_seat_token_is_reissued_only_for_the_players_own_seat(
    games: Services, players: PlayerService
) -> None:
    ann, bob = players.create("Ann"), players.create("Bob")
    created = games.lobby.create_game("duel", {"rounds": 1}, "seed")
    game_id = created.match.id
    lost = players.join(game_id, ann.token, None)
    games.seats.join(game_id, "anonymous")
    games.seats.start(game_id, created.host_token)
    before = games.core.load(game_id).version

    reissued = players.reissue_seat_token(ann.token, game_id, 0)
    assert reissued.seat == 0 and reissued.token != lost.token
    assert reissued.version == before + 1
    with pytest.raises(Unauthorized):  # the old seat token stops working
        games.play.submit(game_id, lost.token, {"card": 1})
    assert games.play.submit(game_id, reissued.token, {"card": 1}).status == "sealed"

    with pytest.raises(Forbidden):
        players.reissue_seat_token(bob.token, game_id, 0)
    with pytest.raises(Forbidden):  # the anonymous seat belongs to no player
        players.reissue_seat_token(ann.token, game_id, 1)
    with pytest.raises(GameNotFound):
        players.reissue_seat_token(ann.token, game_id, 7)
    with pytest.raises(Unauthorized):
        players.reissue_seat_token("nobody", game_id, 0)


def test_anonymous_seats_keep_working_beside_player_seats(games: Services, players: PlayerService) -> None:
    ann = players.create("Ann")
    created = games.lobby.create_game("duel", {"rounds": 1}, "seed")
    anonymous = games.seats.join(created.match.id, "anon")
    players.join(created.match.id, ann.token, None)
    games.seats.start(created.match.id, created.host_token)
    assert games.play.submit(created.match.id, anonymous.token, {"card": 2}).status == "sealed"
    match = games.core.load(created.match.id)
    assert match.seats[0].player_id is None
    assert match.seats[1].player_id == ann.player.id
