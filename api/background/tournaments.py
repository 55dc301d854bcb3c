"""Starts tournaments at their start time and pairs each next round, from a background thread of
each instance.

The schedule is durable: a tournament's next action is a stored time any instance takes (locked,
``domain.services.tournaments``), after any restart, exactly once. The service rings this runner
when a round may have become due (a round game ended, a host started), so a round follows the
last game at once instead of at the next poll."""

from __future__ import annotations

import logging
import threading

from domain.services.tournaments import TournamentService

log = logging.getLogger("tabletop.tournaments")

MAX_STEPS_PER_ROUND = 50
"""Due tournaments handled one after another before the runner looks at its stop flag again."""


class TournamentRunner:
    def __init__(self, tournaments: TournamentService, poll_seconds: float) -> None:
        self.tournaments = tournaments
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._bell = threading.Event()
        self._thread: threading.Thread | None = None

    def ring(self) -> None:
        self._bell.set()

    def start(self) -> None:
        self._stop.clear()
        self.tournaments.wake.append(self.ring)
        self._thread = threading.Thread(target=self._run, name="tournament-runner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            self._stop.set()
            self._bell.set()
            self._thread.join(timeout)
            self._thread = None
            self.tournaments.wake.remove(self.ring)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._bell.clear()
            try:
                for _ in range(MAX_STEPS_PER_ROUND):
                    if self._stop.is_set() or not self.tournaments.run_due():
                        break
            except Exception:
                log.exception("running due tournaments failed; retrying at the next poll")
            self._bell.wait(self.poll_seconds)
