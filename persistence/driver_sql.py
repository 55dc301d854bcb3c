"""The statements of every move, compiled once per dialect and executed on the driver's cursor.

Through ``Session.execute`` each statement pays SQLAlchemy's per-execution work again and again:
the compiled-cache lookup, an execution context, the bind processing, a result object and its
row mappings (about 40 µs of CPU a statement on SQLite, several times the statement itself). Here
SQLAlchemy compiles the statement once for the dialect, and we keep its SQL text and the types'
own bind and result processors, so values are converted exactly as ``Session.execute`` converts
them (JSON through the engine's serializer, SQLite's text timestamps, PostgreSQL's bind casts).

The cursor is the session's connection's: the statement runs inside the unit of work's transaction
and savepoints like any other. The engine's ``before_cursor_execute`` and ``after_cursor_execute``
listeners still see every statement (with no execution context); ``echo`` does not. A driver
error is raised as SQLAlchemy's (``DBAPIError.instance``), so the unit of work and the group commit
classify it as before, and a lost connection is invalidated so the pool does not hand it out again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.expression import Executable

Processor = Callable[[Any], Any]

WORK_MARK = "tabletop_work_savepoint"
"""In a connection's ``info`` while a work of a group-commit batch waits for its savepoint."""
SAVEPOINT_WORK = "SAVEPOINT tabletop_work"
ROLLBACK_TO_WORK = "ROLLBACK TO SAVEPOINT tabletop_work"
"""Back to the latest work's savepoint (a name used again shadows the earlier ones)."""


def mark_work(connection: Connection) -> None:
    """A work begins (PostgreSQL, among others in one transaction): its savepoint goes with its
    first statement, pipelined with it when that is made here (one round trip for both), else just
    before it (``send_marked_savepoint``)."""
    connection.info[WORK_MARK] = True


def unmark_work(connection: Connection) -> bool:
    """True if the work's savepoint was never sent (the work ran no statement)."""
    return bool(connection.info.pop(WORK_MARK, False))


def send_marked_savepoint(
    connection: Connection, cursor: Any, _statement: str, _parameters: Any, _context: Any, _many: bool
) -> None:
    """``before_cursor_execute``: a statement of a work whose savepoint is not sent yet sends it
    first, on the same cursor."""
    if connection.info.pop(WORK_MARK, False):
        cursor.execute(SAVEPOINT_WORK)


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    positions: tuple[str, ...] | None
    """Bind names in order for a positional driver (SQLite), None for a named one (psycopg)."""
    binds: tuple[tuple[str, Processor], ...]
    """Bind names whose values the type converts first, with its converter."""
    fixed: dict[str, Any]
    """Values written in the statement itself (``status == "active"``)."""
    columns: tuple[str, ...]
    results: tuple[tuple[int, Processor], ...]
    """Result columns the type converts, by position, with its converter."""


