"""Take-backs stored on SQLite and PostgreSQL: the bookkeeping and the choices log's take-back
entry survive a reload, and the ended game replays to the state the take-back left."""

from __future__ import annotations

from domain.registry import default_registry
from domain.services.bundle import Services
from domain.services.replay import ReplayService
from domain.services.takebacks import TakeBackService
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.duel_play import person_token
from tests.support.fakes import FakePublisher, FixedClock


def test_a_stored_take_back_reloads_and_replays(uow_factory: SqlUnitOfWorkFactory) -> None:
    registry = default_registry()
    factory = SqlUnitOfWorkFactory(uow_factory.db_engine, registry)
    games = Services.build(factory, registry, FakePublisher(), FixedClock())
    takebacks = TakeBackService(games.core)
    created = games.lobby.create_game("carcassonne", None, "takeback-proof", "host")
    game_id = created.match.id
    tokens = [person_token(games.seats.join(game_id, name)) for name in ("ada", "bo")]
    games.seats.start(game_id, created.host_token)
    before = games.core.load(game_id)
    assert before.takebacks.allowed and before.takeback_rules is not None
    for _ in range(40):  # lay tiles until one is followed by a figure step (no draw yet)
        match = games.core.load(game_id)
        decision = match.decision()
        assert decision is not None
        seat = decision.seats[0]
        before = match
        games.play.submit(game_id, tokens[seat], match.engine.legal_choices(match.state, seat)[0])
        if games.core.load(game_id).takebacks.target_of(seat) is not None:
            break
    placed = games.core.load(game_id)
    assert [p.seats for p in placed.takebacks.points] == [(seat,)]

    takebacks.request(game_id, tokens[seat])

    after = games.core.load(game_id)
    assert after.engine.dump(after.state) == before.engine.dump(before.state)
    assert after.takebacks.points == [] and after.takebacks.request is None
    with factory() as uow:
        log = uow.games.applied_choices(game_id)
        events = uow.games.events(game_id, after.last_seq - 1, after.last_seq)
    assert log[-1].undoes == (placed.takebacks.points[0].version,) and log[-1].choices == {}
    assert events[-1].event.type == "taken_back"
    assert events[-1].event.private[seat]["view"] == after.view(seat)
    games.seats.abort(game_id, created.host_token)
    final = games.core.load(game_id)
    replayed = ReplayService(games.core).at(game_id, final.last_seq, seat)
    assert replayed.matches_final_state is True and replayed.state == after.view(seat)
