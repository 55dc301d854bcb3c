"""What the end-to-end tests need beyond one throwaway server: PostgreSQL, Redis, servers we can kill.

Like ``tests/integration``: a test needing PostgreSQL or Redis skips with a clear message when the
server is not reachable, except under ``CI=true`` where a missing server is a failure.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx

from tests.e2e.harness import ROOT, free_port, wait_healthy
from tests.e2e.play import auth, start_game
from tests.services import postgres_database as shared_postgres_database

LOOPBACK_LOAD = {
    "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
    "TABLETOP_RATE_LIMIT_BURST": "100000",
    "TABLETOP_MAX_WEBSOCKETS_PER_CLIENT": "10000",
}
"""Settings for servers under a load test: every test client comes from 127.0.0.1, so the per-address
rate and websocket limits (meant for real clients; tested on their own) are lifted."""


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh, empty database ``tabletop_e2e_<random>``, dropped afterwards; yields its URL."""
    with shared_postgres_database("tabletop_e2e") as url:
        yield url.render_as_string(hide_password=False)


class ServerProcess:
    """``tests.e2e.serve_for_tests`` (or any ``python -m`` command) on loopback that a test may kill.

    Stderr goes to a file (a pipe nobody reads could fill and stall the server).
    """

    def __init__(self, env: Mapping[str, str], log_dir: Path, port: int | None = None) -> None:
        self.env = {**os.environ, "TABLETOP_LOG_LEVEL": "WARNING", **LOOPBACK_LOAD, **env}
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_dir / f"server-{self.port}-{secrets.token_hex(3)}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[Any] | None = None

    def start(self, wait: bool = True) -> ServerProcess:
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.serve_for_tests", str(self.port)],
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
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
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


def new_duel(http: httpx.Client, rounds: int = 1, seats: int = 2) -> tuple[str, list[str]]:
    """Create, seat and start a duel; its id and the seat tokens."""
    game, tokens = start_game(http, "duel", seats, {"rounds": rounds})
    return game["id"], tokens


def all_events(http: httpx.Client, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
    """The whole history as ``token``'s seat (or a spectator) sees it."""
    headers = auth(token) if token else {}
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = http.get(f"/v1/games/{game_id}/events", params={"after": after}, headers=headers)
        assert page.status_code == 200, page.text
        body = page.json()
        events.extend(body["events"])
        if not body["events"]:
            return events
        after = body["last_seq"]
