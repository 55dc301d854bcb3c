"""Run the real server as a subprocess on loopback, and talk GraphQL over websockets to it."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[2]


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
    """Start ``tests.e2e.serve_for_tests`` (or, ``production``, ``python -m api`` as deployed:
    no test game beside the real ones) and yield its base URL; stopped (killed if need be) after.

    Stderr goes to a file: a pipe nobody reads fills up and stalls a long-lived server."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    serve = ["api", "--port"] if production else ["tests.e2e.serve_for_tests"]
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", *serve, str(port)],
            cwd=ROOT,
            env={**os.environ, "TABLETOP_LOG_LEVEL": "WARNING", **env},
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
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def wait_healthy(base: str, process: subprocess.Popen[bytes], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stderr = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"server exited with {process.returncode}: {stderr[-2000:]}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server at {base} did not become healthy in {timeout} s")


class GraphQLSocket:
    """A minimal graphql-transport-ws client."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    async def subscribe(self, query: str, variables: dict[str, Any]) -> str:
        op_id = uuid.uuid4().hex
        await self.connection.send(
            json.dumps(
                {"id": op_id, "type": "subscribe", "payload": {"query": query, "variables": variables}}
            )
        )
        return op_id

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.connection.recv(), timeout))
            if message["type"] == "ping":
                await self.connection.send(json.dumps({"type": "pong"}))
                continue
            return message


@asynccontextmanager
async def graphql_socket(base: str, token: str | None = None) -> AsyncIterator[GraphQLSocket]:
    url = base.replace("http://", "ws://") + "/graphql"
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"]) as connection:  # type: ignore[list-item]
        payload = {"authorization": f"Bearer {token}"} if token else {}
        await connection.send(json.dumps({"type": "connection_init", "payload": payload}))
        ack = json.loads(await asyncio.wait_for(connection.recv(), 10))
        assert ack["type"] == "connection_ack", ack
        yield GraphQLSocket(connection)


GAME_EVENTS = """
subscription Events($gameId: ID!, $after: Int!) {
  gameEvents(gameId: $gameId, after: $after) { seq type data }
}
"""


async def events_until_over(
    base: str, game_id: str, token: str | None = None, after: int = 0, timeout: float = 30.0
) -> list[dict[str, Any]]:
    """Subscribe as ``token``'s viewer and collect every event up to ``game_over``."""
    async with graphql_socket(base, token) as socket:
        op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": after})
        events: list[dict[str, Any]] = []
        while True:
            message = await socket.receive(timeout=timeout)
            assert message["type"] == "next" and message["id"] == op, message
            events.append(message["payload"]["data"]["gameEvents"])
            if events[-1]["type"] == "game_over":
                return events


class BackgroundSubscribers:
    """Websocket subscribers (one per viewer) following a game from a thread of their own, while
    the test plays it over HTTP; ``join`` returns what each viewer received."""

    def __init__(self, base: str, game_id: str, viewers: Mapping[str, str | None]) -> None:
        self.events: dict[str, list[dict[str, Any]]] = {}
        self._failure: list[BaseException] = []

        async def collect_all() -> None:
            results = await asyncio.gather(
                *(events_until_over(base, game_id, token) for token in viewers.values())
            )
            self.events = dict(zip(viewers, results, strict=True))

        def run() -> None:
            try:
                asyncio.run(collect_all())
            except BaseException as exc:  # reported to the test by join()
                self._failure.append(exc)

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def join(self, timeout: float = 30.0) -> dict[str, list[dict[str, Any]]]:
        self._thread.join(timeout)
        assert not self._failure, self._failure
        assert not self._thread.is_alive(), "a websocket subscriber never saw game_over"
        return self.events
