"""One owner per game between workers (``api.entrypoints.owners``): a connection accepted by one
worker whose first request names a game another worker owns is served by that owner, from its
first byte and with the client's own address; a connection naming no game, or a game of the
acceptor, or whose owner cannot take it, is served where it was accepted.

Two routers in one event loop, each with its own listening socket (so the test decides which one
accepts), real sockets and real descriptor passing; each "server" answers with its name, the
request line it read and the peer address it saw."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from api.entrypoints.owners import OwnerRouter, game_of, owner_of
from tests.support.servers import ROOT

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(30)]


def owned_by(slot: int, workers: int = 2, prefix: str = "game") -> str:
    return next(f"{prefix}{n}" for n in range(1000) if owner_of(f"{prefix}{n}", workers) == slot)


class Answer(asyncio.Protocol):
    """Reads one request, answers ``<name> <request line> <peer host:port>`` and closes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.received = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.received += data
        if b"\r\n\r\n" in self.received:
            line = self.received.split(b"\r\n", 1)[0]
            host, port = self.transport.get_extra_info("peername")[:2]
            self.transport.write(f"{self.name} ".encode() + line + f" {host}:{port}".encode())
            self.transport.close()


@dataclass
class Worker:
    router: OwnerRouter
    address: tuple[str, int]


def listening() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


def worker(name: str, slot: int, directory: Path) -> Worker:
    sock = listening()

    async def serve(connection: socket.socket) -> None:
        await asyncio.get_running_loop().connect_accepted_socket(lambda: Answer(name), connection)

    return Worker(OwnerRouter(sock, slot, 2, str(directory), serve), sock.getsockname())


@pytest.fixture
async def workers(tmp_path: Path) -> AsyncIterator[tuple[Worker, Worker]]:
    one, two = worker("one", 0, tmp_path), worker("two", 1, tmp_path)
    await one.router.start()
    await two.router.start()
    yield one, two
    for each in (one, two):
        each.router.close()
        await each.router.wait_closed()
        each.router.listening.close()


async def ask(address: tuple[str, int], request_line: str) -> tuple[str, str, str]:
    """Send one request to ``address``; (who answered, the request line it read, the peer it
    saw) and the client's own address checked against that peer."""
    reader, writer = await asyncio.open_connection(*address)
    own = "{}:{}".format(*writer.get_extra_info("sockname")[:2])
    writer.write(request_line.encode() + b"\r\nHost: x\r\n\r\n")
    answer = (await asyncio.wait_for(reader.read(), 10)).decode()
    writer.close()
    name, rest = answer.split(" ", 1)
    line, peer = rest.rsplit(" ", 1)
    assert peer == own, "the serving worker sees the client's own address"
    return name, line, peer


async def test_a_connection_for_another_workers_game_is_served_by_that_worker_whole(
    workers: tuple[Worker, Worker],
) -> None:
    one, two = workers
    theirs = owned_by(1)
    name, line, _ = await ask(one.address, f"POST /v1/games/{theirs}/choices HTTP/1.1")
    assert (name, line) == ("two", f"POST /v1/games/{theirs}/choices HTTP/1.1")
    assert (one.router.counts.handed_off, two.router.counts.adopted) == (1, 1)
    assert one.router.counts.kept == 0


async def test_a_connection_for_its_own_game_or_for_no_game_stays_where_it_was_accepted(
    workers: tuple[Worker, Worker],
) -> None:
    one, two = workers
    ours = owned_by(0)
    assert (await ask(one.address, f"GET /v1/games/{ours} HTTP/1.1"))[0] == "one"
    assert (await ask(one.address, "GET /v1/games?status=open HTTP/1.1"))[0] == "one"
    assert (await ask(two.address, "GET /health HTTP/1.1"))[0] == "two"
    assert (one.router.counts.kept, one.router.counts.handed_off, two.router.counts.adopted) == (2, 0, 0)


async def test_graphql_with_a_game_hint_reaches_the_owner_and_without_one_does_not_move(
    workers: tuple[Worker, Worker],
) -> None:
    one, _ = workers
    theirs = owned_by(1)
    assert (await ask(one.address, f"GET /graphql?game={theirs} HTTP/1.1"))[0] == "two"
    assert (await ask(one.address, f"GET /graphql?lang=de&game={theirs} HTTP/1.1"))[0] == "two"
    assert (await ask(one.address, "GET /graphql HTTP/1.1"))[0] == "one"


async def test_when_the_owner_cannot_take_the_socket_the_accepting_worker_serves_it(
    workers: tuple[Worker, Worker],
) -> None:
    one, two = workers
    two.router.close()  # as if it died: nothing listens on its hand-off socket
    theirs = owned_by(1)
    name, line, _ = await ask(one.address, f"POST /v1/games/{theirs}/choices HTTP/1.1")
    assert (name, line) == ("one", f"POST /v1/games/{theirs}/choices HTTP/1.1")
    assert (one.router.counts.owner_unreachable, one.router.counts.kept) == (1, 1)
    await two.router.start()  # started again (as the supervisor does): its games come back to it
    assert (await ask(one.address, f"POST /v1/games/{theirs}/choices HTTP/1.1"))[0] == "two"


def test_the_owner_of_a_game_is_one_slot_the_same_in_every_process_and_spread_evenly() -> None:
    ids = [f"g{n:04d}" for n in range(2000)]
    owners = [owner_of(game_id, 2) for game_id in ids]
    assert owners == [owner_of(game_id, 2) for game_id in ids]
    for seed in ("1", "2"):  # another process, another salt for str hashes: the same owners
        script = (
            "import sys; from api.entrypoints.owners import owner_of; "
            "print(''.join(str(owner_of(i, 2)) for i in sys.argv[1:]))"
        )
        printed = subprocess.run(
            [sys.executable, "-c", script, *ids[:200]],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        assert printed == "".join(map(str, owners[:200]))
    assert 900 < owners.count(0) < 1100
    assert {owner_of(game_id, 1) for game_id in ids} == {0}
    three = [owner_of(game_id, 3) for game_id in ids]
    moved = sum(1 for two, now in zip(owners, three, strict=True) if now != two)
    assert all(now == 2 for two, now in zip(owners, three, strict=True) if now != two)
    assert 500 < moved < 830  # a third slot takes about a third, from both others


def test_the_game_is_read_from_the_request_line_only() -> None:
    assert game_of(b"POST /v1/games/Ab_9-x/choices HTTP/1.1\r\n") == "Ab_9-x"
    assert game_of(b"GET /v1/games/Ab9?lang=fr HTTP/1.1\r\n") == "Ab9"
    assert game_of(b"GET /v1/games/Ab9 HTTP/1.1\r\n") == "Ab9"
    assert game_of(b"GET /graphql?game=Ab9&lang=fr HTTP/1.1\r\n") == "Ab9"
    assert game_of(b"GET /v1/games HTTP/1.1\r\n") is None
    assert game_of(b"GET /v1/games?status=open HTTP/1.1\r\n") is None
    assert game_of(b'POST /graphql HTTP/1.1\r\n\r\n{"gameId": "Ab9"}') is None
    assert game_of(b"GET /v1/games/Ab9") is None  # the request line is not complete yet
