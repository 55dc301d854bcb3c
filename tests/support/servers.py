"""The real server as a subprocess on loopback: one we start and stop, several at once, the worker
supervisor with its workers, and the SQLite file behind one (tests may read secrets there, clients
may not)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from tests.support.waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
SERVE_FOR_TESTS = "tests.support.serve_for_tests"

LOOPBACK_LOAD = {
    "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
    "TABLETOP_RATE_LIMIT_BURST": "100000",
    "TABLETOP_MAX_WEBSOCKETS_PER_CLIENT": "10000",
    "TABLETOP_DB_CONNECT_TIMEOUT_SECONDS": "15",
    "TABLETOP_DB_STATEMENT_TIMEOUT_SECONDS": "20",
}
"""Settings for servers under a load test: every test client comes from 127.0.0.1, so the per-address
rate and websocket limits (meant for real clients; tested on their own) are lifted; and the test
machine is shared and often overloaded (load 12-18 on 2 cores seen), where the production database
timeouts (3 s for a pooled connection, 5 s a statement) answered ordinary moves 503. The tests of
those timeouts (partition, pool exhaustion) set them explicitly."""

TEST_SERVER = {"TABLETOP_LOG_LEVEL": "WARNING", "TABLETOP_BOT_NICENESS": "0"}
"""What every test server starts with (a test's own settings override it): warnings only in its
log, and bots thinking at the server's own priority. At niceness 19 (production's default,
people's requests first) a stand-in beside the suite's busy workers waited over 90 s for a core
(CI, stop 38); the pool's priority is tested on its own (tests/service/test_bot_thinking.py) and
its effect on people's latency is a benchmark row (bench-bot-latency)."""


@dataclass(frozen=True)
class ServerWithDatabase:
    base: str
    db: Path


def stored_state(db: Path, game_id: str) -> dict[str, Any]:
    """The engine's complete stored state (secrets included), straight from the server's file."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as connection:
        row = connection.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
    assert row is not None and row[0] is not None
    state: dict[str, Any] = json.loads(row[0])
    return state


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_server(
    env: Mapping[str, str], port: int | None = None, production: bool = False
) -> Iterator[str]:
    """Start ``tests.support.serve_for_tests`` (or, ``production``, ``python -m api`` as deployed:
    no test game beside the real ones) and yield its base URL; stopped (killed if need be) after.

    Stderr goes to a file: a pipe nobody reads fills up and stalls a long-lived server."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    serve = ["api", "--port"] if production else [SERVE_FOR_TESTS]
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", *serve, str(port)],
            cwd=ROOT,
            env={**os.environ, **TEST_SERVER, **env},
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            try:
                wait_healthy(base, process)
            except RuntimeError as error:
                stderr.seek(0)
                raise RuntimeError(f"{error}\n{stderr.read().decode(errors='replace')[-2000:]}") from None
            yield base
        finally:
            stop(process)


def stop(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if it has not exited within ``timeout`` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def wait_healthy(base: str, process: subprocess.Popen[bytes], timeout: float = 90.0) -> None:
    """Until ``/healthz`` answers 200; a RuntimeError if the process exits or the time is up."""

    def healthy() -> bool:
        if process.poll() is not None:
            stderr = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"server exited with {process.returncode}: {stderr[-2000:]}")
        try:
            return httpx.get(f"{base}/healthz", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        eventually(healthy, timeout, every=0.1)
    except AssertionError:
        raise RuntimeError(f"server at {base} did not become healthy in {timeout} s") from None


class ServerProcess:
    """``tests.support.serve_for_tests`` on loopback that a test may kill, stop and start again.

    Stderr goes to a file (a pipe nobody reads could fill and stall the server).
    """

    def __init__(self, env: Mapping[str, str], log_dir: Path, port: int | None = None) -> None:
        self.env = {**os.environ, **TEST_SERVER, **LOOPBACK_LOAD, **env}
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_dir / f"server-{self.port}-{secrets.token_hex(3)}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[Any] | None = None

    def start(self, wait: bool = True) -> ServerProcess:
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", SERVE_FOR_TESTS, str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        if wait:
            self.wait_healthy()
        return self

    def wait_healthy(self, timeout: float = 90.0) -> None:
        assert self.process is not None
        try:
            wait_healthy(self.base, self.process, timeout)
        except RuntimeError as error:
            raise RuntimeError(f"{error}\n{self.stderr()[-2000:]}") from None

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, exactly like a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
        if self._log is not None:
            self._log.close()
            self._log = None

    def stderr(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@contextmanager
def running_servers(envs: list[Mapping[str, str]], log_dir: Path) -> Iterator[list[ServerProcess]]:
    """Start several servers at once (start-up is mostly imports: overlap it), stop them all after."""
    servers = [ServerProcess(env, log_dir) for env in envs]
    try:
        for server in servers:
            server.start(wait=False)
        for server in servers:
            server.wait_healthy()
        yield servers
    finally:
        for server in servers:
            server.stop()


@contextmanager
def load_balancer(instances: list[str], directory: Path) -> Iterator[str]:
    """HAProxy with the shipped ``deploy/haproxy.cfg`` on a free loopback port in front of two
    instances (``host:port`` each): its URL once it answers and sees both instances up."""
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    port = free_port()
    env = {
        **os.environ,
        "TABLETOP_LB_BIND": f"127.0.0.1:{port}",
        "TABLETOP_API_1": instances[0],
        "TABLETOP_API_2": instances[1],
    }
    with (directory / f"haproxy-{port}.log").open("ab") as log_file:
        process = subprocess.Popen(
            [haproxy, "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(base, process, timeout=30)
            yield base
        finally:
            stop(process)


def counted(base: str, route: str, method: str = "GET") -> float:
    """How many requests one instance counted for ``route`` (a template) with ``method``, any status."""
    text = httpx.get(f"{base}/metrics", timeout=10).text
    wanted = ("tabletop_http_requests_total{", f'route="{route}"', f'method="{method}"')
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(wanted[0]) and wanted[1] in line and wanted[2] in line
    )


def children(pid: int) -> list[int]:
    listed = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return [int(line) for line in listed.stdout.split()]


@contextmanager
def worker_processes(env: dict[str, str], directory: Path, workers: int = 2) -> Iterator[tuple[str, int]]:
    """The worker supervisor (as ``python -m api serve --workers N``) on a free port: its URL and
    its pid, once every worker accepts (not only the first)."""
    port = free_port()
    log_path = directory / f"workers-{port}.log"
    with log_path.open("ab") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", SERVE_FOR_TESTS, str(port), str(workers)],
            cwd=ROOT,
            env={**os.environ, **TEST_SERVER, **LOOPBACK_LOAD, **env},
            stdout=subprocess.DEVNULL,
            stderr=log_file,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            try:
                wait_healthy(base, process, timeout=90)
            except RuntimeError as error:
                raise RuntimeError(f"{error}\n{log_path.read_text()[-2000:]}") from None
            eventually(lambda: len(children(process.pid)) >= workers, 60, "every worker started", 0.1)
            yield base, process.pid
        finally:
            stop(process, timeout=20)
