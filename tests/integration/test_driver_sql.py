"""The statements of every move, run on the driver's cursor (``persistence.driver_sql``), read and
write exactly what ``Session.execute`` does, in the same transaction, and fail as SQLAlchemy fails."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import Engine, bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from domain.registry import EngineRegistry
from persistence.driver_sql import DriverStatement
from persistence.tables import game_events, games
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.duel_play import game_service, start_duel

_ROW = select(games).where(games.c.id == bindparam("game_id"))


def test_a_row_reads_back_as_sqlalchemy_reads_it(
    db_engine: Engine, uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    started = start_duel(game_service(uow_factory, registry))
    with Session(db_engine) as session:
        by_sqlalchemy = dict(session.execute(_ROW, {"game_id": started.game_id}).mappings().one())
        by_driver = DriverStatement(_ROW).first(session.connection(), {"game_id": started.game_id})
    assert by_driver == by_sqlalchemy
    assert isinstance(by_driver["created_at"], datetime)  # SQLite's text timestamp converted
    assert isinstance(by_driver["seats"], list)  # JSON decoded on both databases
    assert by_driver["private"] is False


def test_a_write_joins_the_session_transaction_and_is_undone_with_it(
    db_engine: Engine, uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    started = start_duel(game_service(uow_factory, registry))
    append = DriverStatement(insert(game_events), [c.key for c in game_events.c])
    row = {"game_id": started.game_id, "seq": 10_000, "type": "x", "data": {"n": 1}, "private": {}}
    with Session(db_engine) as session:
        append.execute_many(session.connection(), [row])
        seen = session.execute(select(game_events.c.data).where(game_events.c.seq == 10_000))
        assert seen.scalar_one() == {"n": 1}
        session.rollback()
    with Session(db_engine) as session:
        gone = session.execute(select(game_events.c.seq).where(game_events.c.seq == 10_000))
        assert gone.first() is None


def test_a_driver_error_is_raised_as_sqlalchemy_raises_it(
    db_engine: Engine, uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    """The group commit fails a whole batch on a database error (``SQLAlchemyError``) and undoes
    only the work on a domain error: a driver exception must not pass for the latter."""
    started = start_duel(game_service(uow_factory, registry))
    append = DriverStatement(insert(game_events), [c.key for c in game_events.c])
    row = {"game_id": started.game_id, "seq": 1, "type": "x", "data": {}, "private": {}}
    with Session(db_engine) as session, pytest.raises(IntegrityError):
        append.execute_many(session.connection(), [row, row])


def test_a_saved_timestamp_is_stored_as_sqlalchemy_writes_it(
    db_engine: Engine, uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    """The lobby orders and pages on ``updated_at``: SQLite compares the stored text, so a save
    must write SQLAlchemy's format (equality with a value SQLAlchemy binds proves it)."""
    service = game_service(uow_factory, registry)
    started = start_duel(service)
    service.play.submit(started.game_id, started.tokens[0], {"card": 1})  # a save
    with Session(db_engine) as session:
        saved = session.execute(select(games.c.updated_at).where(games.c.id == started.game_id)).scalar_one()
        found = session.execute(select(games.c.id).where(games.c.updated_at == saved)).scalar_one()
    assert found == started.game_id