class DriverStatement:
    """A Core statement executed on the DBAPI cursor of a SQLAlchemy connection.

    ``column_keys``: for an ``INSERT``/``UPDATE``, the columns every execution sets (SQLAlchemy
    compiles the ``SET``/``VALUES`` list from them)."""

    def __init__(self, statement: Executable, column_keys: Sequence[str] | None = None) -> None:
        self._statement = statement
        self._column_keys = list(column_keys) if column_keys is not None else None
        self._by_dialect: dict[Dialect, _Compiled] = {}

    def execute(self, connection: Connection, params: Mapping[str, Any]) -> Any:
        """Run once; returns the DBAPI cursor (``rowcount``, ``fetchone``)."""
        compiled = self._compiled(connection.dialect)
        return _run(connection, compiled, _bound(compiled, params), many=False)

    def execute_many(self, connection: Connection, rows: Iterable[Mapping[str, Any]]) -> None:
        compiled = self._compiled(connection.dialect)
        _run(connection, compiled, [_bound(compiled, row) for row in rows], many=True)

    def first(self, connection: Connection, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first row as ``{column: value}``, converted as SQLAlchemy's result would be."""
        compiled = self._compiled(connection.dialect)
        cursor = _run(connection, compiled, _bound(compiled, params), many=False)
        try:
            row = cursor.fetchone()
        finally:
            cursor.close()
        return None if row is None else _mapped(compiled, row)

    def all(self, connection: Connection, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every row, as ``first`` answers one."""
        compiled = self._compiled(connection.dialect)
        cursor = _run(connection, compiled, _bound(compiled, params), many=False)
        try:
            rows = cursor.fetchall()
        finally:
            cursor.close()
        return [_mapped(compiled, row) for row in rows]

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect)
        if found is None:
            found = self._by_dialect[dialect] = _compile(self._statement, dialect, self._column_keys)
        return found


def _compile(statement: Executable, dialect: Dialect, column_keys: list[str] | None) -> _Compiled:
    compiled = statement.compile(dialect=dialect, column_keys=column_keys)  # type: ignore[attr-defined]
    binds = []
    fixed = {name: bind.effective_value for name, bind in compiled.binds.items() if not bind.required}
    for name, bind in compiled.binds.items():
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            binds.append((name, process))
    columns: list[str] = []
    results = []
    for position, column in enumerate(getattr(statement, "selected_columns", ())):
        columns.append(column.key)
        process = column.type.dialect_impl(dialect).result_processor(dialect, None)
        if process is not None:
            results.append((position, process))
    positions = compiled.positiontup
    return _Compiled(
        compiled.string,
        tuple(positions) if positions is not None else None,
        tuple(binds),
        fixed,
        tuple(columns),
        tuple(results),
    )


def _mapped(compiled: _Compiled, row: Sequence[Any]) -> dict[str, Any]:
    values = list(row)
    for position, process in compiled.results:
        values[position] = process(values[position])
    return dict(zip(compiled.columns, values, strict=True))


def _bound(compiled: _Compiled, params: Mapping[str, Any]) -> Any:
    values = {**compiled.fixed, **params} if compiled.fixed else dict(params)
    for name, process in compiled.binds:
        values[name] = process(values[name])
    if compiled.positions is None:
        return values
    return tuple(values[name] for name in compiled.positions)


def _run(connection: Connection, compiled: _Compiled, params: Any, many: bool) -> Any:
    pooled = connection.connection
    cursor = pooled.cursor()
    dispatch = connection.dispatch
    try:
        pipelined = not many and connection.info.pop(WORK_MARK, False)
        if pipelined:  # the work's savepoint and its first statement: one round trip
            driver = pooled.driver_connection
            with driver.pipeline():  # type: ignore[union-attr]
                savepoint = pooled.cursor()
                if dispatch.before_cursor_execute:
                    dispatch.before_cursor_execute(connection, savepoint, SAVEPOINT_WORK, None, None, False)
                savepoint.execute(SAVEPOINT_WORK)
                if dispatch.before_cursor_execute:
                    dispatch.before_cursor_execute(connection, cursor, compiled.sql, params, None, many)
                cursor.execute(compiled.sql, params)
            savepoint.close()
        elif many:
            if dispatch.before_cursor_execute:
                dispatch.before_cursor_execute(connection, cursor, compiled.sql, params, None, many)
            cursor.executemany(compiled.sql, params)
        else:
            if dispatch.before_cursor_execute:
                dispatch.before_cursor_execute(connection, cursor, compiled.sql, params, None, many)
            cursor.execute(compiled.sql, params)
        if dispatch.after_cursor_execute:
            dispatch.after_cursor_execute(connection, cursor, compiled.sql, params, None, many)
    except Exception as error:
        cursor.close()
        dialect = connection.dialect
        driver_error = dialect.loaded_dbapi.Error
        if not isinstance(error, driver_error):
            raise
        if dialect.is_disconnect(error, pooled.dbapi_connection, cursor):
            connection.invalidate(error)
        raise DBAPIError.instance(compiled.sql, params, error, driver_error) from error
    return cursor
