"""Two server processes on one PostgreSQL database with Redis between them, as in production:
events cross instances live, reconnects resume without gap or duplicate, and concurrent submits
on different instances are serialised by the version check."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.http import auth
from tests.support.live import GAME_EVENTS, GraphQLSocket, graphql_socket
from tests.support.play import all_events, new_duel
from tests.support.servers import ServerProcess, running_servers

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(120)]

STEP_TIMEOUT = 5.0
"""How long a subscriber may wait for one event that was already committed on the other instance."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url}
        with running_servers([env, env], tmp_path_factory.mktemp("scale-out")) as (a, b):
            yield a, b


async def next_event(socket: GraphQLSocket, op: str) -> dict[str, Any]:
    message = await socket.receive(timeout=STEP_TIMEOUT)
    assert message["type"] == "next" and message["id"] == op, message
    event: dict[str, Any] = message["payload"]["data"]["gameEvents"]
    return event


async def read_through(socket: GraphQLSocket, op: str, seq: int, into: list[dict[str, Any]]) -> None:
    """Read events until ``seq`` has arrived (fails if one does not come within STEP_TIMEOUT)."""
    while not into or into[-1]["seq"] < seq:
        into.append(await next_event(socket, op))


async def play_step(
    http: httpx.AsyncClient, game_id: str, tokens: list[str], rng: random.Random
) -> int | None:
    """Submit one legal choice of the first seat with something to decide; the last new seq, or None
    when the game is over."""
    for token in tokens:
        pending = (await http.get(f"/v1/games/{game_id}/choices", headers=auth(token))).json()
        decision = pending["decision"]
        if decision is None or decision["your_sealed_choice"] is not None:
            continue
        body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
        response = await http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))
        assert response.status_code == 200, response.text
        last_seq: int = response.json()["events"][-1]["seq"]
        return last_seq
    return None


def last_seq(http: httpx.Client, game_id: str) -> int:
    seq: int = http.get(f"/v1/games/{game_id}/events").json()["last_seq"]
    return seq


def test_readiness_reports_database_and_redis_on_each_instance(
    cluster: tuple[ServerProcess, ServerProcess],
) -> None:
    for server in cluster:
        ready = httpx.get(f"{server.base}/readyz", timeout=5)
        assert ready.status_code == 200, ready.text
        assert ready.json() == {"status": "ready", "checks": {"database": True, "redis": True}}


