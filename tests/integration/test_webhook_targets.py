"""The webhook targets of a move, answered by the game's locking read on PostgreSQL: the outbox
skips its own query when that read found none, and still sees an endpoint registered anywhere
before the move (here through another engine, as on another instance)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, event

from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.webhooks import WebhookService
from persistence.database import create_db_engine
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, ManualClock


def allow(url: str) -> None:
    return None


def services(factory: SqlUnitOfWorkFactory, registry: EngineRegistry) -> Services:
    return Services.build(factory, registry, FakePublisher(), ManualClock(datetime.now(UTC)))


@pytest.fixture
def other_instance(db_engine: Engine, registry: EngineRegistry) -> Iterator[Services]:
    """Another engine on the same database: nothing in memory shared with ``uow_factory``'s."""
    other = create_db_engine(db_engine.url)
    yield services(SqlUnitOfWorkFactory(other, registry), registry)
    other.dispose()


def started_duel(games: Services) -> tuple[str, str, list[str], list[str]]:
    """A duel of two players (Ann and Bob) without endpoints: game id, host token, seat tokens,
    player tokens."""
    people = PlayerService(games.core, games.seats)
    created = games.lobby.create_game("duel", {"rounds": 3}, "seed")
    seats, players = [], []
    for name in ("Ann", "Bob"):
        player = people.create(name)
        joined = people.join(created.match.id, player.token, None)
        assert joined.token is not None
        seats.append(joined.token)
        players.append(player.token)
    games.seats.start(created.match.id, created.host_token)
    return created.match.id, created.host_token, seats, players


def deliveries(factory: SqlUnitOfWorkFactory, endpoint_id: str) -> list[Any]:
    with factory() as uow:
        return uow.webhooks.deliveries_of(endpoint_id, 100)


def statements_during(db_engine: Engine, action: Any) -> list[str]:
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(db_engine, "before_cursor_execute", count)
    try:
        action()
    finally:
        event.remove(db_engine, "before_cursor_execute", count)
    return seen


@pytest.mark.parametrize("owner", ["player", "host"])
def test_an_endpoint_registered_on_another_instance_gets_the_next_move(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry, other_instance: Services, owner: str
) -> None:
    games = services(uow_factory, registry)
    game_id, host_token, tokens, players = started_duel(games)
    games.play.submit(game_id, tokens[0], {"card": 3})  # no endpoint yet: nothing to deliver

    register = WebhookService(other_instance.core, allow).register
    endpoint = (
        register(players[1], "https://bob.example/", ["all"], None)
        if owner == "player"
        else register(host_token, "https://host.example/", ["all"], game_id)
    )
    assert deliveries(uow_factory, endpoint.id) == []
    games.play.submit(game_id, tokens[1], {"card": 2})

    sent = deliveries(uow_factory, endpoint.id)
    assert sent and {d.game_id for d in sent} == {game_id}


def test_a_player_with_an_endpoint_who_joins_is_looked_up_in_the_same_work(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    """The locking read saw the seats before the join: the joining player's endpoint still counts."""
    games = services(uow_factory, registry)
    people = PlayerService(games.core, games.seats)
    created = games.lobby.create_game("duel", {"rounds": 1}, "seed")
    ann = people.create("Ann")
    endpoint = WebhookService(games.core, allow).register(ann.token, "https://ann.example/", ["all"], None)
    people.join(created.match.id, ann.token, None)
    assert deliveries(uow_factory, endpoint.id) != []


@pytest.mark.postgres
def test_a_move_without_webhook_targets_asks_postgresql_no_separate_question(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    factory = SqlUnitOfWorkFactory(postgres_engine, registry)
    games = services(factory, registry)
    game_id, host_token, tokens, _ = started_duel(games)

    seen = statements_during(postgres_engine, lambda: games.play.submit(game_id, tokens[0], {"card": 3}))
    lookups = [s for s in seen if s.lstrip().startswith("SELECT webhook_endpoints.")]
    assert lookups == []
    assert any("FOR UPDATE OF games" in s and "webhook_endpoints" in s for s in seen)

    register = WebhookService(games.core, allow).register
    endpoint = register(host_token, "https://host.example/", ["all"], game_id)
    seen = statements_during(postgres_engine, lambda: games.play.submit(game_id, tokens[1], {"card": 2}))
    assert [s for s in seen if s.lstrip().startswith("SELECT webhook_endpoints.")] != []
    assert deliveries(factory, endpoint.id) != []
