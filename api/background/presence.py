"""Keeps this instance's presence alive from a background thread (see ``domain.services.presence``)."""

from __future__ import annotations

import logging

from api.background.periodic import PeriodicThread
from domain.services.presence import PresenceService

log = logging.getLogger("tabletop.presence")


class PresenceRunner(PeriodicThread):
    name = "presence-heartbeat"
    failure = "presence heartbeat failed; retrying at the next beat"

    def __init__(self, presence: PresenceService, interval_seconds: float) -> None:
        super().__init__(interval_seconds, log)
        self.presence = presence

    def tick(self) -> None:
        self.presence.heartbeat()

    def stopped(self) -> None:
        """End this instance's connections at once (a clean shutdown)."""
        try:
            self.presence.leave()
        except Exception:
            log.exception("clearing this instance's presence failed; it expires by itself")
