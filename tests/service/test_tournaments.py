"""Tournaments with fakes: registration until the start, start by the host or at the start time,
round games seated with the players and started together, the next round paired when the last
game ends (or after the pause), withdrawal, results in the ratings, exactly once."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from itertools import combinations

import pytest

from domain.errors import (
    AlreadyRegistered,
    Forbidden,
    InvalidRequest,
    NotEnoughPlayers,
    RegistrationClosed,
    TournamentFull,
    UnknownGameType,
)
from domain.model.match import MatchStatus
from domain.model.ratings import ranks
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.standing import StandingService
from domain.services.tournaments import TournamentService, tournament_channel
from domain.tournaments.scoring import place_points
from domain.tournaments.tournament import TournamentStatus
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock
from tests.support.tournament_play import Club


@pytest.fixture
def club() -> Club:
    store = FakeRepository()
    services = Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), ManualClock()
    )
    StandingService(services.core)  # ratings, in the transaction recording each game's end
    return Club(services, PlayerService(services.core, services.seats), TournamentService(services.core))


def clock(club: Club) -> ManualClock:
    moment = club.services.core.clock
    assert isinstance(moment, ManualClock)
    return moment


def test_a_swiss_of_four_plays_its_rounds_and_feeds_the_ratings(club: Club) -> None:
    tournament, host = club.create(rounds=3)
    players = [club.join(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    for player in players:
        club.tournaments.register(tournament.id, club.tokens[player])
    started = club.tournaments.start(tournament.id, host)
    assert started.status is TournamentStatus.RUNNING and started.planned_rounds == 3
    assert club.tournaments.run_due()
    first = club.tournaments.get(tournament.id)
    assert first.current_round == 1 and len(first.tables) == 2
    for table in first.tables:
        match = club.services.core.load(table.game_id)
        # seated together, each seat tied to its player, and started
        assert match.status is MatchStatus.IN_PROGRESS
        assert [s.player_id for s in match.seats] == list(table.players)
    assert not club.tournaments.run_due()  # nothing due while round 1 runs
    for round_no in (1, 2, 3):
        after = club.play_round(tournament.id)
        assert all(t.ranks is not None for t in after.tables)
        if round_no < 3:
            assert after.next_round_at == clock(club).now()
            assert club.tournaments.run_due()
    final = club.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED and final.current_round == 3
    met = Counter(frozenset(p) for t in final.tables for p in combinations(t.players, 2))
    assert max(met.values()) == 1
    # each table's result is the game's own ranks, and the points add up
    for table in final.tables:
        assert table.ranks == tuple(ranks(club.services.core.load(table.game_id)))
    rows = final.standings()
    assert sum(r.points for r in rows) == sum(sum(place_points(t.ranks or ())) for t in final.tables)
    assert sum(r.games for r in rows) == 12
    # the games were rated as any other: three games each
    with club.services.core.uow() as uow:
        rated = uow.ratings.ratings("duel", players)
    assert sorted(r.games for r in rated.values()) == [3, 3, 3, 3]
    published = [
        e.event.type
        for key, events in club.services.core.publisher.published  # type: ignore[attr-defined]
        if key == tournament_channel(tournament.id)
        for e in events
    ]
    assert published.count("round_started") == 3 and published[-1] == "tournament_finished"


def test_registration_is_open_until_the_start_and_refuses_twice_and_beyond_the_limit(club: Club) -> None:
    tournament, host = club.create(max_players=2)
    ann, bob, cy = (club.join(n) for n in ("Ann", "Bob", "Cy"))
    club.tournaments.register(tournament.id, club.tokens[ann])
    with pytest.raises(AlreadyRegistered):
        club.tournaments.register(tournament.id, club.tokens[ann])
    club.tournaments.register(tournament.id, club.tokens[bob])
    with pytest.raises(TournamentFull):
        club.tournaments.register(tournament.id, club.tokens[cy])
    club.tournaments.unregister(tournament.id, club.tokens[bob])
    club.tournaments.register(tournament.id, club.tokens[cy])
    with pytest.raises(Forbidden):
        club.tournaments.start(tournament.id, club.tokens[ann])
    club.tournaments.start(tournament.id, host)
    with pytest.raises(RegistrationClosed):
        club.tournaments.unregister(tournament.id, club.tokens[cy])
    with pytest.raises(RegistrationClosed):
        club.tournaments.register(tournament.id, club.tokens[bob])
    assert [e.player_id for e in club.tournaments.get(tournament.id).entrants] == [ann, cy]


def test_settings_are_checked_when_the_tournament_is_created(club: Club) -> None:
    with pytest.raises(UnknownGameType):
        club.create(game_type="chess")
    with pytest.raises(InvalidRequest, match="table_size"):
        club.create(table_size=4)  # duel seats 2 or 3
    with pytest.raises(InvalidRequest, match="format"):
        club.create(fmt="double_elimination")
    with pytest.raises(InvalidRequest, match="clock"):
        club.create(clock=None)  # rated by default, and games without a clock are never rated
    unrated, _ = club.create(clock=None, rated=False)
    assert unrated.rated is False


def test_the_tournament_starts_at_its_time_or_is_cancelled_with_too_few_players(club: Club) -> None:
    start = clock(club).now() + timedelta(minutes=10)
    tournament, _ = club.create(starts_at=start)
    lonely, _ = club.create(starts_at=start)
    for name in ("Ann", "Bob"):
        club.tournaments.register(tournament.id, club.tokens[club.join(name)])
    club.tournaments.register(lonely.id, club.tokens[club.join("Cy")])
    assert not club.tournaments.run_due()
    clock(club).advance(600)
    while club.tournaments.run_due():
        pass
    running = club.tournaments.get(tournament.id)
    assert running.status is TournamentStatus.RUNNING and running.current_round == 1
    assert len(running.tables) == 1
    assert club.tournaments.get(lonely.id).status is TournamentStatus.CANCELLED
    with pytest.raises(NotEnoughPlayers):
        other, host = club.create()
        club.tournaments.start(other.id, host)


def test_the_next_round_waits_for_the_hosts_pause(club: Club) -> None:
    tournament, host = club.create(rounds=2, pause_seconds=120)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        club.tournaments.register(tournament.id, club.tokens[club.join(name)])
    club.tournaments.start(tournament.id, host)
    club.tournaments.run_due()
    club.play_round(tournament.id)
    assert not club.tournaments.run_due()
    clock(club).advance(119)
    assert not club.tournaments.run_due()
    clock(club).advance(1)
    assert club.tournaments.run_due()
    assert club.tournaments.get(tournament.id).current_round == 2


def test_a_withdrawn_player_forfeits_the_game_it_is_in_and_is_paired_no_more(club: Club) -> None:
    tournament, host = club.create(rounds=2)
    players = [club.join(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    for player in players:
        club.tournaments.register(tournament.id, club.tokens[player])
    club.tournaments.start(tournament.id, host)
    club.tournaments.run_due()
    leaving = players[0]
    club.tournaments.withdraw(tournament.id, club.tokens[leaving])
    running = club.tournaments.get(tournament.id)
    table = next(t for t in running.tables if leaving in t.players)
    match = club.services.core.load(table.game_id)
    seat = table.players.index(leaving)
    assert match.seats[seat].stand_in == "resigned"
    after = club.play_round(tournament.id)
    finished = next(t for t in after.tables if t.game_id == table.game_id)
    assert finished.ranks is not None and finished.ranks[seat] == 2  # quitters rank last
    assert club.tournaments.run_due()
    second = club.tournaments.get(tournament.id)
    paired = {p for t in second.tables if t.round == 2 for p in t.players} | {
        b.player for b in second.byes if b.round == 2
    }
    assert leaving not in paired and len(paired) == 3


def test_a_round_is_created_once_when_two_runners_find_it_due(club: Club) -> None:
    tournament, host = club.create(rounds=2)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        club.tournaments.register(tournament.id, club.tokens[club.join(name)])
    club.tournaments.start(tournament.id, host)
    other = TournamentService(club.services.core)  # a second instance over the same store
    assert club.tournaments.run_due()
    assert not other.run_due()
    assert len(club.tournaments.get(tournament.id).tables) == 2


def test_a_single_elimination_of_five_ends_with_one_winner_after_three_rounds(club: Club) -> None:
    tournament, host = club.create(fmt="single_elimination")
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        club.tournaments.register(tournament.id, club.tokens[club.join(name)])
    assert club.tournaments.start(tournament.id, host).planned_rounds == 3
    played = []
    while club.tournaments.run_due():
        after = club.play_round(tournament.id)
        played.append(
            (
                len([t for t in after.tables if t.round == after.current_round]),
                len([b for b in after.byes if b.round == after.current_round]),
            )
        )
    final = club.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED
    assert played == [(1, 3), (2, 0), (1, 0)]  # the best three seeds rest in round 1
    rows = final.standings()
    assert [r.eliminated for r in rows] == [False, True, True, True, True]
    final_table = next(t for t in final.tables if t.round == 3)
    assert final_table.ranks is not None
    assert final_table.ranks[final_table.players.index(rows[0].player)] == min(final_table.ranks)


def test_a_round_robin_at_tables_of_three_seats_everyone_together_once(club: Club) -> None:
    tournament, host = club.create(fmt="round_robin", table_size=3)
    for name in ("Ann", "Bob", "Cy"):
        club.tournaments.register(tournament.id, club.tokens[club.join(name)])
    assert club.tournaments.start(tournament.id, host).planned_rounds == 1
    assert club.tournaments.run_due()
    (table,) = club.tournaments.get(tournament.id).tables
    assert len(club.services.core.load(table.game_id).seats) == 3
    final = club.play_round(tournament.id)
    assert final.status is TournamentStatus.FINISHED
    assert sorted(str(r.points) for r in final.standings()) == sorted(
        str(p) for p in place_points(final.tables[0].ranks or ())
    )
