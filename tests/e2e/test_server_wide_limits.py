"""Limits hold for the server, not per worker process (issue 19 item 6): ``serve --workers 2``
without Redis refuses at the documented rate budget and websocket cap, not at twice them. Every
request comes on a new connection, so both workers take some; the supervisor's limit hub counts
for both."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.support.servers import worker_processes

pytestmark = pytest.mark.timeout(180)

BUDGET = 12
SOCKETS = 3


def test_two_workers_refuse_at_the_documented_budget_and_socket_cap(tmp_path: Path) -> None:
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'limits.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_BURST": str(BUDGET),
        "TABLETOP_RATE_LIMIT_PER_SECOND": "0.01",  # a window of 1,200 s: nothing is given back
        "TABLETOP_MAX_WEBSOCKETS_PER_CLIENT": str(SOCKETS),
        "TABLETOP_TRUSTED_PROXIES": "127.0.0.1",  # each part of the test is its own client address
    }
    with worker_processes(env, tmp_path, workers=2) as (base, _):
        statuses = []
        for _ in range(3 * BUDGET):
            with httpx.Client(base_url=base, timeout=30) as fresh:  # a new connection each time
                answer = fresh.get("/v1/game-types", headers={"x-forwarded-for": "198.51.100.1"})
            statuses.append(answer.status_code)
        assert statuses.count(200) == BUDGET and statuses.count(429) == 2 * BUDGET, statuses
        assert statuses[:BUDGET] == [200] * BUDGET

        url = base.replace("http://", "ws://") + "/graphql"
        opened: list[ClientConnection] = []
        refusals: list[str] = []
        try:
            for _ in range(3 * SOCKETS):
                socket = connect(
                    url,
                    subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
                    additional_headers={"x-forwarded-for": "198.51.100.2"},
                )
                opened.append(socket)
                try:
                    socket.recv(timeout=1.0)
                except TimeoutError:
                    continue  # accepted and still open
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None
                    refusals.append(f"{closed.rcvd.code} {closed.rcvd.reason}")
        finally:
            for socket in opened:
                socket.close()
    expected = f"1008 too many websockets from this address (limit {SOCKETS})"
    assert refusals == [expected] * (2 * SOCKETS)
