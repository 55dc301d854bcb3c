"""Tournaments on SQLite and PostgreSQL: a whole Swiss through the services, and a round created
once when two instances race for it (the guarded write and the tables' keys)."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations

import pytest
from sqlalchemy import Engine, Table, func, select

from domain.errors import VersionConflict
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.standing import StandingService
from domain.services.tournaments import TournamentService
from domain.tournaments.tournament import TournamentStatus
from persistence.tables import games, tournament_tables
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, ManualClock
from tests.support.tournament_play import Club

pytestmark = pytest.mark.timeout(120)


def club_on(uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry, clock: ManualClock) -> Club:
    services = Services.build(uow_factory, registry, FakePublisher(), clock)
    StandingService(services.core)
    return Club(services, PlayerService(services.core, services.seats), TournamentService(services.core))


def count(db_engine: Engine, table: Table, **where: object) -> int:
    query = select(func.count()).select_from(table)
    for column, value in where.items():
        query = query.where(table.c[column] == value)
    with db_engine.connect() as connection:
        return int(connection.execute(query).scalar_one())


def test_a_swiss_of_six_is_played_to_the_end_and_stored(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    club = club_on(uow_factory, registry, ManualClock())
    tournament, host = club.create(rounds=3)
    players = [club.join(f"player {n}") for n in range(6)]
    for player in players:
        club.tournaments.register(tournament.id, club.tokens[player])
    club.tournaments.start(tournament.id, host)
    for _ in range(3):
        assert club.tournaments.run_due()
        club.play_round(tournament.id)
    final = club.tournaments.get(tournament.id)
    assert final.status is TournamentStatus.FINISHED
    assert len(final.tables) == 9 and all(t.ranks is not None for t in final.tables)
    met = Counter(frozenset(p) for t in final.tables for p in combinations(t.players, 2))
    assert max(met.values()) == 1
    assert sum(r.games for r in final.standings()) == 18
    with uow_factory() as uow:
        assert sorted(r.games for r in uow.ratings.ratings("duel", players).values()) == [3] * 6
        assert uow.tournaments.of_game(final.tables[0].game_id) == tournament.id
    assert [t.id for t in club.tournaments.list_public("finished", 10, 0)] == [tournament.id]


def test_a_second_writer_of_the_same_round_is_refused_and_its_games_rolled_back(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry, db_engine: Engine
) -> None:
    clock = ManualClock()
    club = club_on(uow_factory, registry, clock)
    tournament, host = club.create(rounds=2)
    for n in range(4):
        club.tournaments.register(tournament.id, club.tokens[club.join(f"player {n}")])
    club.tournaments.start(tournament.id, host)
    service = club.tournaments
    with uow_factory() as second:
        late = second.tournaments.get(tournament.id)  # loaded before the first writer commits
        with uow_factory() as first:
            early = first.tournaments.get(tournament.id)
            pairing = early.pair_next(clock.now())
            assert pairing is not None
            service._seat_round(first, early, pairing, clock.now())
            first.tournaments.save(early)
            first.commit()
        pairing = late.pair_next(clock.now())
        assert pairing is not None
        service._seat_round(second, late, pairing, clock.now())
        with pytest.raises(VersionConflict):
            second.tournaments.save(late)
    assert count(db_engine, tournament_tables, tournament_id=tournament.id) == 2
    assert count(db_engine, games) == 2  # the loser's games went with its transaction
    assert not service.run_due()


def test_instances_racing_for_due_rounds_create_each_round_once(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry, db_engine: Engine
) -> None:
    clock = ManualClock()
    club = club_on(uow_factory, registry, clock)
    ids = []
    for n in range(4):
        tournament, host = club.create(name=f"night {n}", rounds=2)
        for p in range(4):
            club.tournaments.register(tournament.id, club.tokens[club.join(f"p{n}{p}")])
        club.tournaments.start(tournament.id, host)
        ids.append(tournament.id)
    instances = [club_on(SqlUnitOfWorkFactory(db_engine, registry), registry, clock) for _ in range(3)]
    start = threading.Barrier(len(instances))

    def runner(instance: Club) -> int:
        start.wait()
        done = 0
        while instance.tournaments.run_due():
            done += 1
        return done

    with ThreadPoolExecutor(len(instances)) as pool:
        done = sum(pool.map(runner, instances))
    assert done == 4
    for tournament_id in ids:
        assert count(db_engine, tournament_tables, tournament_id=tournament_id) == 2
        assert club.tournaments.get(tournament_id).current_round == 1
    assert count(db_engine, games) == 8
