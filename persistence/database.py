"""Database engines for SQLite (single node, tests) and PostgreSQL (production).

SQLite gets WAL (readers never block the writer), foreign keys (off by default in SQLite) and a
busy timeout so concurrent writers wait for the lock instead of failing at once. Its transactions
only begin at the first write (the driver's default), which is what optimistic concurrency needs:
the version check happens in the ``UPDATE`` itself.

A database that stops answering must not hold a request for long (issue 31): connecting and
waiting for a pooled connection give up after ``DatabaseTimeouts.connect_seconds``; on PostgreSQL
the server cancels a statement after ``statement_seconds`` (``statement_timeout``), and a statement
whose answer never comes at all (the network cut: the server never even saw it) is cut by
``StuckStatements``, which shuts the connection's socket down from outside once it has waited that
long, so the waiting thread gets an error (and the pool a dead connection it replaces) instead of
waiting for ever.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url

from persistence import fast_json
from persistence.errors import database_unavailable

log = logging.getLogger("tabletop.database")

SQLITE_BUSY_TIMEOUT_MS = 5_000


@dataclass(frozen=True, slots=True)
class DatabaseTimeouts:
    """How long a request may wait for the database before it is told it is unavailable."""

    connect_seconds: float = 3.0
    """Opening a connection, and waiting for a pooled one while all are busy."""
    statement_seconds: float | None = 5.0
    """One statement on PostgreSQL (cancelled by the server, or cut here if no answer comes);
    None: no limit (migrations)."""


TOOL_TIMEOUTS = DatabaseTimeouts(connect_seconds=5.0, statement_seconds=None)
"""For migrations and tools: no statement is cut (a migration may rewrite a large table)."""

SQLITE_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


def normalize_url(url: str | URL) -> URL:
    """Plain ``postgresql://`` (and ``postgres://``) URLs mean psycopg 3, our only PG driver."""
    parsed = make_url(url.replace("postgres://", "postgresql://", 1) if isinstance(url, str) else url)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def create_db_engine(
    url: str | URL,
    *,
    sqlite_synchronous: str = "NORMAL",
    pool_size: int = 20,
    max_overflow: int = 20,
    echo: bool = False,
    timeouts: DatabaseTimeouts | None = None,
) -> Engine:
    """An engine for a ``sqlite:///path`` or ``postgresql[+psycopg]://`` URL.

    ``sqlite_synchronous="NORMAL"`` in WAL mode survives application crashes but may lose the
    last commits on power loss or an OS crash; pass ``"FULL"`` when every commit must be durable.
    The pool keeps ``pool_size`` connections open; up to ``max_overflow`` more are opened under
    load and closed as soon as they are returned (on both databases). ``timeouts`` bound every
    wait for the database (``DatabaseTimeouts``; the service passes its settings', anything else
    gets ``TOOL_TIMEOUTS``).
    """
    parsed = normalize_url(url)
    backend = parsed.get_backend_name()
    timeouts = timeouts or TOOL_TIMEOUTS
    if backend == "sqlite":
        return _sqlite_engine(parsed, sqlite_synchronous.upper(), echo, pool_size, max_overflow, timeouts)
    if backend == "postgresql":
        connect_args: dict[str, Any] = {
            # libpq counts whole seconds, at least 2
            "connect_timeout": max(2, math.ceil(timeouts.connect_seconds)),
            "application_name": "tabletop",
        }
        if timeouts.statement_seconds is not None:
            connect_args["options"] = f"-c statement_timeout={round(timeouts.statement_seconds * 1000)}"
        engine = create_engine(
            parsed,
            echo=echo,
            pool_size=pool_size,
            max_overflow=max_overflow,
            pool_recycle=1_800,
            pool_timeout=timeouts.connect_seconds,
            # A pooled connection the server closed (restart, failover, idle timeout) is found
            # by a cheap ping at checkout and replaced, instead of failing the request.
            pool_pre_ping=True,
            connect_args=connect_args,
            json_serializer=fast_json.dumps,
            json_deserializer=fast_json.loads,
        )
        if timeouts.statement_seconds is not None:
            limit = timeouts.statement_seconds

            @event.listens_for(engine, "connect")
            def _watch(dbapi_connection: Any, _record: Any) -> None:
                STUCK_STATEMENTS.watch(dbapi_connection, limit)

        return engine
    raise ValueError(f"unsupported database backend '{backend}'; use sqlite or postgresql")


def _sqlite_engine(
    url: URL, synchronous: str, echo: bool, pool_size: int, max_overflow: int, timeouts: DatabaseTimeouts
) -> Engine:
    if synchronous not in SQLITE_SYNCHRONOUS:
        raise ValueError(f"sqlite_synchronous must be one of {', '.join(SQLITE_SYNCHRONOUS)}")
    if url.database in (None, "", ":memory:"):
        raise ValueError("SQLite needs a file path URL (sqlite:///path/to/file.db), not :memory:")
    engine = create_engine(
        url,
        echo=echo,
        pool_size=pool_size,
        max_overflow=max_overflow,
        pool_timeout=timeouts.connect_seconds,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        json_serializer=fast_json.dumps,
        json_deserializer=fast_json.loads,
    )

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    return engine


