"""Counting the round trips to PostgreSQL that group-commit writers make (tests and benchmarks).

A statement sent alone is one round trip; statements sent in one psycopg pipeline are one however
many they are (the pipeline's sync); a commit of a transaction that sent anything is one (on
SQLite, which has no round trips, each statement and commit counts one). Counted from the
engine's listeners, for the writer threads only (``group-commit-*``), so the callers' own reads
are left out.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import Connection, Engine, event

IDLE = 0
"""libpq's ``PQTRANS_IDLE``: no transaction open, so a commit sends nothing."""


class RoundTrips:
    def __init__(self, db_engine: Engine, threads: str = "group-commit-") -> None:
        self._engine = db_engine
        self._threads = threads
        self._lock = threading.Lock()
        self._pipelines: dict[int, Any] = {}
        self.count = 0
        self.statements = 0
        event.listen(db_engine, "before_cursor_execute", self._statement)
        event.listen(db_engine, "commit", self._commit)

    def close(self) -> None:
        event.remove(self._engine, "before_cursor_execute", self._statement)
        event.remove(self._engine, "commit", self._commit)

    def _statement(self, _conn: Connection, cursor: Any, *_args: Any) -> None:
        thread = threading.current_thread()
        if not thread.name.startswith(self._threads):
            return
        # psycopg's open pipeline, if any (a new one each time); SQLite has none
        pipeline = getattr(cursor.connection, "_pipeline", None)
        with self._lock:
            self.statements += 1
            if pipeline is None:
                self.count += 1
            elif self._pipelines.get(thread.ident or 0) is not pipeline:
                self._pipelines[thread.ident or 0] = pipeline
                self.count += 1

    def _commit(self, conn: Connection) -> None:
        if not threading.current_thread().name.startswith(self._threads):
            return
        driver: Any = conn.connection.driver_connection
        pgconn = getattr(driver, "pgconn", None)
        if driver.in_transaction if pgconn is None else pgconn.transaction_status != IDLE:
            with self._lock:
                self.count += 1
