"""A game's owner writes a move without reading its row (``persistence.hot_states``,
``SqlUnitOfWork.attempt``) on SQLite and PostgreSQL: the row it kept from its own last write
serves the move, and the save's guarded ``UPDATE`` is the arbiter. When another process wrote the
game in between, the kept row is stale: whatever it made the move do (refuse it, or apply it) is
undone and the move is decided again on the read row, applied once or refused as the stored game
says, never twice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, event

from domain.engine import Choice
from domain.errors import DomainError
from domain.registry import default_registry
from domain.services.play import SubmitAnswer
from domain.services.webhooks import WebhookService
from persistence.mapping import game_values, match_from_row, row_from_kept
from tests.support.batches import one_batch
from tests.support.owner_moves import (
    Game,
    Process,
    assert_applied_once_each,
    move,
    next_move,
    started,
)

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def statements(db_engine: Engine) -> Iterator[list[str]]:
    """Every statement sent, on one line, upper case."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()).upper())

    event.listen(db_engine, "before_cursor_execute", record)
    yield seen
    event.remove(db_engine, "before_cursor_execute", record)


def test_the_owner_writes_its_next_move_without_reading_the_row(
    processes: tuple[Process, Process], statements: list[str], db_engine: Engine
) -> None:
    """Nor, on PostgreSQL, asking for the game's webhook targets: its save answers that."""
    mine, _ = processes
    game = started(mine)
    move(mine, game)
    seat, choice, version = next_move(mine, game)
    statements.clear()
    unread = mine.kept.unread
    answer = mine.services.play.submit(game.game_id, game.tokens[seat], choice, version)
    assert answer.version == version + 1
    assert mine.kept.unread == unread + 1
    assert [s for s in statements if s.startswith("SELECT") and "FROM GAMES" in s] == []
    if db_engine.dialect.name == "postgresql":
        assert [s for s in statements if s.startswith("SELECT WEBHOOK_ENDPOINTS.")] == []
    assert_applied_once_each(mine, game, 2)


def test_an_endpoint_registered_by_the_other_process_gets_the_owners_next_unread_move(
    processes: tuple[Process, Process], db_engine: Engine
) -> None:
    """On PostgreSQL the owner's batch holds the move's write and assumes, from its last write,
    that the game has no target: the save's answer refutes that, and the batch is run again."""
    mine, other = processes
    game = started(mine)
    move(mine, game)
    endpoint = WebhookService(other.services.core, lambda _url: None).register(
        game.host_token, "https://host.example/", ["all"], game.game_id
    )
    unread = mine.kept.unread
    move(mine, game)
    assert mine.kept.unread == unread + 1
    with mine.services.core.uow() as uow:
        sent = uow.webhooks.deliveries_of(endpoint.id, 100)
    assert sent and {delivery.game_id for delivery in sent} == {game.game_id}
    assert mine.committer.stale_batches == (1 if db_engine.dialect.name == "postgresql" else 0)


@pytest.mark.parametrize("players", [2, 3])
def test_the_kept_row_is_the_row_a_read_returns_after_every_move(
    processes: tuple[Process, Process], players: int
) -> None:
    """Every column a move's load uses, from the owner's kept row, equals a read of the row
    (Carcassonne: the game whose states are kept, ``HostedGame.copy_state``)."""
    slug = "carcassonne"
    mine, _ = processes
    game = started(mine, slug, players)
    registry = default_registry()
    copy = registry.game(slug).copy_state
    assert copy is not None
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    for number in range(40):
        unread = mine.kept.unread
        move(mine, game, with_version=number % 2 == 0)
        assert mine.kept.unread == unread + 1
        taken = mine.kept.take_unread(game.game_id)
        assert taken is not None, f"move {number}: no row kept"
        version, state, row, targets = taken
        from_kept = match_from_row(row_from_kept(row), registry, copy(state))
        mine.kept.keep(game.game_id, version, state, copy, row, targets)
        read = mine.services.core.load(game.game_id)
        assert read.version == version
        assert game_values(from_kept, moment) == game_values(read, moment), f"move {number}"


def test_a_stale_kept_row_that_would_refuse_the_move_is_read_again_and_the_move_applied(
    processes: tuple[Process, Process],
) -> None:
    """The other process's write makes the owner's kept row one version behind: a move sent with
    the stored version looks like it comes from the future, and the next seat is not the one the
    kept row awaits. Both are decided again on the read row, and applied."""
    mine, other = processes
    game = started(mine)
    move(mine, game)
    move(other, game)  # written by the other process: the owner's kept row is stale now
    unread = mine.kept.unread
    answer = move(mine, game)
    assert mine.kept.unread == unread + 1  # the stale kept row was tried, and not trusted
    assert answer.version == next_move(mine, game)[2]
    move(other, game)
    move(mine, game, with_version=False)
    assert_applied_once_each(mine, game, 5)


def test_a_move_the_stale_kept_row_accepts_is_refused_by_the_guard_and_never_applied_twice(
    processes: tuple[Process, Process],
) -> None:
    """The owner's kept row awaits a move that the other process already applied: on that row the
    same move is legal again, so only the guarded ``UPDATE`` stands between it and a second copy.
    Sent with the same idempotency key, it answers the first answer; without one, it is refused as
    the stored game refuses it; either way the game holds it once."""
    mine, other = processes
    game = started(mine)
    move(mine, game)
    seat, choice, version = next_move(mine, game)
    first = other.services.play.submit(game.game_id, game.tokens[seat], choice, version, idempotency_key="k1")
    replayed = mine.services.play.submit(
        game.game_id, game.tokens[seat], choice, version, idempotency_key="k1"
    )
    assert replayed == first
    assert_applied_once_each(mine, game, 2)

    seat, choice, version = next_move(mine, game)
    mine.services.play.submit(game.game_id, game.tokens[seat], choice, version)
    seat, choice, version = next_move(mine, game)
    other.services.play.submit(game.game_id, game.tokens[seat], choice, version)
    stored = mine.services.core.load(game.game_id).version
    with pytest.raises(DomainError):  # the move again, on the row the other process wrote
        mine.services.play.submit(game.game_id, game.tokens[seat], choice)
    assert mine.services.core.load(game.game_id).version == stored
    assert_applied_once_each(mine, game, 4)


def test_in_a_batch_a_stale_kept_row_is_undone_alone_and_the_others_commit(
    processes: tuple[Process, Process],
) -> None:
    mine, other = processes
    stale, current = started(mine), started(mine)
    move(mine, stale)
    move(mine, current)
    move(other, stale)
    unread = mine.kept.unread
    plans = [next_move(mine, game) for game in (stale, current)]

    def submit(game: Game, plan: tuple[int, Choice, int]) -> Callable[[], SubmitAnswer]:
        seat, choice, version = plan
        return lambda: mine.services.play.submit(game.game_id, game.tokens[seat], choice, version)

    futures = one_batch(
        mine.committer, [submit(game, plan) for game, plan in zip((stale, current), plans, strict=True)]
    )
    answers = [future.result(10) for future in futures]
    assert mine.kept.unread == unread + 2
    assert [answer.version for answer in answers] == [plan[2] + 1 for plan in plans]
    assert_applied_once_each(mine, stale, 3)
    assert_applied_once_each(mine, current, 2)
