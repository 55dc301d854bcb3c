"""Plays bot seats in the background, in this process, one decision per transaction.

Any committed change to an in-progress game queues it; the worker plays one bot decision, which
queues the game again, so games take turns and an all-bot game runs to its end on its own.
"""

from __future__ import annotations

import logging
import queue
import threading
import time

from domain.errors import DomainError, VersionConflict
from domain.services import GameService

log = logging.getLogger("tabletop.bots")
STOP = ""


class BotRunner:
    def __init__(self, service: GameService, think_seconds: float = 0.0) -> None:
        self.service = service
        self.think_seconds = think_seconds
        self._queue: queue.Queue[str] = queue.Queue()
        self._queued: set[str] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def notify(self, game_id: str) -> None:
        with self._lock:
            if game_id in self._queued:
                return
            self._queued.add(game_id)
        self._queue.put(game_id)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="bot-runner", daemon=True)
        self._thread.start()
        for summary in self.service.list_games("in_progress", None, 1000, 0):
            self.notify(summary.id)

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            self._queue.put(STOP)
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while (game_id := self._queue.get()) != STOP:
            with self._lock:
                self._queued.discard(game_id)
            if self.think_seconds:
                time.sleep(self.think_seconds)
            try:
                self.service.play_bot_turn(game_id)
            except VersionConflict:
                self.notify(game_id)
            except DomainError as exc:
                log.warning("bot turn refused", extra={"game_id": game_id, "error": exc.code})
            except Exception:
                log.exception("bot turn failed", extra={"game_id": game_id})
