"""Keeps this instance's presence alive from a background thread (see ``domain.presence``)."""

from __future__ import annotations

import logging
import threading

from domain.presence import PresenceService

log = logging.getLogger("tabletop.presence")


class PresenceRunner:
    def __init__(self, presence: PresenceService, interval_seconds: float) -> None:
        self.presence = presence
        self.interval_seconds = interval_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="presence-heartbeat", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop renewing and end this instance's connections at once (a clean shutdown)."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout)
            self._thread = None
            try:
                self.presence.leave()
            except Exception:
                log.exception("clearing this instance's presence failed; it expires by itself")

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.presence.heartbeat()
            except Exception:
                log.exception("presence heartbeat failed; retrying at the next beat")
            self._stop.wait(self.interval_seconds)