def ping(db_engine: Engine) -> None:
    """Raises if the database cannot answer ``SELECT 1``."""
    with db_engine.connect() as connection:
        connection.execute(text("SELECT 1")).scalar_one()


PROBE_BYTES = 65_536
"""What the SQLite write probe writes (and rolls back): more pages than a small free list holds."""


def check_writable(db_engine: Engine) -> None:
    """Readiness check: raises unless the database answers and can store a change now.

    SQLite: a write that needs new pages (a table and 64 KiB in it), rolled back, under the write
    lock; it fails on a full disk (or ``max_page_count``) and a read-only file. PostgreSQL: the
    server is not a standby in recovery and does not refuse writes (``transaction_read_only``).
    Nothing is left behind either way."""
    with db_engine.connect() as connection:
        if db_engine.dialect.name != "sqlite":
            writable = connection.execute(
                text("SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off'")
            ).scalar_one()
            if not writable:
                raise ReadOnlyDatabase("the database is read-only (a standby, or transaction_read_only)")
            return
        raw: Any = connection.connection.driver_connection
        try:
            raw.execute("BEGIN IMMEDIATE")
            raw.execute("CREATE TABLE tabletop_write_probe (filler BLOB)")
            raw.execute("INSERT INTO tabletop_write_probe VALUES (zeroblob(?))", (PROBE_BYTES,))
        finally:
            if raw.in_transaction:
                raw.execute("ROLLBACK")


class ReadOnlyDatabase(Exception):
    """The database answers but refuses to store changes."""


def wait_until_reachable(db_engine: Engine, seconds: float) -> None:
    """At start-up: wait (up to ``seconds``) for a database that refuses connections now (not yet
    up, "too many clients", a failover), retrying with a growing pause instead of exiting at once.
    Other errors (a wrong password is also an ``OperationalError``, so it waits too: the log says
    why) and the last failure after ``seconds`` are raised."""
    deadline = time.monotonic() + seconds
    pause = 0.25
    while True:
        try:
            ping(db_engine)
            return
        except Exception as failure:
            if not database_unavailable(failure) or time.monotonic() + pause > deadline:
                raise
            log.warning(
                "database not reachable yet; retrying in %.2g s",
                pause,
                extra={"database": describe(db_engine), "error": str(failure).splitlines()[0][:300]},
            )
            time.sleep(pause)
            pause = min(5.0, pause * 2)


class StuckStatements:
    """Cuts PostgreSQL connections that have waited for a statement's answer too long.

    ``statement_timeout`` only helps when the server gets the statement; when the network is cut
    (or a proxy stops forwarding) the answer never comes and libpq waits for ever, holding the
    request's thread and a pooled connection. One daemon thread looks at every watched connection
    every ``every`` seconds: one whose command has been in progress (libpq's transaction status
    ``ACTIVE``) at every look for longer than its limit has its socket shut down, so the waiting
    read fails at once (``OperationalError``: answered 503) and the pool drops the connection. A
    connection seen idle even once in between starts again from zero."""

    ACTIVE = 1  # PQTRANS_ACTIVE: a command is in progress

    def __init__(self, every: float = 0.5) -> None:
        self.every = every
        self._watched: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self._busy_since: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, dbapi_connection: Any, limit: float) -> None:
        with self._lock:
            self._watched[dbapi_connection] = limit
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="stuck-statements", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(self.every)
            self.look(time.monotonic())

    def look(self, now: float) -> None:
        with self._lock:
            watched = list(self._watched.items())
        for connection, limit in watched:
            try:
                pgconn = connection.pgconn
                active = pgconn.transaction_status == self.ACTIVE
                fd = pgconn.socket if active else -1
            except Exception:  # closed meanwhile
                active = False
            if not active:
                self._busy_since.pop(connection, None)
                continue
            since = self._busy_since.setdefault(connection, now)
            if now - since > limit:
                self._busy_since.pop(connection, None)
                log.warning("no answer from the database for %.3g s; connection cut", now - since)
                _shut_down(fd)


def _shut_down(fd: int) -> None:
    """Shut a socket down by its descriptor (both ways), without closing the descriptor libpq owns."""
    try:
        duplicate = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        duplicate.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        duplicate.close()


STUCK_STATEMENTS = StuckStatements()


def describe(db_engine: Engine) -> str:
    """The engine's URL without its password, safe for messages and logs."""
    return db_engine.url.render_as_string(hide_password=True)
