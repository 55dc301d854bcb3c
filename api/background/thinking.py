"""The server's bot thinking pool: the searching levels think in worker processes of their own.

One pool per server process (each instance its own), of ``TABLETOP_BOT_PROCESSES`` processes
started at the first searching decision, with ``spawn`` (a fresh interpreter: no thread of the
server is copied into it). A search holds no lock a request needs and runs outside the server's
interpreter at the lowest niceness (19 unless ``TABLETOP_BOT_NICENESS`` says otherwise, in a
session of its own), so neither the event loop nor the group commit's writers wait while a bot
thinks, and on a busy machine the server's processes get the cores first; the bot runner hands
one decision at a time to the pool and commits the answer itself.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache

from domain.bots.thinking import ThinkRequest, think
from domain.engine import Choice
from domain.registry import EngineRegistry, default_registry

log = logging.getLogger("tabletop.bots")

NICENESS = 19
"""The workers' default scheduling priority, lowest: on a busy machine the server's own processes
(every person's request) get the cores first, and a bot's search gets what is left within its
budget."""
OVERTIME_SECONDS = 30.0
"""How long past its budget a decision may take before the pool is deemed stuck."""


@cache
def _registry() -> EngineRegistry:
    return default_registry()


def _lower_priority(niceness: int) -> None:
    """In each worker process as it starts: the pool's priority (``NICENESS`` by default), in a
    session of its own. Linux's autogroup shares the CPU between sessions first and by niceness
    only within one, so a worker left in the server's session would spend the server's share; in
    its own session, the session's niceness (``/proc/self/autogroup``) is set too. Not Linux's idle
    policy (``SCHED_IDLE``): under it a busy machine starves a bot for minutes (a greedy bot's
    game stalled behind a starved search for over 200 s at load 22), and a bot that never moves
    is a fault, not a courtesy (bench/README.md, bench-bot-latency run 4)."""
    with contextlib.suppress(OSError):
        os.setsid()
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as autogroup:
        autogroup.write(str(niceness))
    with contextlib.suppress(OSError):
        os.nice(niceness)
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), name="exit-with-server", daemon=True).start()


PARENT_CHECK_SECONDS = 1.0


def _exit_with(parent: int) -> None:
    """A worker ends when its server does, however the server ended. In a session of its own no
    signal to the server's process group reaches it, and a pool's queue never reads as closed
    while sibling workers hold its other end: without this, a killed server's workers live on."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def _think(request: ThinkRequest) -> Choice:
    """In a worker process: the request's game from the hosted games, and the bot's choice."""
    game = _registry().game(request.game_type)
    return think(request, game.engine, game.search)


class ProcessThinker:
    """A ``Thinker`` running each request in a bounded process pool."""

    def __init__(self, processes: int, niceness: int = NICENESS) -> None:
        self.processes = processes
        self.niceness = niceness
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
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                    initargs=(self.niceness,),
                )
            return self._pool

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)
