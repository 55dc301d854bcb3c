"""A real game of bots, stored on SQLite and PostgreSQL, replays exactly from its seed and choices."""

from __future__ import annotations

from domain.registry import default_registry
from domain.services.bundle import Services
from domain.services.replay import ReplayService
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, FixedClock


def test_a_stored_four_player_game_replays_to_its_final_state(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    registry = default_registry()
    factory = SqlUnitOfWorkFactory(uow_factory.db_engine, registry)
    games = Services.build(factory, registry, FakePublisher(), FixedClock())
    created = games.lobby.create_game("im-schutze-der-burg", None, "replay-proof")
    game_id = created.match.id
    for _ in range(4):
        games.seats.join(game_id, "bot", "random", created.host_token)
    games.seats.start(game_id, created.host_token)
    while games.play.play_bot_turn(game_id):
        pass
    final = games.core.load(game_id)
    assert final.status.value == "finished"
    replayed = ReplayService(games.core).at(game_id, final.last_seq, 2)
    assert replayed.matches_final_state is True
    assert replayed.state == final.view(2)
