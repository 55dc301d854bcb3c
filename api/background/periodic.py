"""A background thread that does one piece of work every few seconds until stopped.

Each instance runs several (deadlines, presence heartbeats): the work is durable in the database,
so a failed round is logged and simply tried again at the next one.
"""

from __future__ import annotations

import logging
import threading


class PeriodicThread:
    """Calls ``tick`` every ``interval_seconds`` on a daemon thread named ``name``."""

    name = "periodic"
    failure = "periodic work failed; retrying at the next round"

    def __init__(self, interval_seconds: float, log: logging.Logger) -> None:
        self.interval_seconds = interval_seconds
        self.log = log
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after the current round."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout)
            self._thread = None
            self.stopped()

    def stopped(self) -> None:
        """Called once the thread has stopped (a clean shutdown)."""

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.tick()
            except Exception:
                self.log.exception(self.failure)
            self._stop.wait(self.interval_seconds)
