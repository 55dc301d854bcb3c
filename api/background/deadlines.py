"""Fires due deadlines (turn clocks, abandoned lobbies) from a background thread of each instance.

Polling the database keeps the schedule durable: a deadline is a stored time that any instance
fires, after any restart, exactly once (see ``domain.services.deadlines``).
"""

from __future__ import annotations

import logging

from api.background.periodic import PeriodicThread
from domain.services.deadlines import DeadlineService

log = logging.getLogger("tabletop.deadlines")


class DeadlineRunner(PeriodicThread):
    name = "deadline-runner"
    failure = "firing deadlines failed; retrying at the next poll"

    def __init__(self, deadlines: DeadlineService, poll_seconds: float) -> None:
        super().__init__(poll_seconds, log)
        self.deadlines = deadlines

    def tick(self) -> None:
        self.deadlines.fire_due()
