"""One owner per game between instances, without a load balancer: two PostgreSQL + Redis instances,
each with its own ``TABLETOP_INSTANCE_URL``, and a short ownership lease. Requests are sent on
purpose to the instance that does not own the game: its submits are forwarded to the owner (the
owner plays every move, the other none), the lease is renewed while the owner lives, and a live
subscriber on the other instance sees every event once. Then the owner is killed mid-game under
load: its leases run out, the other instance takes its games, no acknowledged move is lost and
every stream stays gap-free (the scenario: tests/support/failover.py). Bounded: two instances on
loopback, short games, a time limit on every wait.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from persistence.migrate import migrate
from persistence.owner_leases import KEY_PREFIX
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.failover import play_through_a_failover
from tests.support.http import auth
from tests.support.live import GAME_EVENTS, graphql_socket
from tests.support.play import all_events, start_game
from tests.support.servers import ServerProcess, free_port
from tests.support.waiting import eventually

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(300)]

LEASE_SECONDS = 1.5


@contextmanager
def two_instances(directory: Path) -> Iterator[tuple[ServerProcess, ServerProcess, redis.Redis]]:
    """Two instances on one PostgreSQL database and one Redis, each knowing its own address; no
    balancer in front. Also a Redis client, to read the ownership directory."""
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        ports = [free_port(), free_port()]
        servers = [
            ServerProcess(
                {
                    "TABLETOP_DATABASE_URL": database_url,
                    "TABLETOP_REDIS_URL": redis_url,
                    "TABLETOP_INSTANCE_URL": f"http://127.0.0.1:{port}",
                    "TABLETOP_OWNER_LEASE_SECONDS": str(LEASE_SECONDS),
                    "TABLETOP_TRUSTED_PROXIES": "127.0.0.1",
                },
                directory,
                port,
            )
            for port in ports
        ]
        directory_client = redis.Redis.from_url(redis_url)
        try:
            for server in servers:
                server.start(wait=False)
            for server in servers:
                server.wait_healthy()
            yield servers[0], servers[1], directory_client
        finally:
            for server in servers:
                server.stop()
            directory_client.close()


def owner_in_directory(directory: redis.Redis, game_id: str) -> str | None:
    held = directory.get(f"{KEY_PREFIX}{game_id}")
    return held.decode() if isinstance(held, bytes) else None


def metric(server: ServerProcess, name: str, label: str = "") -> float:
    """The sum of one instance's samples of ``name`` whose labels contain ``label``."""
    text = httpx.get(f"{server.base}/metrics", timeout=10).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if (line.startswith(name + "{") or line.startswith(name + " ")) and label in line
    )


async def play_at(base: str, game_id: str, tokens: list[str], pause_after: int) -> list[dict[str, Any]]:
    """Play the game to its end with random legal choices, every request at ``base``; after
    ``pause_after`` submits wait two lease lengths. The answers of the submits, in order."""
    rng = random.Random(7)
    answers: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while True:
            moved = False
            for token in tokens:
                asked = (await http.get(f"/v1/games/{game_id}/choices", headers=auth(token))).json()
                decision = asked["decision"]
                if decision is None or decision["your_sealed_choice"] is not None or not asked["choices"]:
                    continue
                body = {"choice": rng.choice(asked["choices"]), "version": asked["version"]}
                answer = await http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))
                assert answer.status_code == 200, answer.text
                assert answer.headers["content-type"] == "application/json"
                answers.append(answer.json())
                moved = True
                if len(answers) == pause_after:
                    await asyncio.sleep(2 * LEASE_SECONDS)
            if not moved:
                state = (await http.get(f"/v1/games/{game_id}")).json()
                assert state["status"] == "finished", state
                return answers


