"""Presence across instances: a seat subscribed on instance A reads as connected on instance B
(REST and GraphQL), stops being connected when its socket closes, and when A crashes (SIGKILL, no
shutdown hook) its seats drop out within the presence time-to-live. Two real servers on one
PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator

import httpx
import pytest

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.live import GAME_EVENTS, graphql_socket
from tests.support.play import new_duel
from tests.support.servers import ServerProcess, running_servers

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(120)]

TTL = 2.0
SEATS_QUERY = "query($id: ID!) { game(id: $id) { ... on Game { seats { seat connected } } } }"


@pytest.fixture
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {
            "TABLETOP_DATABASE_URL": database_url,
            "TABLETOP_REDIS_URL": redis_url,
            "TABLETOP_PRESENCE_TTL_SECONDS": str(TTL),
        }
        with running_servers([env, env], tmp_path_factory.mktemp("presence")) as servers:
            yield servers


def connected_over_rest(base: str, game_id: str) -> list[bool]:
    seats = httpx.get(f"{base}/v1/games/{game_id}").json()["seats"]
    return [seat["connected"] for seat in seats]


def connected_over_graphql(base: str, game_id: str) -> list[bool]:
    answer = httpx.post(f"{base}/graphql", json={"query": SEATS_QUERY, "variables": {"id": game_id}})
    return [seat["connected"] for seat in answer.json()["data"]["game"]["seats"]]


async def until(base: str, game_id: str, expected: list[bool], timeout: float) -> float:
    """Seconds until instance ``base`` reports ``expected``; fails after ``timeout``."""
    started = time.monotonic()
    while connected_over_rest(base, game_id) != expected:
        assert time.monotonic() - started < timeout, connected_over_rest(base, game_id)
        await asyncio.sleep(0.1)
    return time.monotonic() - started


async def subscribed(base: str, game_id: str, token: str) -> contextlib.AsyncExitStack:
    """A seat's open subscription (its first event received: it is registered by then)."""
    stack = contextlib.AsyncExitStack()
    socket = await stack.enter_async_context(graphql_socket(base, token))
    await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
    assert (await socket.receive())["type"] == "next"
    return stack


async def scenario(a: ServerProcess, b: ServerProcess) -> None:
    with httpx.Client(base_url=a.base) as http:
        game_id, tokens = new_duel(http, rounds=3)
    assert connected_over_rest(b.base, game_id) == [False, False]

    ann = await subscribed(a.base, game_id, tokens[0])
    assert connected_over_rest(b.base, game_id) == [True, False]
    assert connected_over_graphql(b.base, game_id) == [True, False]
    await ann.aclose()  # the socket closes: presence ends at once, not at expiry
    await until(b.base, game_id, [False, False], timeout=TTL)

    bob = await subscribed(a.base, game_id, tokens[1])
    await asyncio.sleep(2 * TTL)  # A's heartbeat keeps Bob present past the time-to-live
    assert connected_over_rest(b.base, game_id) == [False, True]
    a.kill()
    await until(b.base, game_id, [False, False], timeout=3 * TTL)
    with contextlib.suppress(Exception):
        await bob.aclose()


def test_presence_is_shared_by_instances_and_ends_with_the_socket_or_the_instance(
    cluster: list[ServerProcess],
) -> None:
    asyncio.run(scenario(*cluster))
