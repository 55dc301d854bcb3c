"""Plays bot seats in the background, in this process, one decision per transaction.

Any committed change to an in-progress game with bots queues it; the worker plays one bot
decision (a searching level thinks in the server's process pool, ``api/background/thinking.py``,
within the decision's budget, and its answer is committed only if the game did not move on
meanwhile), which queues the game again, so games take turns and a game of bots runs to its end on
its own. Scheduling is fair: games where a person waits on a bot go first, games of bots only take
turns behind them (one decision each per pass, and at least one every ``URGENT_BURST`` decisions
so they never starve). At start every in-progress game with a bot seat is queued, page by page,
however many there are.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque

from domain.bots.thinking import BotBudget, Thinker
from domain.errors import DomainError, VersionConflict
from domain.services.play import PlayService

log = logging.getLogger("tabletop.bots")

URGENT_BURST = 8
"""Decisions for games with a waiting person before one game of bots only gets its turn."""
RESUME_PAGE = 500
"""Games read per query when queueing every in-progress game with a bot at start."""


class BotRunner:
    def __init__(
        self,
        service: PlayService,
        think_seconds: float = 0.0,
        resume_page: int = RESUME_PAGE,
        thinker: Thinker | None = None,
        budget: BotBudget | None = None,
    ) -> None:
        self.service = service
        self.think_seconds = think_seconds
        self.thinker = thinker
        """Where the searching levels think (the server's process pool); None: on this thread."""
        self.budget = budget if budget is not None else BotBudget()
        self.resume_page = resume_page
        self._urgent: deque[str] = deque()
        self._background: deque[str] = deque()
        self._queued: set[str] = set()
        self._burst = 0
        self._ready = threading.Condition()
        self._stopping = False
        self._thread: threading.Thread | None = None

    def notify(self, game_id: str, human_waiting: bool = True) -> None:
        """Queue a game: ahead of the games of bots only when a person plays in it."""
        with self._ready:
            if game_id in self._queued:
                return
            self._queued.add(game_id)
            (self._urgent if human_waiting else self._background).append(game_id)
            self._ready.notify()

    def next_game(self) -> str | None:
        """The game whose bot plays next (None when nothing is queued)."""
        with self._ready:
            return self._take()

    def _take(self) -> str | None:
        use_background = self._background and (not self._urgent or self._burst >= URGENT_BURST)
        if use_background:
            self._burst = 0
            game_id = self._background.popleft()
        elif self._urgent:
            self._burst += 1
            game_id = self._urgent.popleft()
        else:
            return None
        self._queued.discard(game_id)
        return game_id

    def resume(self) -> int:
        """Queue every in-progress game with a bot seat (keyset pages, oldest first)."""
        queued, after = 0, ""
        while page := self.service.games_with_bots_in_progress(after, self.resume_page):
            for game in page:
                self.notify(game.id, game.has_humans)
            queued += len(page)
            after = page[-1].id
        return queued

    def start(self) -> None:
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="bot-runner", daemon=True)
        self._thread.start()
        self.resume()

    def stop(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            with self._ready:
                self._stopping = True
                self._ready.notify_all()
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._stopping and (game_id := self._take()) is None:
                    self._ready.wait()
                if self._stopping:
                    return
            assert game_id is not None
            if self.think_seconds:
                time.sleep(self.think_seconds)
            self.play(game_id)

    def play(self, game_id: str) -> None:
        try:
            self.service.play_bot_turn(game_id, self.thinker, self.budget)
        except VersionConflict:
            # Whoever won the race queued the game again if a person plays in it; as a game of
            # bots only it waits its turn behind those.
            self.notify(game_id, human_waiting=False)
        except DomainError as exc:
            log.warning("bot turn refused", extra={"game_id": game_id, "error": exc.code})
        except Exception:
            log.exception("bot turn failed", extra={"game_id": game_id})
