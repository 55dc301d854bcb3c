"""Database engines for SQLite (single node, tests) and PostgreSQL (production).

SQLite gets WAL (readers never block the writer), foreign keys (off by default in SQLite) and a
busy timeout so concurrent writers wait for the lock instead of failing at once. Its transactions
only begin at the first write (the driver's default), which is what optimistic concurrency needs:
the version check happens in the ``UPDATE`` itself.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url

from persistence import fast_json

SQLITE_BUSY_TIMEOUT_MS = 5_000

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
) -> Engine:
    """An engine for a ``sqlite:///path`` or ``postgresql[+psycopg]://`` URL.

    ``sqlite_synchronous="NORMAL"`` in WAL mode survives application crashes but may lose the
    last commits on power loss or an OS crash; pass ``"FULL"`` when every commit must be durable.
    The pool keeps ``pool_size`` connections open; up to ``max_overflow`` more are opened under
    load and closed as soon as they are returned (on both databases).
    """
    parsed = normalize_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(parsed, sqlite_synchronous.upper(), echo, pool_size, max_overflow)
    if backend == "postgresql":
        return create_engine(
            parsed,
            echo=echo,
            pool_size=pool_size,
            max_overflow=max_overflow,
            pool_recycle=1_800,
            pool_timeout=10,
            # A pooled connection the server closed (restart, failover, idle timeout) is found
            # by a cheap ping at checkout and replaced, instead of failing the request.
            pool_pre_ping=True,
            connect_args={"connect_timeout": 5, "application_name": "tabletop"},
            json_serializer=fast_json.dumps,
            json_deserializer=fast_json.loads,
        )
    raise ValueError(f"unsupported database backend '{backend}'; use sqlite or postgresql")


def _sqlite_engine(url: URL, synchronous: str, echo: bool, pool_size: int, max_overflow: int) -> Engine:
    if synchronous not in SQLITE_SYNCHRONOUS:
        raise ValueError(f"sqlite_synchronous must be one of {', '.join(SQLITE_SYNCHRONOUS)}")
    if url.database in (None, "", ":memory:"):
        raise ValueError("SQLite needs a file path URL (sqlite:///path/to/file.db), not :memory:")
    engine = create_engine(
        url,
        echo=echo,
        pool_size=pool_size,
        max_overflow=max_overflow,
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
    """Readiness check: raises if the database cannot answer ``SELECT 1``."""
    with db_engine.connect() as connection:
        connection.execute(text("SELECT 1")).scalar_one()


def describe(db_engine: Engine) -> str:
    """The engine's URL without its password, safe for messages and logs."""
    return db_engine.url.render_as_string(hide_password=True)
