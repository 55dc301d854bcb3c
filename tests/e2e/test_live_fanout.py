"""Live streams across instances: dozens of games start at once on two instances that share
PostgreSQL and Redis, each followed live by both seats on alternating instances, while they are played
concurrently over HTTP. Every subscription must start, and every subscriber must receive exactly the
stored history of its seat, in order, with no gap and no duplicate.

Also: Redis restarted mid-game, and an instance killed mid-game, lose or repeat nothing for the
subscribers that stay. Bounded: a fixed number of short games, loopback only, a time limit on every wait.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.http import auth
from tests.support.live import GAME_EVENTS, graphql_socket
from tests.support.play import all_events, start_game
from tests.support.servers import (
    ServerProcess,
    children,
    free_port,
    running_servers,
    worker_processes,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(180)]

GAMES = 40
"""Games started at once: enough that, before the fix, subscriptions failed to start on Redis."""

EVENT_TIMEOUT = 60.0
"""How long a subscriber waits for its next event before the test calls the stream stalled."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url}
        with running_servers([env, env], tmp_path_factory.mktemp("fanout")) as servers:
            yield servers


async def create_started_duel(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    once = {"Idempotency-Key": uuid.uuid4().hex}  # a retried create or join takes nothing twice
    created = await request(
        http, "POST", "/v1/games", json={"type": "duel", "options": {"rounds": 3}}, headers=once
    )
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = []
    for name in ("Ann", "Bob"):
        key = {"Idempotency-Key": uuid.uuid4().hex}
        joined = await request(
            http, "POST", f"/v1/games/{game['id']}/seats", json={"name": name}, headers=key
        )
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    started = await request(http, "POST", f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    assert started.status_code == 200, started.text
    return game["id"], tokens


async def follow(base: str, game_id: str, token: str) -> list[dict[str, Any]]:
    """Every event of the game as ``token``'s seat receives it live, until the stream completes."""
    received: list[dict[str, Any]] = []
    async with graphql_socket(base, token, game=game_id) as socket:  # to the game's owner
        op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
        while True:
            message = await socket.receive(timeout=EVENT_TIMEOUT)
            assert message.get("id") == op, message
            if message["type"] == "complete":
                return received
            assert message["type"] == "next", message
            assert "errors" not in message["payload"], message
            received.append(message["payload"]["data"]["gameEvents"])


async def request(http: httpx.AsyncClient, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """One request, retried when the connection drops (a keep-alive connection closed by the server
    as it was reused); submits carry an Idempotency-Key, so a retry never plays twice."""
    for attempt in range(3):
        try:
            return await http.request(method, path, **kwargs)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError):
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def play(clients: list[httpx.AsyncClient], game_id: str, tokens: list[str], seed: int) -> None:
    """Random legal choices until the game is over, each request on a random instance."""
    rng = random.Random(seed)
    while True:
        progressed = False
        for token in tokens:
            http = rng.choice(clients)
            pending = (await request(http, "GET", f"/v1/games/{game_id}/choices", headers=auth(token))).json()
            decision = pending["decision"]
            if decision is None or decision.get("your_sealed_choice") is not None:
                continue
            if not pending["choices"]:
                continue
            body = {"choice": rng.choice(pending["choices"])}
            headers = {**auth(token), "Idempotency-Key": uuid.uuid4().hex}
            response = await request(http, "POST", f"/v1/games/{game_id}/choices", json=body, headers=headers)
            assert response.status_code == 200, response.text
            progressed = True
        if not progressed:
            state = (await request(clients[0], "GET", f"/v1/games/{game_id}")).json()
            if state["status"] != "in_progress":
                return
            await asyncio.sleep(0.01)


def test_dozens_of_games_starting_at_once_stream_every_event_to_every_subscriber_on_two_instances(
    cluster: list[ServerProcess],
) -> None:
    games_followed_live([server.base for server in cluster], GAMES)


def games_followed_live(bases: list[str], count: int) -> None:
    """``count`` games created at once, both seats of each followed live on alternating ``bases``
    while all are played concurrently; every stream must equal its seat's stored history."""

    async def scenario() -> list[tuple[str, str, list[dict[str, Any]]]]:
        limits = httpx.Limits(max_connections=count * 2)
        clients = [httpx.AsyncClient(base_url=base, timeout=30, limits=limits) for base in bases]
        try:
            games = await asyncio.gather(
                *(create_started_duel(clients[i % len(clients)]) for i in range(count))
            )
            followers = [
                (game_id, token, follow(bases[(i + seat) % len(bases)], game_id, token))
                for i, (game_id, tokens) in enumerate(games)
                for seat, token in enumerate(tokens)
            ]
            streams = asyncio.gather(*(stream for _, _, stream in followers))
            await asyncio.gather(
                *(play(clients, game_id, tokens, i) for i, (game_id, tokens) in enumerate(games))
            )
            received = await streams
            return [
                (game_id, token, events)
                for (game_id, token, _), events in zip(followers, received, strict=True)
            ]
        finally:
            for client in clients:
                await client.aclose()

    results = asyncio.run(scenario())
    assert len(results) == count * 2
    with httpx.Client(base_url=bases[0], timeout=30) as http:
        for game_id, token, received in results:
            stored = all_events(http, game_id, token)
            assert stored[-1]["type"] == "game_over"
            assert received == stored, f"game {game_id}: the live stream differs from the stored history"


class PrivateRedis:
    """A Redis server of this test's own on a free loopback port, so that it can be stopped and
    started again without disturbing anything else that uses the machine's Redis."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the test's Redis did not start") from None
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def played_moves(http: httpx.Client, game_id: str, tokens: list[str], rng: random.Random, moves: int) -> int:
    """Submit up to ``moves`` random legal choices (fewer if the game ends); how many were made."""
    made = 0
    while made < moves:
        progressed = False
        for token in tokens:
            pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
            decision = pending["decision"]
            if decision is None or decision.get("your_sealed_choice") is not None or not pending["choices"]:
                continue
            body = {"choice": rng.choice(pending["choices"])}
            response = http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))
            assert response.status_code == 200, response.text
            made += 1
            progressed = True
            if made == moves:
                break
        if not progressed:
            return made
    return made


class Follower:
    """A websocket subscriber in a thread of its own, collecting one seat's events to the end."""

    def __init__(self, base: str, game_id: str, token: str) -> None:
        self.events: list[dict[str, Any]] = []
        self.failure: list[BaseException] = []

        async def collect() -> None:
            async with graphql_socket(base, token) as socket:
                op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
                while True:
                    message = await socket.receive(timeout=60)
                    if message["type"] == "complete":
                        return
                    assert message["type"] == "next" and message["id"] == op, message
                    assert "errors" not in message["payload"], message
                    self.events.append(message["payload"]["data"]["gameEvents"])

        def run() -> None:
            try:
                asyncio.run(collect())
            except BaseException as error:  # reported by join()
                self.failure.append(error)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def wait_for(self, count: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.events) < count:
            assert not self.failure, self.failure
            assert time.monotonic() < deadline, f"only {len(self.events)} of {count} events arrived"
            time.sleep(0.02)

    def join(self, timeout: float = 60.0) -> list[dict[str, Any]]:
        self.thread.join(timeout)
        assert not self.failure, self.failure
        assert not self.thread.is_alive(), "the subscriber never saw its stream complete"
        return self.events


def new_long_duel(http: httpx.Client) -> tuple[str, list[str]]:
    game, tokens = start_game(http, "duel", 2, {"rounds": 3})
    return game["id"], tokens


def test_subscribers_that_stay_miss_nothing_while_redis_restarts_mid_game(tmp_path: Path) -> None:
    private = PrivateRedis(tmp_path)
    private.start()
    try:
        with postgres_database_url() as database_url:
            migrate(database_url)
            env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": private.url}
            with (
                running_servers([env, env], tmp_path) as (a, b),
                httpx.Client(base_url=b.base, timeout=30) as http,
            ):
                game_id, tokens = new_long_duel(http)
                followers = [Follower(a.base, game_id, token) for token in tokens]
                rng = random.Random(5)
                for follower in followers:
                    follower.wait_for(len(all_events(http, game_id)))
                assert played_moves(http, game_id, tokens, rng, 2) == 2
                private.stop()  # mid-game: publishing fails, live feeds are lost
                assert played_moves(http, game_id, tokens, rng, 2) == 2
                private.start()
                played_moves(http, game_id, tokens, rng, 1000)
                for follower, token in zip(followers, tokens, strict=True):
                    assert follower.join() == all_events(http, game_id, token)
    finally:
        private.stop()


def test_subscribers_on_the_surviving_instance_miss_nothing_when_the_other_is_killed_mid_game(
    tmp_path: Path,
) -> None:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url}
        with running_servers([env, env], tmp_path) as (a, b):
            with httpx.Client(base_url=b.base, timeout=30) as on_b:
                game_id, tokens = new_long_duel(on_b)
                followers = [Follower(a.base, game_id, token) for token in tokens]
                rng = random.Random(9)
                for follower in followers:
                    follower.wait_for(len(all_events(on_b, game_id)))
                assert played_moves(on_b, game_id, tokens, rng, 2) == 2
            b.kill()
            with httpx.Client(base_url=a.base, timeout=30) as on_a:
                played_moves(on_a, game_id, tokens, rng, 1000)
                for follower, token in zip(followers, tokens, strict=True):
                    assert follower.join() == all_events(on_a, game_id, token)


def test_a_killed_worker_is_replaced_and_worker_processes_on_sqlite_share_live_events_through_the_hub(
    tmp_path: Path,
) -> None:
    """One supervisor for both (a supervisor's start is most of either test): a killed worker is
    replaced, the service keeps answering, and then the workers, the replacement among them,
    share every game's live events through the hub while the games are played to the end."""
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'workers.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
    }
    with worker_processes(env, tmp_path) as (base, supervisor):
        victim = children(supervisor)[0]
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while True:
            now = children(supervisor)
            if victim not in now and len(now) == 2:
                break
            assert time.monotonic() < deadline, f"the killed worker was not replaced: {now}"
            time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=30) as http:
            for _ in range(10):
                assert http.get("/healthz").status_code == 200
        games_followed_live([base, base], 24)  # every game is played to its game_over


def test_worker_processes_on_postgres_share_live_events_through_redis(tmp_path: Path) -> None:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url}
        with worker_processes(env, tmp_path) as (base, _):
            games_followed_live([base, base], 24)
