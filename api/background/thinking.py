"""The server's bot thinking pool: the searching levels think in worker processes of their own.

One pool per server process (each instance its own), of ``TABLETOP_BOT_PROCESSES`` processes
started at the first searching decision, with ``spawn`` (a fresh interpreter: no thread of the
server is copied into it). A search holds no lock a request needs and runs outside the server's
interpreter, so neither the event loop nor the group commit's writers wait while a bot thinks;
the bot runner hands one decision at a time to the pool and commits the answer itself.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache

from domain.bots.thinking import ThinkRequest, think
from domain.engine import Choice
from domain.registry import EngineRegistry, default_registry

log = logging.getLogger("tabletop.bots")

OVERTIME_SECONDS = 30.0
"""How long past its budget a decision may take before the pool is deemed stuck."""


@cache
def _registry() -> EngineRegistry:
    return default_registry()


def _think(request: ThinkRequest) -> Choice:
    """In a worker process: the request's game from the hosted games, and the bot's choice."""
    game = _registry().game(request.game_type)
    return think(request, game.engine, game.search)


class ProcessThinker:
    """A ``Thinker`` running each request in a bounded process pool."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def __call__(self, request: ThinkRequest) -> Choice:
        pool = self._executor()
        budget = request.seconds if request.seconds is not None else OVERTIME_SECONDS
        try:
            return pool.submit(_think, request).result(timeout=budget + OVERTIME_SECONDS)
        except BrokenProcessPool:
            log.warning("bot thinking pool broke; starting a new one")
            self._discard(pool)
            raise

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=multiprocessing.get_context("spawn")
                )
            return self._pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)