async def watch_and_play(
    watched: str, played: str, game_id: str, tokens: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A spectator's live events on ``watched`` while the game is played through ``played``."""
    async with graphql_socket(watched, None, game=game_id) as socket:
        op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
        answers = await play_at(played, game_id, tokens, pause_after=2)
        last = answers[-1]["events"][-1]["seq"]
        received: list[dict[str, Any]] = []
        while not received or received[-1]["seq"] < last:
            message = await socket.receive(timeout=30)
            assert message["type"] == "next" and message["id"] == op, message
            received.append(message["payload"]["data"]["gameEvents"])
        return answers, received


def test_submits_reaching_the_other_instance_are_played_by_the_owner(tmp_path: Path) -> None:
    with two_instances(tmp_path) as (owner, other, directory):
        with httpx.Client(base_url=owner.base, timeout=30) as http:
            game, tokens = start_game(http, "duel", 2, {"rounds": 2})
        game_id = game["id"]
        assert owner_in_directory(directory, game_id) == f"http://127.0.0.1:{owner.port}", (
            "the instance that started the game owns it"
        )
        ttl = directory.pttl(f"{KEY_PREFIX}{game_id}")
        assert 0 < ttl <= LEASE_SECONDS * 1000

        answers, streamed = asyncio.run(watch_and_play(other.base, other.base, game_id, tokens))

        assert owner_in_directory(directory, game_id) == f"http://127.0.0.1:{owner.port}", (
            "the owner renewed its lease across two lease lengths without a write"
        )
        submits = len(answers)
        assert metric(other, "tabletop_owner_forwards_total", 'outcome="forwarded"') == submits
        assert metric(other, "tabletop_owner_forwards_total", 'outcome="owner_') == 0
        assert metric(owner, "tabletop_submits_total") == submits, "the owner played every move"
        assert metric(other, "tabletop_submits_total") == 0, "the other instance played none"
        with httpx.Client(base_url=other.base, timeout=30) as http:
            stored = all_events(http, game_id)
            by_seq = {event["seq"]: event for event in stored}
            for answer in answers:
                for event in answer["events"]:
                    assert by_seq[event["seq"]]["type"] == event["type"]
            spectator_history = [event for event in stored if event["seq"] <= streamed[-1]["seq"]]
            assert [event["seq"] for event in streamed] == [event["seq"] for event in spectator_history]


def test_a_forwarded_submit_is_answered_as_the_owner_answers_it(tmp_path: Path) -> None:
    """Refusals come back as the owner gives them (status, problem, language), and a retry with
    the same Idempotency-Key through the other instance is answered again, not played twice."""
    with two_instances(tmp_path) as (owner, other, _):
        with httpx.Client(base_url=owner.base, timeout=30) as http:
            game, tokens = start_game(http, "duel", 2, {"rounds": 2})
        game_id = game["id"]
        with httpx.Client(base_url=other.base, timeout=30) as http:
            refused = http.post(
                f"/v1/games/{game_id}/choices?lang=de",
                json={"choice": {"nonsense": True}},
                headers=auth(tokens[0]),
            )
            assert refused.status_code == 422, refused.text
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.headers["content-language"] == "de"
            assert refused.headers.get("x-request-id"), "the instance that answers names the request"
            asked = http.get(f"/v1/games/{game_id}/choices", headers=auth(tokens[0])).json()
            body = {"choice": asked["choices"][0], "version": asked["version"]}
            key = {**auth(tokens[0]), "Idempotency-Key": "once-only"}
            before = all_events(http, game_id)[-1]["seq"]
            first = http.post(f"/v1/games/{game_id}/choices", json=body, headers=key)
            again = http.post(f"/v1/games/{game_id}/choices", json=body, headers=key)
            assert first.status_code == again.status_code == 200, (first.text, again.text)
            assert first.json() == again.json()
            played = [event["seq"] for event in all_events(http, game_id) if event["seq"] > before]
            assert played == [event["seq"] for event in first.json()["events"]], "the retry played nothing"
        assert metric(other, "tabletop_owner_forwards_total", 'outcome="forwarded"') == 3
        assert metric(other, "tabletop_submits_total") == 0


def test_a_submit_whose_owner_cannot_be_reached_is_served_where_it_arrived(tmp_path: Path) -> None:
    """The owner is dead but its lease still runs (set here for a minute, so the machine's load
    cannot let it lapse first): the hop fails, is counted, and the submit is played by the
    instance it reached, once."""
    with two_instances(tmp_path) as (owner, other, directory):
        with httpx.Client(base_url=owner.base, timeout=30) as http:
            game, tokens = start_game(http, "duel", 2, {"rounds": 2})
        game_id = game["id"]
        owner.kill()
        directory.set(f"{KEY_PREFIX}{game_id}", f"http://127.0.0.1:{owner.port}", px=60_000)
        with httpx.Client(base_url=other.base, timeout=30) as http:
            asked = http.get(f"/v1/games/{game_id}/choices", headers=auth(tokens[0])).json()
            before = all_events(http, game_id)[-1]["seq"]
            body = {"choice": asked["choices"][0], "version": asked["version"]}
            played = http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(tokens[0]))
            assert played.status_code == 200, played.text
            stored = [event["seq"] for event in all_events(http, game_id) if event["seq"] > before]
            assert stored == [event["seq"] for event in played.json()["events"]], "played once, kept"
        assert metric(other, "tabletop_owner_forwards_total", 'outcome="owner_unreachable"') == 1
        assert metric(other, "tabletop_owner_forwards_total", 'outcome="forwarded"') == 0
        assert metric(other, "tabletop_submits_total") == 1, "the instance it reached played it"


def test_killing_the_owner_its_leases_run_out_and_the_other_instance_takes_its_games(
    tmp_path: Path,
) -> None:
    with two_instances(tmp_path) as (owner, other, directory):
        owner_address = f"http://127.0.0.1:{owner.port}"
        killed_at: list[float] = []
        served_before: list[float] = []  # the survivor's own submits when the owner was killed

        def kill_owner(game_id: str) -> None:
            assert owner_in_directory(directory, game_id) == owner_address
            assert metric(owner, "tabletop_submits_total") > 0, "the owner played the first moves"
            served_before.append(metric(other, "tabletop_submits_total"))
            owner.kill()
            killed_at.append(time.monotonic())

        games = play_through_a_failover(other.base, kill_owner, start_base=owner.base)

        assert killed_at, "the owner was killed"
        # Whether a submit met the dead owner (a failed hop, served here) before its lease ran out
        # depends on the machine's load: at CI's load the first submit after the kill can come
        # after the 1.5 s lease has lapsed, and the survivor simply finds no owner. Either way it
        # must serve the games; the failed hop itself is tested in tests/integration/test_game_owners.py.
        other_address = f"http://127.0.0.1:{other.port}"
        # The survivor played moves as their owner (an instance that is not a game's owner forwards
        # and counts no submit of its own). Which games it still holds now is not asked: on a
        # loaded machine the finished games' leases (1.5 s) lapse before the question; the
        # directory is asked below while a move is being made.
        served = metric(other, "tabletop_submits_total") - served_before[0]
        assert served > 0, "the survivor served the dead owner's games after the kill"
        with httpx.Client(base_url=other.base, timeout=30) as http:

            def survivor_takes_the_first_game() -> bool:
                http.post(f"/v1/games/{games[0].game_id}/choices", json={}, headers=auth(games[0].tokens[0]))
                return owner_in_directory(directory, games[0].game_id) == other_address

            eventually(survivor_takes_the_first_game, 30, "the survivor owns the first game", 0.2)
