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

Held writes (PostgreSQL, a group-commit batch: ``hold_writes``). A write whose result nobody reads
at once (the guarded ``UPDATE`` of a save with its events, ``DriverStatement.hold``; the events'
and choices' ``execute_many``) is not sent when made: it waits in order, and goes to the server in
one psycopg pipeline (one sync, one round trip) with the next statement that needs a result (a
read made here, or, through ``before_statement``, any statement of SQLAlchemy's own, which reads
its results at once and so never runs inside a pipeline), or at the commit (``settle``). Order is
kept: everything held is sent before any later statement, so every read sees every earlier write.
Each held guard's answer is checked as soon as its pipeline is synced; a failed one raises
``StaleBatch`` (the batch is rolled back and run again, nothing held), so no later work's result
and no commit rests on a write that did not happen. A work's savepoint goes in the pipeline just
before its first statement, as without holding; a work refused before any of its statements was
sent has them dropped, with nothing to undo on the server.
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
HELD = "tabletop_held_statements"
"""In a connection's ``info`` while a batch holds its writes back (``hold_writes``)."""
SAVEPOINT_WORK = "SAVEPOINT tabletop_work"
ROLLBACK_TO_WORK = "ROLLBACK TO SAVEPOINT tabletop_work"
"""Back to the latest work's savepoint (a name used again shadows the earlier ones)."""

Answer = Callable[[Any], bool]
"""Told a held statement's cursor once its pipeline is synced: whether its guard passed."""


class StaleBatch(Exception):
    """A held write's guard failed (another writer's version), or its game was assumed to have no
    webhook target and has one: what the batch did after it rests on a write that did not happen.
    The batch is rolled back and run again, nothing held (``persistence.group_commit``)."""


@dataclass(slots=True)
class _Held:
    compiled: _Compiled
    params: Any
    many: bool
    answer: Answer | None = None
    keep: bool = False
    """The cursor is returned to the caller (left open)."""
    cursor: Any = None


class _HeldStatements:
    """The batch's writes not sent yet, in order; ``work_start``: where the current work's begin."""

    __slots__ = ("entries", "work_start")

    def __init__(self) -> None:
        self.entries: list[_Held] = []
        self.work_start = 0

    def take(self) -> tuple[list[_Held], int]:
        taken, start = self.entries, self.work_start
        self.entries, self.work_start = [], 0
        return taken, start


def hold_writes(connection: Connection) -> None:
    """From now on, until ``drop_held``: a write whose result nobody needs now (``DriverStatement.hold``,
    ``execute_many``) waits, and goes in one pipeline with the next statement that needs a result,
    or at ``settle`` (PostgreSQL)."""
    connection.info[HELD] = _HeldStatements()


def holding(connection: Connection) -> bool:
    return HELD in connection.info


def drop_held(connection: Connection) -> None:
    """The transaction ends (committed after ``settle``, or rolled back): nothing is held any more."""
    connection.info.pop(HELD, None)


def settle(connection: Connection) -> None:
    """Send the held writes now, in one pipeline (one round trip), and check their answers:
    ``StaleBatch`` if a guard failed."""
    held: _HeldStatements | None = connection.info.get(HELD)
    if held is None or not held.entries:
        return
    entries, start = held.take()
    marked = start < len(entries) and connection.info.pop(WORK_MARK, False)
    _pipelined(connection, entries, start if marked else None)


def mark_work(connection: Connection) -> None:
    """A work begins (PostgreSQL, among others in one transaction): its savepoint goes with its
    first statement, pipelined with it when that is made here (one round trip for both), else just
    before it (``before_statement``)."""
    connection.info[WORK_MARK] = True
    held: _HeldStatements | None = connection.info.get(HELD)
    if held is not None:
        held.work_start = len(held.entries)


def unmark_work(connection: Connection, undo: bool = False) -> bool:
    """True if the work's savepoint was never sent (nothing of it reached the server); ``undo``:
    the work is refused, its held writes are dropped (those sent are undone by its savepoint)."""
    held: _HeldStatements | None = connection.info.get(HELD)
    if undo and held is not None:
        del held.entries[held.work_start :]
    return bool(connection.info.pop(WORK_MARK, False))


def before_statement(
    connection: Connection, cursor: Any, _statement: str, _parameters: Any, _context: Any, _many: bool
) -> None:
    """``before_cursor_execute``: a statement made elsewhere (SQLAlchemy's own, whose results it
    reads at once) is preceded by the held writes (``settle``) and the work's savepoint if not sent
    yet, on the same connection. Statements sent in a pipeline here have taken both already."""
    if cursor.connection.pgconn.pipeline_status:
        return
    held: _HeldStatements | None = connection.info.get(HELD)
    if held is not None and held.entries:
        settle(connection)
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
        """Run for each row; held while the connection holds writes (nobody reads its result)."""
        compiled = self._compiled(connection.dialect)
        bound = [_bound(compiled, row) for row in rows]
        held: _HeldStatements | None = connection.info.get(HELD)
        if held is not None:
            held.entries.append(_Held(compiled, bound, True))
            return
        _run(connection, compiled, bound, many=True)

    def hold(self, connection: Connection, params: Mapping[str, Any], answer: Answer) -> None:
        """Run later, in the pipeline of the next statement that needs a result or at ``settle``
        (the connection must hold writes: ``holding``); ``answer`` then checks the cursor."""
        compiled = self._compiled(connection.dialect)
        held: _HeldStatements = connection.info[HELD]
        held.entries.append(_Held(compiled, _bound(compiled, params), False, answer))

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
    """Run one statement and return its cursor. Held writes and a work's unsent savepoint go
    first, in one pipeline with it (one round trip for all)."""
    held: _HeldStatements | None = connection.info.get(HELD)
    entries, start = held.take() if held is not None else ([], 0)
    if entries or (not many and connection.info.get(WORK_MARK, False)):
        marked = connection.info.pop(WORK_MARK, False)
        statement = _Held(compiled, params, many, keep=True)
        _pipelined(connection, [*entries, statement], start if marked else None)
        return statement.cursor
    pooled = connection.connection
    cursor = pooled.cursor()
    dispatch = connection.dispatch
    try:
        if dispatch.before_cursor_execute:
            dispatch.before_cursor_execute(connection, cursor, compiled.sql, params, None, many)
        if many:
            cursor.executemany(compiled.sql, params)
        else:
            cursor.execute(compiled.sql, params)
        if dispatch.after_cursor_execute:
            dispatch.after_cursor_execute(connection, cursor, compiled.sql, params, None, many)
    except Exception as error:
        cursor.close()
        if not _from_driver(connection, error):
            raise
        raise _database_error(connection, compiled.sql, params, error, cursor) from error
    return cursor


def _pipelined(connection: Connection, statements: list[_Held], savepoint_at: int | None) -> None:
    """Send ``statements`` in one psycopg pipeline, one sync, the work's savepoint just before
    ``statements[savepoint_at]``; each keeps its cursor. Then every answer is checked, in order.

    A failed statement aborts the rest of the pipeline (psycopg raises the first error once the
    results are in; those before it keep theirs). If a guard before it had failed, the error is
    that stale write's consequence (its choices' key taken by the other writer): ``StaleBatch``.
    Otherwise it is raised as a database error of its own (``DBAPIError``, never a subclass that a
    work might catch as its own statement's, such as ``IntegrityError``)."""
    pooled = connection.connection
    dispatch = connection.dispatch
    savepoint = pooled.cursor() if savepoint_at is not None else None
    try:
        with pooled.driver_connection.pipeline():  # type: ignore[union-attr]
            for index, held in enumerate(statements):
                if index == savepoint_at and savepoint is not None:
                    if dispatch.before_cursor_execute:
                        dispatch.before_cursor_execute(
                            connection, savepoint, SAVEPOINT_WORK, None, None, False
                        )
                    savepoint.execute(SAVEPOINT_WORK)
                held.cursor = cursor = pooled.cursor()
                sql, params = held.compiled.sql, held.params
                if dispatch.before_cursor_execute:
                    dispatch.before_cursor_execute(connection, cursor, sql, params, None, held.many)
                if held.many:
                    cursor.executemany(sql, params)
                else:
                    cursor.execute(sql, params)
    except Exception as error:
        if not _from_driver(connection, error):
            _close(statements)
            raise
        stale = any(
            held.answer is not None and held.cursor.pgresult is not None and not held.answer(held.cursor)
            for held in statements
            if held.cursor is not None
        )
        failed = next(
            (held for held in statements if held.cursor is None or held.cursor.pgresult is None), None
        )
        _close(statements)
        if stale:
            raise StaleBatch("a held write's guard failed before the pipeline's error") from error
        sql, params = (failed.compiled.sql, failed.params) if failed is not None else (SAVEPOINT_WORK, None)
        raise _database_error(connection, sql, params, error, None, exact=False) from error
    finally:
        if savepoint is not None:
            savepoint.close()
    passed = True
    try:
        for held in statements:
            if dispatch.after_cursor_execute:
                dispatch.after_cursor_execute(
                    connection, held.cursor, held.compiled.sql, held.params, None, held.many
                )
            if held.answer is not None:
                passed = held.answer(held.cursor) and passed
    finally:
        _close(statements, keep=passed)
    if not passed:
        raise StaleBatch("a held write's guard failed")


def _close(statements: list[_Held], keep: bool = False) -> None:
    """Close the statements' cursors (``keep``: except the one returned to the caller)."""
    for held in statements:
        if held.cursor is not None and not (keep and held.keep):
            held.cursor.close()


def _from_driver(connection: Connection, error: Exception) -> bool:
    return isinstance(error, connection.dialect.loaded_dbapi.Error)


def _database_error(
    connection: Connection, sql: str, params: Any, error: Exception, cursor: Any, exact: bool = True
) -> DBAPIError:
    """A driver error as SQLAlchemy's (a lost connection invalidated, so the pool drops it);
    ``exact``: as the class that names it (``IntegrityError``…), else as ``DBAPIError`` itself."""
    dialect = connection.dialect
    pooled = connection.connection
    if dialect.is_disconnect(error, pooled.dbapi_connection, cursor):  # type: ignore[arg-type]
        connection.invalidate(error)
    if exact:
        found = DBAPIError.instance(sql, params, error, dialect.loaded_dbapi.Error)
        assert isinstance(found, DBAPIError)  # a driver error is always wrapped as one
        return found
    return DBAPIError(sql, params, error)