def test_subscriber_on_one_instance_receives_every_event_of_a_game_played_on_the_other(
    cluster: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = cluster
    with httpx.Client(base_url=b.base, timeout=10) as sync_b:
        game_id, tokens = new_duel(sync_b, rounds=3)
        opening = last_seq(sync_b, game_id)

    async def scenario() -> list[dict[str, Any]]:
        rng = random.Random(7)
        received: list[dict[str, Any]] = []
        async with (
            httpx.AsyncClient(base_url=b.base, timeout=10) as http,
            graphql_socket(a.base, tokens[0]) as socket,
        ):
            op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
            # History up to now: once it has arrived, the live subscription on A is open.
            await read_through(socket, op, opening, received)
            while (seq := await play_step(http, game_id, tokens, rng)) is not None:
                await read_through(socket, op, seq, received)
            assert (await socket.receive(timeout=STEP_TIMEOUT))["type"] == "complete"
        return received

    received = asyncio.run(scenario())
    seqs = [e["seq"] for e in received]
    assert seqs == list(range(1, len(seqs) + 1))
    assert sum(e["type"] == "reveal" for e in received) == 3
    assert received[-1]["type"] == "game_over"
    with httpx.Client(base_url=b.base, timeout=10) as sync_b:
        assert received == all_events(sync_b, game_id, tokens[0])


def test_subscriber_reconnecting_with_after_gets_what_it_missed_then_live_without_duplicates(
    cluster: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = cluster
    with httpx.Client(base_url=b.base, timeout=10) as sync_b:
        game_id, tokens = new_duel(sync_b, rounds=3)
        opening = last_seq(sync_b, game_id)

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        rng = random.Random(11)
        first: list[dict[str, Any]] = []
        second: list[dict[str, Any]] = []
        async with httpx.AsyncClient(base_url=b.base, timeout=10) as http:
            async with graphql_socket(a.base) as socket:
                op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
                await read_through(socket, op, opening, first)
                for _ in range(2):
                    seq = await play_step(http, game_id, tokens, rng)
                    assert seq is not None
                    await read_through(socket, op, seq, first)
            # Disconnected: these events are only in the database.
            missed_until = 0
            for _ in range(3):
                seq = await play_step(http, game_id, tokens, rng)
                assert seq is not None
                missed_until = seq
            async with graphql_socket(a.base) as socket:
                op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": first[-1]["seq"]})
                await read_through(socket, op, missed_until, second)
                while (seq := await play_step(http, game_id, tokens, rng)) is not None:
                    await read_through(socket, op, seq, second)
                assert (await socket.receive(timeout=STEP_TIMEOUT))["type"] == "complete"
        return first, second, missed_until

    first, second, missed_until = asyncio.run(scenario())
    resumed_from = first[-1]["seq"]
    assert [e["seq"] for e in second] == list(range(resumed_from + 1, second[-1]["seq"] + 1))
    assert second[-1]["seq"] > missed_until, "nothing arrived live after the catch-up"
    assert second[-1]["type"] == "game_over"
    with httpx.Client(base_url=b.base, timeout=10) as sync_b:
        assert first + second == all_events(sync_b, game_id)


def race(
    submits: list[tuple[str, str, dict[str, Any], int, str]],
) -> list[httpx.Response]:
    """Send the submits (base, game, choice, version, token) at the same moment, one thread each."""
    clients = [httpx.Client(base_url=base, timeout=10) for base, *_ in submits]
    barrier = threading.Barrier(len(submits))
    responses: list[httpx.Response | None] = [None] * len(submits)

    def submit(index: int) -> None:
        _, game_id, choice, version, token = submits[index]
        client = clients[index]
        barrier.wait(timeout=10)
        responses[index] = client.post(
            f"/v1/games/{game_id}/choices", json={"choice": choice, "version": version}, headers=auth(token)
        )

    try:
        for client in clients:
            client.get("/healthz")  # connect first, so both requests leave together
        threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(submits))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
    finally:
        for client in clients:
            client.close()
    assert all(r is not None for r in responses), "a racing submit did not finish"
    return [r for r in responses if r is not None]


def test_two_seats_sealing_at_once_on_two_instances_both_land(
    cluster: tuple[ServerProcess, ServerProcess],
) -> None:
    """Another seat sealing does not change a seat's decision: no false 409 under a real race."""
    a, b = cluster
    with httpx.Client(base_url=a.base, timeout=10) as http:
        game_id, tokens = new_duel(http, rounds=1)
        version = http.get(f"/v1/games/{game_id}").json()["version"]
        responses = race(
            [
                (a.base, game_id, {"card": 1}, version, tokens[0]),
                (b.base, game_id, {"card": 2}, version, tokens[1]),
            ]
        )
        assert [r.status_code for r in responses] == [200, 200], [r.text for r in responses]
        assert sorted(r.json()["status"] for r in responses) == ["applied", "sealed"]


def test_concurrent_submits_of_one_seat_with_the_same_version_on_two_instances_let_one_win(
    cluster: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = cluster
    with httpx.Client(base_url=a.base, timeout=10) as http:
        for trial in range(4):
            game_id, tokens = new_duel(http, rounds=1)
            version = http.get(f"/v1/games/{game_id}").json()["version"]
            racers = [tokens[0], tokens[0]]
            cards = [{"card": 1 + trial % 3}, {"card": 1 + (trial + 1) % 3}]
            responses = race(
                [
                    (a.base, game_id, cards[0], version, racers[0]),
                    (b.base, game_id, cards[1], version, racers[1]),
                ]
            )
            statuses = sorted(r.status_code for r in responses)
            assert statuses == [200, 409], [r.text for r in responses]
            winner = next(i for i, r in enumerate(responses) if r.status_code == 200)
            loser = responses[1 - winner]
            assert loser.json()["code"] == "version_conflict"
            assert responses[winner].json() == {
                "status": "sealed",
                "game_type": "duel",
                "version": version + 1,
                "decision_version": version + 1,
                "events": responses[winner].json()["events"],
                "next": None,  # the winner sealed: nothing more to decide until the reveal
            }
            winning_seat = tokens.index(racers[winner])

            # The loser's attempt left nothing behind; the game plays on to a consistent end.
            stored = http.get(f"/v1/games/{game_id}", headers=auth(tokens[winning_seat])).json()
            assert stored["version"] == version + 1
            assert stored["decision"]["your_sealed_choice"] == cards[winner]
            other = tokens[1 - winning_seat]
            other_card = {"card": 3 if cards[winner]["card"] != 3 else 2}
            applied = http.post(
                f"/v1/games/{game_id}/choices",
                json={"choice": other_card, "version": version + 1},
                headers=auth(other),
            )
            assert applied.status_code == 200 and applied.json()["status"] == "applied", applied.text
            pending = [http.get(f"/v1/games/{game_id}/choices", headers=auth(t)).json() for t in tokens]
            banker = next(t for t, p in zip(tokens, pending, strict=True) if p["choices"])
            done = http.post(
                f"/v1/games/{game_id}/choices",
                json={"choice": {"action": "pass"}, "version": version + 2},
                headers=auth(banker),
            )
            assert done.status_code == 200, done.text

            final = http.get(f"/v1/games/{game_id}").json()
            assert final["status"] == "finished" and final["version"] == version + 3
            events = all_events(http, game_id)
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
            assert [e["data"]["seat"] for e in events if e["type"] == "choice_sealed"] == [
                winning_seat,
                1 - winning_seat,
            ]
            reveal = next(e for e in events if e["type"] == "reveal")
            assert reveal["data"]["choices"][str(winning_seat)] == cards[winner]
