"""Fires due deadlines (turn clocks, abandoned lobbies) from a background thread of each instance.

Polling the database keeps the schedule durable: a deadline is a stored time that any instance
fires, after any restart, exactly once (see ``domain.deadlines``).
"""

from __future__ import annotations

import logging
import threading

from domain.deadlines import DeadlineService

log = logging.getLogger("tabletop.deadlines")


class DeadlineRunner:
    def __init__(self, deadlines: DeadlineService, poll_seconds: float) -> None:
        self.deadlines = deadlines
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="deadline-runner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.deadlines.fire_due()
            except Exception:
                log.exception("firing deadlines failed; retrying at the next poll")
            self._stop.wait(self.poll_seconds)
