"""Players over REST and GraphQL: create, join with the player token, my games, re-issue."""

from __future__ import annotations

from datetime import datetime, timedelta

from fastapi.testclient import TestClient

from tests.support.client import new_game
from tests.support.graphql import gql
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_a_player_joins_with_its_token_and_sees_its_turn(client: TestClient) -> None:
    created = client.post("/v1/players", json={"name": "Ann"})
    assert created.status_code == 201
    player = created.json()
    assert set(player) == {"id", "name", "token", "created_at"}
    game = new_game(client, options={"rounds": 1})
    joined = client.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(player["token"]))
    assert joined.status_code == 201, joined.text
    client.post(f"/v1/games/{game['id']}/seats", json={"name": "Bob"})
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    assert client.get(f"/v1/games/{game['id']}").json()["seats"][0]["name"] == "Ann"

    mine = client.get("/v1/players/me/games", headers=auth(player["token"]))
    assert mine.status_code == 200
    (entry,) = mine.json()
    assert entry["game_id"] == game["id"] and entry["seat"] == 0
    assert entry["status"] == "in_progress" and entry["your_turn"] is True
    # No clock, so the deadline is the server's inactivity limit (7 days by default).
    waiting, deadline = (datetime.fromisoformat(entry[k]) for k in ("waiting_since", "deadline"))
    assert deadline - waiting == timedelta(days=7)

    reissued = client.post(f"/v1/players/me/games/{game['id']}/seats/0/token", headers=auth(player["token"]))
    assert reissued.status_code == 200, reissued.text
    old = client.get(f"/v1/games/{game['id']}/choices", headers=auth(joined.json()["token"]))
    assert_problem(old, 401, "unauthorized")
    new = client.get(f"/v1/games/{game['id']}/choices", headers=auth(reissued.json()["token"]))
    assert new.status_code == 200 and new.json()["choices"]


def test_player_routes_refuse_missing_wrong_and_foreign_tokens(client: TestClient) -> None:
    assert_problem(client.get("/v1/players/me/games"), 401, "unauthorized")
    assert_problem(client.get("/v1/players/me/games", headers=auth("x")), 401, "unauthorized")
    assert_problem(client.post("/v1/players", json={"name": ""}), 422, "invalid_request")
    game = new_game(client)
    assert_problem(client.post(f"/v1/games/{game['id']}/seats", json={}), 422, "invalid_request")
    assert_problem(  # a token that is neither a player's nor a held seat's gives no name
        client.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth("nope")),
        422,
        "invalid_request",
    )
    anonymous = client.post(f"/v1/games/{game['id']}/seats", json={"name": "anon"})
    assert anonymous.status_code == 201
    eve = client.post("/v1/players", json={"name": "Eve"}).json()
    refused = client.post(f"/v1/players/me/games/{game['id']}/seats/0/token", headers=auth(eve["token"]))
    assert_problem(refused, 403, "forbidden")


def test_players_over_graphql(client: TestClient) -> None:
    created = gql(
        client,
        "mutation($n: String!) { createPlayer(name: $n) { ... on PlayerCreated { token } } }",
        n="Ann",
    )["createPlayer"]
    token = created["token"]
    game = new_game(client)
    joined = gql(
        client,
        "mutation($g: ID!) { joinGame(gameId: $g) { ... on SeatJoined { seat token } } }",
        token,
        g=game["id"],
    )["joinGame"]
    assert joined["seat"] == 0
    mine = gql(
        client,
        "{ myGames { ... on PlayerGames { games { gameId seat status yourTurn } } "
        "... on Problem { code } } }",
        token,
    )["myGames"]
    assert mine == {"games": [{"gameId": game["id"], "seat": 0, "status": "lobby", "yourTurn": False}]}
    reissued = gql(
        client,
        "mutation($g: ID!) { reissueSeatToken(gameId: $g, seat: 0) "
        "{ ... on SeatJoined { token } ... on Problem { code } } }",
        token,
        g=game["id"],
    )["reissueSeatToken"]
    assert reissued["token"] != joined["token"]
    refused = gql(client, "{ myGames { ... on Problem { code httpStatus } } }")["myGames"]
    assert refused == {"code": "unauthorized", "httpStatus": 401}


def test_my_games_carry_the_decision_version_a_submit_needs(client: TestClient) -> None:
    """A client listing "my games" submits straight away with the listed `decision_version`; the
    same value, once the seat's decision has moved on, is refused as stale."""
    player = client.post("/v1/players", json={"name": "Ann"}).json()["token"]
    game = new_game(client, options={"rounds": 1})
    seat = client.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(player)).json()["token"]
    client.post(f"/v1/games/{game['id']}/seats", json={"name": "Bob"})
    (lobby,) = client.get("/v1/players/me/games", headers=auth(player)).json()
    assert lobby["decision_version"] is None  # nothing to decide in the lobby
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))

    (entry,) = client.get("/v1/players/me/games", headers=auth(player)).json()
    pending = client.get(f"/v1/games/{game['id']}/choices", headers=auth(seat))
    assert entry["decision_version"] is not None
    assert entry["decision_version"] == pending.json()["decision_version"]
    listed = gql(client, "{ myGames { ... on PlayerGames { games { decisionVersion } } } }", player)
    assert listed["myGames"]["games"] == [{"decisionVersion": entry["decision_version"]}]

    choice = pending.json()["choices"][0]
    body = {"choice": choice, "decision_version": entry["decision_version"]}
    sent = client.post(f"/v1/games/{game['id']}/choices", json=body, headers=auth(seat))
    assert sent.status_code == 200, sent.text
    (moved,) = client.get("/v1/players/me/games", headers=auth(player)).json()
    assert moved["decision_version"] != entry["decision_version"]
    stale = client.post(f"/v1/games/{game['id']}/choices", json=body, headers=auth(seat))
    assert_problem(stale, 409, "version_conflict")
