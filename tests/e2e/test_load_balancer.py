"""Two PostgreSQL + Redis instances behind HAProxy with the shipped ``deploy/haproxy.cfg``: a
game's requests (its paths, and GraphQL with ``?game=``) all reach one instance, different games
spread over both; games are played through it; and the instance that owns a game, killed mid-game
under load (SIGKILL), loses no acknowledged move and no live event (the scenario:
tests/support/failover.py). Bounded: two instances and one HAProxy on loopback, a fixed number of
short games, a time limit on every wait.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.failover import play_through_a_failover
from tests.support.live import GAME_EVENTS, graphql_socket
from tests.support.play import start_game
from tests.support.servers import ServerProcess, counted, load_balancer, running_servers
from tests.support.waiting import eventually

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.timeout(300),
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="HAProxy is missing (./run test installs it)"),
]

EVENTS_ROUTE = "/v1/games/{game_id}/events"
"""A route the scenario's players never use: what a probe counts on each instance."""


@contextmanager
def instances_and_balancer(directory: Path) -> Iterator[tuple[list[ServerProcess], str]]:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {
            "TABLETOP_DATABASE_URL": database_url,
            "TABLETOP_REDIS_URL": redis_url,
            "TABLETOP_TRUSTED_PROXIES": "127.0.0.1",
        }
        with running_servers([env, env], directory) as servers:
            addresses = [f"127.0.0.1:{server.port}" for server in servers]
            with load_balancer(addresses, directory) as base:
                yield servers, base


def serving(servers: list[ServerProcess], base: str, game_id: str, probes: int = 3) -> list[int]:
    """Which instance(s) served ``probes`` reads of the game's events through the balancer, each
    on a new connection: the index of every instance that counted some."""
    before = [counted(server.base, EVENTS_ROUTE) for server in servers]
    for _ in range(probes):
        with httpx.Client(base_url=base, timeout=30) as http:
            assert http.get(f"/v1/games/{game_id}/events").status_code == 200
    after = [counted(server.base, EVENTS_ROUTE) for server in servers]
    return [index for index, (was, now) in enumerate(zip(before, after, strict=True)) if now > was]


def test_a_games_requests_reach_one_instance_and_games_spread_over_both(tmp_path: Path) -> None:
    with instances_and_balancer(tmp_path) as (servers, base):
        with httpx.Client(base_url=base, timeout=30) as http:
            games = [start_game(http, "duel", 2, {"rounds": 1})[0]["id"] for _ in range(10)]
            assert http.get("/metrics").status_code == 404, "metrics are not for the public"
        owners = [serving(servers, base, game_id) for game_id in games]
        assert all(len(owner) == 1 for owner in owners), owners
        assert {owner[0] for owner in owners} == {0, 1}, "ten games all hashed to one instance"
        sockets = [serving_socket(servers, base, game_id) for game_id in games[:4]]
        assert sockets == owners[:4], "a ?game= socket reaches the game's instance"


def serving_socket(servers: list[ServerProcess], base: str, game_id: str) -> list[int]:
    """Which instance a GraphQL websocket opened with ``?game=`` lands on (its subscriptions gauge)."""

    def open_subscriptions(server: ServerProcess) -> float:
        text = httpx.get(f"{server.base}/metrics", timeout=10).text
        return sum(
            float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line.startswith("tabletop_active_subscriptions ")
        )

    async def hold() -> list[int]:
        before = [open_subscriptions(server) for server in servers]
        async with graphql_socket(base, None, game=game_id) as socket:
            await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
            await socket.receive(timeout=30)  # the first event: the subscription is open
            return [
                index for index, server in enumerate(servers) if open_subscriptions(server) > before[index]
            ]

    return asyncio.run(hold())


def test_killing_the_owning_instance_mid_game_loses_no_move_and_no_event(tmp_path: Path) -> None:
    with instances_and_balancer(tmp_path) as (servers, base):
        killed: list[int] = []

        def kill_owner(game_id: str) -> None:
            owner = serving(servers, base, game_id)
            assert len(owner) == 1, owner
            servers[owner[0]].kill()
            killed.append(owner[0])

        games = play_through_a_failover(base, kill_owner)
        assert killed, "the owner was killed"
        assert sum(game.reconnects for game in games) > 0, "the owner's live streams died with it"
        survivor = servers[1 - killed[0]]
        eventually(lambda: serving([survivor], base, games[0].game_id) == [0], 30, "the survivor owns it")
