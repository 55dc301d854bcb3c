"""One pipeline per group-commit batch (``persistence.driver_sql``: held writes) on SQLite and
PostgreSQL: a batch of owners' moves sends its writes together and commits them, answered only
after the commit; a move whose kept row was stale is refused by its guard, the batch run again as
without holding and the other moves committed; a database error in the pipeline fails every work
of its batch; moves with idempotency keys answer as before. SQLite holds nothing: the same tests
show it unchanged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine, insert
from sqlalchemy.exc import SQLAlchemyError

from domain.errors import DomainError
from domain.ports.unit_of_work import UnitOfWork
from domain.services.play import SubmitAnswer
from persistence.driver_sql import DriverStatement
from persistence.repository import SqlGameRepository
from persistence.tables import game_choices
from tests.support.batches import one_batch
from tests.support.owner_moves import (
    Game,
    Process,
    assert_applied_once_each,
    move,
    next_move,
    started,
)
from tests.support.round_trips import RoundTrips

pytestmark = pytest.mark.timeout(60)


def outcome(future: Any) -> Any:
    error = future.exception(10)
    return error if error is not None else future.result()


def submit_checked(process: Process, game: Game, key: str | None = None) -> Callable[[], SubmitAnswer]:
    """The game's next move, as stored now; once answered, its version is already committed (read
    on another connection)."""
    seat, choice, version = next_move(process, game)

    def submit() -> SubmitAnswer:
        answer = process.services.play.submit(
            game.game_id, game.tokens[seat], choice, version, idempotency_key=key
        )
        assert process.services.core.load(game.game_id).version >= answer.version, "answered before commit"
        return answer

    return submit


def owned(process: Process, count: int) -> list[Game]:
    """Games whose last write was this process's (their next moves skip the read)."""
    games = [started(process) for _ in range(count)]
    for game in games:
        move(process, game)
    return games


def batch_round_trips(process: Process, db_engine: Engine, games: list[Game]) -> tuple[int, int]:
    """One move of each game in one batch: the writer's round trips and the version each game moved to."""
    counted = RoundTrips(db_engine)
    try:
        futures = one_batch(process.committer, [submit_checked(process, game) for game in games])
        answers = [future.result(10) for future in futures]
    finally:
        counted.close()
    assert all(answer.status == "applied" for answer in answers)
    return counted.count, len(answers)


def test_a_batch_of_owners_moves_is_one_pipeline_and_its_commit(
    processes: tuple[Process, Process], db_engine: Engine
) -> None:
    """Six moves, each the owner's (its read skipped): held, the batch costs its pipeline and its
    commit; without holding, each move costs its own round trips (its ``UPDATE`` with its savepoint,
    its choices) and the batch its commit."""
    mine, _ = processes
    games = owned(mine, 6)
    unread = mine.kept.unread
    held, moves = batch_round_trips(mine, db_engine, games)
    mine.committer.hold_writes = False
    not_held, _ = batch_round_trips(mine, db_engine, games)
    assert mine.kept.unread == unread + 2 * moves
    assert mine.committer.stale_batches == 0
    for game in games:
        assert_applied_once_each(mine, game, 3)
    if db_engine.dialect.name == "postgresql":
        assert held == 2, held
        assert not_held == 2 * moves + 1, not_held


def test_a_move_the_stale_kept_row_accepts_is_refused_by_its_guard_and_the_rest_of_its_batch_commits(
    processes: tuple[Process, Process], db_engine: Engine
) -> None:
    """The other process made a move of one game: the owner's kept row still awaits it, so the same
    move, sent again without a version, looks legal there and is held with the others. Its guard
    refuses it; the batch is run again as without holding, where that move is decided on the read
    row (refused: the game has moved on) and the others are applied, each once."""
    mine, other = processes
    games = owned(mine, 3)
    stale = games[1]
    seat, choice, _ = next_move(mine, stale)
    move(other, stale)
    stored = mine.services.core.load(stale.game_id).version
    plans = {game.game_id: submit_checked(mine, game) for game in games if game is not stale}

    def again() -> SubmitAnswer:
        return mine.services.play.submit(stale.game_id, stale.tokens[seat], choice)

    futures = one_batch(mine.committer, [*plans.values(), again])
    answers = [outcome(future) for future in futures]
    assert [answer.status for answer in answers[:2]] == ["applied", "applied"]
    assert isinstance(answers[2], DomainError), answers[2]
    assert mine.services.core.load(stale.game_id).version == stored
    assert mine.committer.stale_batches == (1 if db_engine.dialect.name == "postgresql" else 0)
    for game in games:
        assert_applied_once_each(mine, game, 2)


def test_a_database_error_in_a_held_batch_fails_every_work_and_answers_none_as_done(
    processes: tuple[Process, Process], db_engine: Engine
) -> None:
    """A held write that the database refuses (a decision recorded for a game that does not exist)
    fails in the batch's pipeline, after the moves' writes: no work is answered as done, nothing is
    stored, and the next batch commits."""
    mine, _ = processes
    games = owned(mine, 2)
    versions = [mine.services.core.load(game.game_id).version for game in games]
    record_choice = DriverStatement(insert(game_choices), [column.key for column in game_choices.c])

    def broken(uow: UnitOfWork) -> None:
        assert isinstance(uow.games, SqlGameRepository)
        record_choice.execute_many(
            uow.games.session.connection(),
            [{"game_id": "no-such-game", "version": 1, "seq": 1, "choices": {}, "undoes": None}],
        )

    futures = one_batch(
        mine.committer,
        [
            submit_checked(mine, games[0]),
            lambda: mine.committer.run("\x7flast", broken),
            submit_checked(mine, games[1]),
        ],
    )

    failures = [outcome(future) for future in futures]
    assert all(isinstance(failure, SQLAlchemyError) for failure in failures), failures
    assert [mine.services.core.load(game.game_id).version for game in games] == versions
    assert mine.committer.stale_batches == 0
    assert move(mine, games[0]).status == "applied"
    assert_applied_once_each(mine, games[0], 2)
    assert_applied_once_each(mine, games[1], 1)


def test_moves_with_idempotency_keys_in_a_held_batch_answer_as_before(
    processes: tuple[Process, Process],
) -> None:
    """Each looks its key up first (a read: the writes held before it go with it), then writes its
    move and its key; sent again, each key answers its first answer and the game holds it once."""
    mine, _ = processes
    games = owned(mine, 3)
    calls = [submit_checked(mine, game, key=f"key-{n}") for n, game in enumerate(games)]
    first = [future.result(10) for future in one_batch(mine.committer, calls)]
    again = [future.result(10) for future in one_batch(mine.committer, calls)]
    assert [answer.status for answer in first] == ["applied"] * 3
    assert again == first
    for game in games:
        assert_applied_once_each(mine, game, 2)
