"""Turn clocks over real HTTP: a player who stops answering never blocks a game.

One instance on SQLite, then two instances on PostgreSQL with Redis, where both poll for due
deadlines and each deadline still fires exactly once, also when every instance is killed while a
deadline is pending and one comes back after it passed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.http import auth
from tests.support.play import all_events
from tests.support.servers import ServerProcess, running_servers

GAME = "im-schutze-der-burg"
FAST_POLL = {"TABLETOP_DEADLINE_POLL_SECONDS": "0.2"}
SILENT_SEAT_LAPSES = [
    {"seat": 0, "action": "bot", "until": "decision", "lapses": 1},
    {"seat": 0, "action": "bot", "until": "decision", "lapses": 2},
    {"seat": 0, "action": "bot", "until": "return"},
]
"""A seat that never answers: the stand-in plays two lapsed decisions, then keeps the seat."""


def create_clocked_game(http: httpx.Client, seconds: float, players: int = 4) -> tuple[str, list[str]]:
    created = http.post(
        "/v1/games",
        json={"type": GAME, "clock": {"mode": "per_decision", "seconds": seconds, "on_expiry": "bot"}},
    )
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = []
    for seat in range(players):
        joined = http.post(f"/v1/games/{game['id']}/seats", json={"name": f"p{seat}"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    started = http.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    assert started.status_code == 200, started.text
    return game["id"], tokens


def play_until_over(
    clients: list[httpx.Client], game_id: str, answering: dict[int, str], timeout: float = 180.0
) -> dict[str, Any]:
    """The answering seats play random legal choices (through every instance in turn); the
    others never answer. Returns the final view."""
    rng = random.Random(13)
    deadline = time.monotonic() + timeout
    turn = 0
    while time.monotonic() < deadline:
        http = clients[turn % len(clients)]
        turn += 1
        game = http.get(f"/v1/games/{game_id}").json()
        if game["status"] != "in_progress":
            return game  # type: ignore[no-any-return]
        acted = False
        decision = game["decision"] or {"seats": [], "sealed": []}
        for seat in decision["seats"]:
            if seat not in answering or seat in decision["sealed"]:
                continue
            pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(answering[seat])).json()
            if not pending["choices"] or pending["decision"]["your_sealed_choice"] is not None:
                continue
            body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
            submitted = http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(answering[seat]))
            assert submitted.status_code in (200, 409), submitted.text  # 409: a bot moved first
            acted = True
        if not acted:
            time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not finish within {timeout} s")


def expiries(http: httpx.Client, game_id: str) -> list[dict[str, Any]]:
    return [e["data"] for e in all_events(http, game_id) if e["type"] == "clock_expired"]


@pytest.mark.timeout(240)
def test_a_silent_player_of_four_cannot_block_the_game_on_one_instance(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game_id, tokens = create_clocked_game(http, seconds=5)
        view = http.get(f"/v1/games/{game_id}").json()
        assert view["clock"]["mode"] == "per_decision"
        running = [s for s in view["clock"]["seats"] if s["deadline"] is not None]
        assert running and all(0 < s["remaining_seconds"] <= 5 for s in running)

        final = play_until_over([http], game_id, {seat: tokens[seat] for seat in (1, 2, 3)})
        assert final["status"] == "finished"
        assert final["seats"][0]["stand_in"] == "timeout"
        assert [e for e in expiries(http, game_id) if e["seat"] == 0] == SILENT_SEAT_LAPSES
        assert all(s["deadline"] is None for s in final["clock"]["seats"])


@pytest.fixture(scope="module")
def cluster_env() -> Iterator[dict[str, str]]:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        yield {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url, **FAST_POLL}


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.timeout(300)
def test_two_instances_finish_a_game_with_a_silent_player_and_fire_each_deadline_once(
    cluster_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    with running_servers([cluster_env, cluster_env], tmp_path_factory.mktemp("clocks")) as servers:
        clients = [httpx.Client(base_url=s.base, timeout=30) for s in servers]
        try:
            game_id, tokens = create_clocked_game(clients[0], seconds=5)
            final = play_until_over(clients, game_id, {seat: tokens[seat] for seat in (1, 2, 3)})
            assert final["status"] == "finished"
            silent = [e for e in expiries(clients[1], game_id) if e["seat"] == 0]
            assert silent == SILENT_SEAT_LAPSES
        finally:
            for client in clients:
                client.close()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.timeout(480)
def test_a_deadline_pending_while_every_instance_is_down_fires_once_after_the_restart(
    cluster_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    log_dir = tmp_path_factory.mktemp("clock-restart")
    first = [ServerProcess(cluster_env, log_dir).start(), ServerProcess(cluster_env, log_dir).start()]
    try:
        with httpx.Client(base_url=first[0].base, timeout=30) as http:
            game_id, _ = create_clocked_game(http, seconds=5, players=2)  # the shortest clock
            pending = [s for s in http.get(f"/v1/games/{game_id}").json()["clock"]["seats"] if s["deadline"]]
            assert pending
        for server in first:
            server.kill()  # SIGKILL while the deadline is pending
        time.sleep(5.5)
    finally:
        for server in first:
            server.stop()
    with running_servers([cluster_env, cluster_env], log_dir) as servers:
        clients = [httpx.Client(base_url=s.base, timeout=30) for s in servers]
        try:
            # The stand-ins play the rest in the bot pool: at CI's load, minutes.
            final = play_until_over(clients, game_id, {}, timeout=300)
            assert final["status"] == "finished"
            fired = expiries(clients[0], game_id)
            for seat in (0, 1):  # each lapse of each silent seat exactly once, the first across the restart
                assert [e for e in fired if e["seat"] == seat] == [
                    {**lapse, "seat": seat} for lapse in SILENT_SEAT_LAPSES
                ]
            assert final["result"]["forfeited"] == [] and final["result"]["resigned"] == []
        finally:
            for client in clients:
                client.close()
