"""Players on real SQLite and PostgreSQL: the seat link is written with the join, tokens are hashed."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from domain.errors import GameFull
from domain.registry import EngineRegistry
from domain.services.players import PlayerService
from persistence.tables import player_seats, players
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.duel_play import game_service


def test_players_games_and_reissued_tokens_survive_in_the_database(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    games = game_service(uow_factory, registry)
    service = PlayerService(games.core, games.seats)
    ann = service.create("Ann")
    created = games.lobby.create_game("duel", {"rounds": 1}, "seed")
    game_id = created.match.id
    service.join(game_id, ann.token, None)
    games.seats.join(game_id, "Bob")
    games.seats.start(game_id, created.host_token)

    (mine,) = service.games_of(ann.token, 10, 0)
    assert (mine.game_id, mine.seat, mine.status, mine.your_turn) == (game_id, 0, "in_progress", True)
    assert mine.waiting_since is not None

    reissued = service.reissue_seat_token(ann.token, game_id, 0)
    assert games.play.submit(game_id, reissued.token, {"card": 2}).status == "sealed"
    with uow_factory.db_engine.connect() as connection:
        stored = connection.execute(select(players)).mappings().one()
        links = connection.execute(select(player_seats)).mappings().all()
    assert stored["token_hash"] != ann.token and ann.token not in str(dict(stored))
    assert [(link["game_id"], link["seat"]) for link in links] == [(game_id, 0)]


def test_a_refused_join_leaves_no_seat_link(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    games = game_service(uow_factory, registry)
    service = PlayerService(games.core, games.seats)
    ann = service.create("Ann")
    created = games.lobby.create_game("duel", None, None)
    for name in ("a", "b", "c"):
        games.seats.join(created.match.id, name)
    with pytest.raises(GameFull):
        service.join(created.match.id, ann.token, None)
    assert service.games_of(ann.token, 10, 0) == []
