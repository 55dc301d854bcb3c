"""One SQLite writer at a time, across the threads of a process and across worker processes.

SQLite allows a single writer; left to its busy handler, contending writers sleep in growing steps
and contention turns into long tail latency. Writers therefore queue on this lock instead: a thread
lock inside the process, then an advisory ``flock`` on a file beside the database, so that several
worker processes serving one SQLite file (``python -m api serve --workers N``) queue the same way.
"""

from __future__ import annotations

import os
import threading

try:
    import fcntl
except ImportError:  # not on POSIX: one process only, the thread lock is enough
    fcntl = None  # type: ignore[assignment]


class SqliteWriteLock:
    """``acquire``/``release`` like ``threading.Lock``, held by one writer of the database at a time."""

    def __init__(self, database_path: str) -> None:
        self._thread_lock = threading.Lock()
        self._path = f"{database_path}-writelock"
        self._fd: int | None = None

    def acquire(self) -> None:
        self._thread_lock.acquire()
        if fcntl is None:
            return
        try:
            if self._fd is None:
                self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._thread_lock.release()
            raise

    def release(self) -> None:
        try:
            if fcntl is not None and self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            self._thread_lock.release()
