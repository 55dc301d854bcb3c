"""Kept engine states (``persistence.hot_states``) serve exactly the game a full load would.

Random games of every hosted game, stored on SQLite and PostgreSQL: after every step the game as
served from memory (the state the next change applies to) must equal a full load of the row, in
its dump and in everything the engine answers from it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine

from domain.model.match import Match
from domain.registry import default_registry
from domain.services.bundle import Services
from persistence.group_commit import GroupCommitter
from persistence.hot_states import HotStates
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, FixedClock

GAMES = [("carcassonne", 3), ("im-schutze-der-burg", 3), ("keythedral", 2)]
MAX_STEPS = 250  # a Keythedral game lasts ~850 steps; the others end before this


@pytest.fixture
def committers() -> Iterator[list[GroupCommitter]]:
    """The test's group committers, closed after it: their writer threads must not outlive it
    (tests/integration/test_group_commit.py, on the same xdist worker, checks that none is left)."""
    opened: list[GroupCommitter] = []
    yield opened
    for committer in opened:
        committer.close()


def _bot_game(
    db_engine: Engine, slug: str, players: int, committers: list[GroupCommitter] | None = None
) -> tuple[Services, HotStates, str]:
    """With ``committers``: moves written by a new ``GroupCommitter``, added to that list."""
    registry = default_registry()
    hot = HotStates(capacity=4)
    units = SqlUnitOfWorkFactory(db_engine, registry, hot)
    committer = None
    if committers is not None:
        committer = GroupCommitter(units)
        committers.append(committer)
    games = Services.build(units, registry, FakePublisher(), FixedClock(), committer)
    created = games.lobby.create_game(slug, None, f"hot-{slug}")
    for _ in range(players):
        games.seats.join(created.match.id, "bot", "random", created.host_token)
    games.seats.start(created.match.id, created.host_token)
    return games, hot, created.match.id


def _full_load(db_engine: Engine, game_id: str) -> Match:
    with SqlUnitOfWorkFactory(db_engine, default_registry())() as uow:
        return uow.games.get(game_id)


def _answers(match: Match) -> dict[str, Any]:
    """Everything the engine derives from a state, as JSON-comparable values."""
    engine, state = match.engine, match.state
    seats = range(len(match.seats))
    return {
        "dump": engine.dump(state),
        "decision": engine.decision(state),
        "choices": [engine.legal_choices(state, seat) for seat in seats],
        "views": [engine.view(state, viewer) for viewer in [*seats, None]],
        "outcome": engine.outcome(state),
    }


@pytest.mark.parametrize("grouped", [False, True], ids=["one-by-one", "group-commit"])
@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_every_state_served_from_memory_equals_a_full_load(
    db_engine: Engine, slug: str, players: int, grouped: bool, committers: list[GroupCommitter]
) -> None:
    games, hot, game_id = _bot_game(db_engine, slug, players, committers if grouped else None)
    steps = 0
    while steps < MAX_STEPS and games.play.play_bot_turn(game_id):
        steps += 1
        served = games.core.load(game_id)
        assert _answers(served) == _answers(_full_load(db_engine, game_id)), f"step {steps}"
    assert steps > 30
    if games.core.registry.game(slug).copy_state is not None:
        # every bot turn and every check after it loaded from memory
        assert hot.hits >= 2 * steps
    else:
        assert len(hot) == 0


def test_two_loads_never_share_a_state(db_engine: Engine) -> None:
    games, hot, game_id = _bot_game(db_engine, "carcassonne", 2)
    games.play.play_bot_turn(game_id)
    hits = hot.hits
    first, second = games.core.load(game_id), games.core.load(game_id)
    assert hot.hits == hits + 2
    assert first.state is not second.state
    before = first.engine.dump(second.state)
    first.engine.apply(first.state, {0: first.engine.legal_choices(first.state, 0)[0]})
    assert first.engine.dump(second.state) == before
    assert _answers(games.core.load(game_id)) == _answers(_full_load(db_engine, game_id))


def test_a_write_that_does_not_commit_is_forgotten(db_engine: Engine) -> None:
    games, hot, game_id = _bot_game(db_engine, "carcassonne", 2)
    games.play.play_bot_turn(game_id)
    assert len(hot) == 1
    with games.core.uow() as uow:
        match = uow.games.get(game_id, for_update=True)
        decision = match.engine.decision(match.state)
        assert decision is not None
        seat = decision.seats[0]
        match.submit(seat, match.engine.legal_choices(match.state, seat)[0])
        uow.games.save(match)
    assert len(hot) == 0
    assert games.core.load(game_id).version == _full_load(db_engine, game_id).version


def test_a_change_by_another_instance_is_loaded_from_the_row(db_engine: Engine) -> None:
    games, hot, game_id = _bot_game(db_engine, "carcassonne", 2)
    other, _, _ = _bot_game(db_engine, "carcassonne", 2)
    games.play.play_bot_turn(game_id)
    other.play.play_bot_turn(game_id)  # another instance (its own memory) moves the game on
    misses = hot.misses
    served = games.core.load(game_id)
    assert hot.misses == misses + 1
    assert _answers(served) == _answers(_full_load(db_engine, game_id))


def test_a_writer_takes_the_kept_state_and_nobody_else_can_reach_it(db_engine: Engine) -> None:
    games, hot, game_id = _bot_game(db_engine, "carcassonne", 2)
    games.play.play_bot_turn(game_id)
    with games.core.uow() as uow:
        writer = uow.games.get(game_id, for_update=True)
        assert len(hot) == 0
        misses = hot.misses
        reader = games.core.load(game_id)
        assert hot.misses == misses + 1  # loaded from the row, not shared with the writer
        assert reader.state is not writer.state
        assert _answers(writer) == _answers(_full_load(db_engine, game_id))
