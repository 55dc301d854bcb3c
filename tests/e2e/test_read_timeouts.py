"""Slow clients cannot hold connections (issue 10 item 18): headers or a body that do not arrive
in time get ``408 request_timeout`` and the connection is closed, over a real socket."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support.servers import running_servers, worker_processes

pytestmark = pytest.mark.timeout(120)


@dataclass
class Impatient:
    port: int
    base: str


@pytest.fixture(scope="module", params=["one process", "two workers"])
def impatient_server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Impatient]:
    """One process, or two workers (whose accept path waits for a request line to route the
    connection to its game's owner, api/entrypoints/owners.py): the same timeouts."""
    directory: Path = tmp_path_factory.mktemp("timeouts")
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{directory / 'tabletop.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_HEADER_TIMEOUT_SECONDS": "1",
        "TABLETOP_BODY_TIMEOUT_SECONDS": "1",
    }
    if request.param == "one process":
        with running_servers([env], directory) as (server,):
            yield Impatient(server.port, server.base)
    else:
        with worker_processes(env, directory) as (base, _):
            yield Impatient(int(base.rsplit(":", 1)[1]), base)


def read_until_closed(raw: socket.socket) -> bytes:
    """Everything the server sends until it closes (the socket's own timeout bounds the wait)."""
    received = b""
    while chunk := raw.recv(4096):
        received += chunk
    return received


def problem(answer: bytes) -> tuple[str, dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    parsed: dict[str, object] = json.loads(body)
    return head.decode().splitlines()[0], parsed


@pytest.mark.parametrize("sent", [b"", b"GET /v1/games HTTP/1.1\r\nHost: x\r\n"], ids=["nothing", "half"])
def test_headers_that_do_not_arrive_in_time_get_408_and_the_connection_closes(
    impatient_server: Impatient, sent: bytes
) -> None:
    with socket.create_connection(("127.0.0.1", impatient_server.port), timeout=15) as raw:
        raw.sendall(sent)
        status, body = problem(read_until_closed(raw))
    assert status == "HTTP/1.1 408 Request Timeout"
    assert body["code"] == "request_timeout"


def test_a_body_that_does_not_arrive_in_time_gets_408_and_the_connection_closes(
    impatient_server: Impatient,
) -> None:
    with socket.create_connection(("127.0.0.1", impatient_server.port), timeout=15) as raw:
        raw.sendall(
            b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n" + b'{"type": '
        )
        status, body = problem(read_until_closed(raw))
    assert status.startswith("HTTP/1.1 408")
    assert body["code"] == "request_timeout"
    assert httpx.get(f"{impatient_server.base}/healthz", timeout=10).status_code == 200
