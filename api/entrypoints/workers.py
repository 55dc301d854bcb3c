"""Serving with one worker process per core: ``python -m api serve --workers N`` (or ``auto``).

The supervisor binds the listening socket once and starts N copies of ``python -m api serve`` that
accept on it, each pinned to its own core where the platform allows (``sched_setaffinity``): one
interpreter per core, and no interpreter lock bouncing between cores. The guarantees stay those of
several instances: the database orders and commits every change (SQLite writers queue on a lock
file shared by the processes, PostgreSQL as ever), and live events cross processes through Redis
when it is configured, else through an ``EventHub`` on a Unix socket run here; rate budgets (unless
in Redis) and websocket caps are counted for all the workers by a ``LimitHub`` run here. A worker that dies
is started again; SIGINT or SIGTERM stops them all. A supervisor that dies (SIGKILL, a crash) takes
its workers with it: each worker watches its parent and shuts down once the parent is gone, since
without the supervisor's hubs it could count no server-wide limit and share no live event
(``ParentWatch``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import Any

from api.entrypoints.serve import serve, serve_owned
from api.settings import Settings
from persistence.event_hub import EventHub
from persistence.limits.hub import LimitHub

log = logging.getLogger(__name__)

RESTART_PAUSE = 1.0
PARENT_POLL_SECONDS = 0.5
ORPHAN_GRACE_SECONDS = 10.0
"""A worker whose supervisor died shuts down gracefully; still running this long after, it exits."""


def worker_count(requested: str) -> int:
    """``auto``: one per core this process may run on; otherwise the number given (at least 1)."""
    if requested == "auto":
        return max(1, len(usable_cpus()))
    count = int(requested)
    if count < 1:
        raise ValueError("--workers must be at least 1 (or auto)")
    return count


def usable_cpus() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def pin_to_cpu(index: int) -> int | None:
    """Pin this process to the ``index``-th usable core (round robin); the core, or None if the
    platform cannot pin."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpus = usable_cpus()
    cpu = cpus[index % len(cpus)]
    os.sched_setaffinity(0, {cpu})
    return cpu


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class Supervisor:
    def __init__(
        self,
        host: str,
        port: int,
        workers: int,
        pin: bool,
        extra_env: dict[str, str],
        module: str,
        owners: str,
    ) -> None:
        self.host, self.port, self.workers, self.pin = host, port, workers, pin
        self.owners = owners
        self.extra_env = extra_env
        self.module = module
        self.sock = listening_socket(host, port)
        self.children: dict[int, subprocess.Popen[bytes]] = {}
        self.stopping = threading.Event()

    def command(self, index: int) -> list[str]:
        command = [sys.executable, "-m", self.module, "serve", "--fd", str(self.sock.fileno())]
        command += ["--worker-index", str(index), "--workers", str(self.workers), "--owners", self.owners]
        command += ["--supervisor", str(os.getpid())]
        if self.pin:
            command.append("--pin")
        return command

    def spawn(self, index: int) -> None:
        self.children[index] = subprocess.Popen(
            self.command(index), env={**os.environ, **self.extra_env}, pass_fds=(self.sock.fileno(),)
        )

    def run(self) -> int:
        for index in range(self.workers):
            self.spawn(index)
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: self.stopping.set())
        while not self.stopping.wait(0.2):
            for index, child in list(self.children.items()):
                if child.poll() is not None:
                    log.warning("worker %d exited with %s; starting it again", index, child.returncode)
                    time.sleep(RESTART_PAUSE)
                    if not self.stopping.is_set():
                        self.spawn(index)
        for child in self.children.values():
            if child.poll() is None:
                child.terminate()
        for child in self.children.values():
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
        self.sock.close()
        return 0


def serve_workers(
    host: str, port: int, workers: int, pin: bool, redis_configured: bool, module: str = "api"
) -> int:
    """Run ``workers`` worker processes (with a limit hub for them, and an event hub between them
    unless Redis is set); each is ``python -m <module> serve --fd N --worker-index I [--pin]``."""
    extra_env: dict[str, str] = {}
    hub_loop = asyncio.new_event_loop()
    hub: EventHub | None = None
    directory = tempfile.mkdtemp(prefix="tabletop-hub-")
    limits = LimitHub(os.path.join(directory, "limits.sock"))  # limits for the server, not per worker
    hub_loop.run_until_complete(limits.start())
    extra_env["TABLETOP_LIMIT_HUB"] = limits.path
    extra_env["TABLETOP_WORKER_PROCESSES"] = str(workers)  # each sizes its share of the database pool
    hub_thread = threading.Thread(target=hub_loop.run_forever, name="hubs", daemon=True)
    if not redis_configured:
        hub = EventHub(os.path.join(directory, "events.sock"))
        hub_loop.run_until_complete(hub.start())
        extra_env["TABLETOP_EVENT_HUB"] = hub.path
    hub_thread.start()
    try:
        return Supervisor(host, port, workers, pin, extra_env, module, directory).run()
    finally:
        for stopping in (hub, limits):
            if stopping is not None:
                asyncio.run_coroutine_threadsafe(stopping.stop(), hub_loop).result(timeout=5)
        hub_loop.call_soon_threadsafe(hub_loop.stop)
        hub_thread.join(timeout=5)
        hub_loop.close()
        shutil.rmtree(directory, ignore_errors=True)


def describe(workers: int, cpus: Sequence[int], pin: bool, redis_configured: bool) -> str:
    events = "Redis" if redis_configured else "an event hub on a Unix socket"
    pinned = f", pinned to cores {', '.join(map(str, cpus))}" if pin else ""
    return f"{workers} worker processes{pinned}; live events between them through {events}"


class ParentWatch:
    """Ends a worker whose supervisor is gone (the worker is then re-parented, so its parent pid
    changes): SIGTERM to itself, which uvicorn answers with a graceful shutdown, then ``os._exit``
    if that has not ended the process within ``grace`` seconds (a stream that never ends)."""

    def __init__(
        self, parent: int, every: float = PARENT_POLL_SECONDS, grace: float = ORPHAN_GRACE_SECONDS
    ) -> None:
        self.parent, self.every, self.grace = parent, every, grace
        self.thread = threading.Thread(target=self._watch, name="parent-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _watch(self) -> None:
        while os.getppid() == self.parent:
            time.sleep(self.every)
        log.warning("the supervisor (pid %d) is gone; this worker stops serving", self.parent)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(self.grace)
        log.warning("the worker did not stop within %g s of its supervisor; exiting", self.grace)
        os._exit(1)


def serve_worker(
    app: Any,
    settings: Settings,
    fd: int,
    index: int,
    pin: bool,
    workers: int = 1,
    owners: str | None = None,
    supervisor: int | None = None,
) -> None:
    """Worker ``index`` of ``workers``: accept on the supervisor's socket ``fd``, pinned to its core
    if asked; with ``owners`` (the directory of the workers' hand-off sockets) each connection is
    served by the worker that owns its game (``api.entrypoints.owners``). It stops when the
    ``supervisor`` that started it (its pid, given by the supervisor) is gone: by then this worker
    may be re-parented already (a supervisor killed while the worker was still importing), so its
    own parent pid at this point is not evidence of the supervisor."""
    ParentWatch(os.getppid() if supervisor is None else supervisor).start()
    if pin:
        pin_to_cpu(index)
    sock = socket.socket(fileno=fd)
    if owners is None:
        serve(app, settings, "", 0, sock)
    else:
        serve_owned(app, settings, sock, index, workers, owners)
