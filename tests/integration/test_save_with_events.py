"""A change's guarded ``UPDATE`` and its events' ``INSERT`` in one statement on PostgreSQL
(``persistence.repository._save_with_events``): a conflict still writes nothing and is told
exactly, and however many events a change records they are all stored in order."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, event

from domain.engine import Event
from domain.errors import VersionConflict
from domain.registry import EngineRegistry
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.duel_play import lobby_match


@contextmanager
def statements(db_engine: Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(db_engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(db_engine, "before_cursor_execute", count)


@pytest.mark.postgres
def test_a_version_conflict_through_the_one_statement_writes_no_event(
    postgres_engine: Engine, registry: EngineRegistry
) -> None:
    factory = SqlUnitOfWorkFactory(postgres_engine, registry)
    match = lobby_match(registry)
    with factory() as uow:
        uow.games.add(match)
        uow.commit()

    with factory() as first, factory() as second:
        mine, theirs = first.games.get(match.id), second.games.get(match.id)
        mine.join("ada", "hash-a")
        first.games.save(mine)
        first.commit()
        theirs.join("bob", "hash-b")
        with statements(postgres_engine) as seen, pytest.raises(VersionConflict):
            second.games.save(theirs)
        assert len(seen) == 1 and "UPDATE games" in seen[0] and "INSERT INTO game_events" in seen[0]
        second.commit()  # nothing of bob's is in this transaction: committing it stores nothing

    with factory() as uow:
        events = uow.games.events(match.id, after=0, limit=10)
        stored = uow.games.get(match.id)
    assert [e.event.data["name"] for e in events] == ["ada"]
    assert [seat.name for seat in stored.seats] == ["ada"] and stored.version == 1


@pytest.mark.parametrize("count", [1, 2, 16, 17, 40])
def test_every_event_of_a_change_is_stored_in_order_however_many(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry, count: int
) -> None:
    """16 go with the UPDATE on PostgreSQL; more take the second statement, as on SQLite."""
    match = lobby_match(registry)
    with uow_factory() as uow:
        uow.games.add(match)
        uow.commit()
    with uow_factory() as uow:
        loaded = uow.games.get(match.id, for_update=True)
        loaded.join("ada", "hash-a")
        for n in range(count - 1):
            loaded.last_seq += 1
            loaded.new_events.append(type(loaded.new_events[0])(loaded.last_seq, Event("note", {"n": n})))
        uow.games.save(loaded)
        uow.commit()

    with uow_factory() as uow:
        stored = uow.games.events(match.id, after=0, limit=100)
        again = uow.games.get(match.id)
    assert [e.seq for e in stored] == list(range(1, count + 1))
    assert [e.event.data.get("n") for e in stored[1:]] == list(range(count - 1))
    assert again.last_seq == count and again.version == 1
