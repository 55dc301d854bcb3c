"""Fair play over REST: who may seat a bot, the seed mode every joiner sees, and the verification
of a finished game that the README describes (commitment, then seed, then replay)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from domain.registry import default_registry
from domain.services.verification import replay_bot_game
from tests.support.client import app_with_test_game, make_settings, new_game, reached
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_a_bot_is_seated_with_the_host_token_only_and_gets_no_token(client: TestClient) -> None:
    game = new_game(client)
    seats = f"/v1/games/{game['id']}/seats"
    human = client.post(seats, json={"name": "ann"}).json()["token"]
    assert_problem(client.post(seats, json={"bot": "random"}), 401, "unauthorized")
    assert_problem(client.post(seats, json={"bot": "random"}, headers=auth(human)), 403, "forbidden")
    seated = client.post(seats, json={"bot": "random"}, headers=auth(game["host_token"]))
    assert seated.status_code == 201
    assert seated.json()["token"] is None
    graphql = client.post(
        "/graphql",
        json={
            "query": f'mutation {{ joinGame(gameId: "{game["id"]}", bot: "greedy") '
            "{ ... on SeatJoined { token } ... on Problem { code } } }"
        },
    )
    assert graphql.json()["data"]["joinGame"] == {"code": "unauthorized"}


def test_every_joiner_sees_the_seed_mode_in_the_listing_and_the_game(client: TestClient) -> None:
    server = new_game(client, listed=True)
    host = new_game(client, listed=True, seed="demo-1")
    assert (server["seed_mode"], host["seed_mode"]) == ("server", "host")
    listed = {g["id"]: g["seed_mode"] for g in client.get("/v1/games?status=lobby").json()["items"]}
    assert listed[server["id"]] == "server" and listed[host["id"]] == "host"
    view = client.get(f"/v1/games/{host['id']}").json()
    assert view["seed_mode"] == "host" and view["seed"] is None and view["seed_salt"] is None
    query = f'{{ game(id: "{host["id"]}") {{ ... on Game {{ seedMode seedSalt }} }} }}'
    assert client.post("/graphql", json={"query": query}).json()["data"]["game"] == {
        "seedMode": "host",
        "seedSalt": None,
    }
    assert_problem(
        client.post("/v1/games", json={"type": "duel", "seed": "x", "seed_mode": "server"}),
        422,
        "invalid_seed",
    )
    assert_problem(client.post("/v1/games", json={"type": "duel", "seed_mode": "host"}), 422, "invalid_seed")


def finished_bot_game(client: TestClient, slug: str, bots: list[str]) -> dict[str, Any]:
    game = client.post("/v1/games", json={"type": slug}).json()
    for level in bots:
        client.post(f"/v1/games/{game['id']}/seats", json={"bot": level}, headers=auth(game["host_token"]))
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    return reached(client, game["id"], "finished", timeout=60)


def history(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = client.get(f"/v1/games/{game_id}/events", params={"after": len(events)}).json()
        if not page["events"]:
            return events
        events.extend(page["events"])


def test_anyone_verifies_a_finished_game_commitment_then_seed_then_replay(client: TestClient) -> None:
    """Exactly the README's steps, as a spectator with no token."""
    view = finished_bot_game(client, "carcassonne", ["random", "greedy"])
    seed, salt = view["seed"], view["seed_salt"]
    # 1. commitment: published at creation, it is sha256("<salt>:<seed>")
    assert view["seed_mode"] == "server"
    assert hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest() == view["seed_commitment"]
    # 2. seed → 3. replay: the same rules, seed and salt give back every event from the start
    events = history(client, view["id"])
    started = next(e for e in events if e["type"] == "game_started")
    game = default_registry().game(view["type"])
    replayed = replay_bot_game(
        game, view["options"], [s["bot"] for s in view["seats"]], seed, salt, started["seq"] - 1
    )
    recorded = [e for e in events if e["seq"] >= started["seq"]]
    assert [r.for_viewer(None) for r in replayed] == recorded
    assert len(recorded) > 50
    # a wrong salt or seed gives neither the commitment nor the same game
    assert hashlib.sha256(f"{salt}:{seed}x".encode()).hexdigest() != view["seed_commitment"]
    other = replay_bot_game(
        game, view["options"], [s["bot"] for s in view["seats"]], seed + "x", salt, started["seq"] - 1
    )
    assert [r.for_viewer(None) for r in other] != recorded


def test_games_of_bots_only_are_bounded_with_a_429(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, max_bot_only_games=1, bot_think_seconds=0.5)
    app = app_with_test_game(settings)
    with TestClient(app) as client:
        answers = []
        for _ in range(2):
            game = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 3}}).json()
            for _ in range(2):
                client.post(
                    f"/v1/games/{game['id']}/seats", json={"bot": "random"}, headers=auth(game["host_token"])
                )
            answers.append(client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])))
        assert answers[0].status_code == 200
        assert_problem(answers[1], 429, "too_many_bot_only_games")
        assert client.get(f"/v1/games/{game['id']}").json()["status"] == "lobby"
