"""Live streams (SSE) have the websockets' caps, for the server as a whole (issue 31 item 2): 300
streams from one address to ``serve --workers 2`` get 10 accepted (the per-address cap, counted by
the supervisor's limit hub for both workers) and 290 ``429 too_many_streams``; the 10 accepted
ones never read, and another reader of the same game still gets every event of the game as it is
played, exactly the stored history."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.live import Received, follow
from tests.support.play import PlayedGame, all_events, play_over_rest
from tests.support.servers import worker_processes

pytestmark = pytest.mark.timeout(300)

STREAMS = 300
PER_ADDRESS = 10


def open_stream(base: str, game_id: str, address: str) -> tuple[socket.socket, int]:
    """A stream that never reads past its status line: a small receive buffer, never emptied."""
    parts = urlsplit(base)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((parts.hostname or "127.0.0.1", parts.port or 80))
    request = (
        f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: test\r\nX-Forwarded-For: {address}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    )
    sock.sendall(request.encode())
    sock.settimeout(60)
    line = b""
    while not line.endswith(b"\r\n"):
        chunk = sock.recv(1)
        assert chunk, "closed before the status line"
        line += chunk
    return sock, int(line.split()[1])


def test_streams_are_capped_per_address_across_workers_and_idle_readers_cost_only_themselves(
    tmp_path: Path,
) -> None:
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'streams.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_MAX_WEBSOCKETS_PER_CLIENT": str(PER_ADDRESS),
        "TABLETOP_TRUSTED_PROXIES": "127.0.0.1",
    }
    sockets: list[socket.socket] = []
    statuses: list[int] = []
    followed: list[Received] = []
    try:
        with worker_processes(env, tmp_path, workers=2) as (base, _):

            def watch(game: PlayedGame) -> None:
                for _ in range(STREAMS):
                    sock, status = open_stream(base, game.game_id, "198.51.100.30")
                    statuses.append(status)
                    if status == 200:
                        sockets.append(sock)  # kept open, never read
                    else:
                        sock.close()
                reader = threading.Thread(
                    target=lambda: followed.append(asyncio.run(follow(base, game.game_id, None, None)))
                )
                reader.start()
                readers.append(reader)

            readers: list[threading.Thread] = []
            with httpx.Client(base_url=base, timeout=60) as http:
                game = play_over_rest(http, "duel", 2, {"rounds": 3}, started=watch)
                for reader in readers:
                    reader.join(120)
                stored = all_events(http, game.game_id)
    finally:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()
    assert statuses.count(200) == PER_ADDRESS and statuses.count(429) == STREAMS - PER_ADDRESS, statuses
    assert len(followed) == 1
    assert [event["id"] for event in followed[0].events] == [event["seq"] for event in stored]
    assert [event["data"]["data"] for event in followed[0].events] == [event["data"] for event in stored]
