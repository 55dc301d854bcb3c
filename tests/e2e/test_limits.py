"""Limits over a real websocket: a connection cannot open more subscriptions than configured; the
refused one gets a clear error, the others and the server carry on."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.http import auth
from tests.support.live import GAME_EVENTS, graphql_socket
from tests.support.play import new_duel
from tests.support.servers import ServerProcess, running_servers

pytestmark = pytest.mark.timeout(60)

LIMIT = 3


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("limits")
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{directory / 'tabletop.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_MAX_SUBSCRIPTIONS_PER_CONNECTION": str(LIMIT),
    }
    with running_servers([env], directory) as (server,):
        yield server


def active_subscriptions(base: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=5).text
    found = re.search(r"^tabletop_active_subscriptions (\S+)$", text, re.MULTILINE)
    assert found, text
    return float(found.group(1))


def test_one_subscription_too_many_on_a_connection_is_refused_and_the_rest_keep_working(
    limited_server: ServerProcess,
) -> None:
    base = limited_server.base
    with httpx.Client(base_url=base, timeout=10) as http:
        game_id, tokens = new_duel(http, rounds=1)
        opening: int = http.get(f"/v1/games/{game_id}/events").json()["last_seq"]

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http, graphql_socket(base) as socket:
            variables = {"gameId": game_id, "after": opening - 1}
            ops = [await socket.subscribe(GAME_EVENTS, variables) for _ in range(LIMIT)]
            # Each gets the last stored event: its live subscription is open from then on.
            first = [await socket.receive() for _ in ops]
            assert sorted(m["id"] for m in first) == sorted(ops)
            assert {m["payload"]["data"]["gameEvents"]["seq"] for m in first} == {opening}

            refused = await socket.subscribe(GAME_EVENTS, variables)
            error = await socket.receive()
            assert error["type"] == "error" and error["id"] == refused, error
            assert error["payload"][0]["message"] == "Subscription limit reached"

            submitted = await http.post(
                f"/v1/games/{game_id}/choices", json={"choice": {"card": 2}}, headers=auth(tokens[0])
            )
            assert submitted.status_code == 200, submitted.text
            live = [await socket.receive() for _ in ops]
            assert sorted(m["id"] for m in live) == sorted(ops)
            assert all(m["payload"]["data"]["gameEvents"]["type"] == "choice_sealed" for m in live)

            # Completing one frees a place on the same connection.
            await socket.connection.send(json.dumps({"id": ops[0], "type": "complete"}))
            again = await socket.subscribe(GAME_EVENTS, variables)
            replay = await socket.receive()
            assert replay["type"] == "next" and replay["id"] == again, replay

        async with graphql_socket(base) as fresh:
            op = await fresh.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
            message: dict[str, Any] = await fresh.receive()
            assert message["type"] == "next" and message["id"] == op, message

    asyncio.run(scenario())
    assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
    deadline = time.monotonic() + 5
    while active_subscriptions(base) != 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert active_subscriptions(base) == 0, "subscriptions of closed connections were not cleaned up"
