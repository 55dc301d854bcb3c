"""Rematch over REST and GraphQL: linked games, bots back at once, people take their seats."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.client import finished_duel, new_game
from tests.support.graphql import gql
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_rematch_over_rest(client: TestClient) -> None:
    game, token = finished_duel(client)
    assert_problem(client.post(f"/v1/games/{game['id']}/rematch"), 401, "unauthorized")
    created = client.post(f"/v1/games/{game['id']}/rematch", headers=auth(token))
    assert created.status_code == 201, created.text
    rematch = created.json()
    assert rematch["rematch_of"] == game["id"] and rematch["status"] == "lobby"
    assert client.get(f"/v1/games/{game['id']}").json()["rematch_id"] == rematch["id"]
    view = client.get(f"/v1/games/{rematch['id']}").json()
    assert [(s["name"], s["confirmed"]) for s in view["seats"]] == [("Ann", False), ("random bot", True)]
    assert_problem(
        client.post(f"/v1/games/{rematch['id']}/start", headers=auth(rematch["host_token"])),
        409,
        "not_enough_players",
    )
    taken = client.post(f"/v1/games/{rematch['id']}/seats", json={}, headers=auth(token))
    assert taken.status_code == 201 and taken.json()["seat"] == 0
    # The last held seat taken, the rematch has started by itself: nobody presses Start.
    assert client.get(f"/v1/games/{rematch['id']}").json()["status"] == "in_progress"
    assert_problem(
        client.post(f"/v1/games/{game['id']}/rematch", headers=auth(game["host_token"])),
        409,
        "rematch_exists",
    )


def test_rematch_over_graphql(client: TestClient) -> None:
    game, _ = finished_duel(client)
    created = gql(
        client,
        "mutation($g: ID!) { rematchGame(gameId: $g) "
        "{ ... on GameCreated { id rematchOf hostToken } ... on Problem { code } } }",
        game["host_token"],
        g=game["id"],
    )["rematchGame"]
    assert created["rematchOf"] == game["id"]
    linked = gql(
        client,
        "query($g: ID!) { game(id: $g) { ... on Game { rematchId seats { confirmed } } } }",
        g=game["id"],
    )["game"]
    assert linked["rematchId"] == created["id"]


def test_replay_over_rest_and_graphql(client: TestClient) -> None:
    game, _ = finished_duel(client)
    assert_problem(client.get(f"/v1/games/{game['id']}/replay"), 422, "invalid_request")
    last_seq = client.get(f"/v1/games/{game['id']}/events").json()["last_seq"]
    final = client.get(f"/v1/games/{game['id']}/replay", params={"at": last_seq, "seat": 0}).json()
    assert final["matches_final_state"] is True and final["phase"] == "finished"
    assert final["used_seconds"] is None  # no clock ran
    early = client.get(f"/v1/games/{game['id']}/replay", params={"at": 3}).json()
    assert early["phase"] == "in_progress" and [e["seq"] for e in early["events"]] == [1, 2, 3]
    lobby = new_game(client)
    assert_problem(client.get(f"/v1/games/{lobby['id']}/replay", params={"at": 1}), 409, "game_not_finished")
    replay = gql(
        client,
        "query($g: ID!, $at: Int!) { replay(gameId: $g, at: $at, seat: 1) "
        "{ ... on Replay { phase matchesFinalState events { seq } } } }",
        g=game["id"],
        at=last_seq,
    )["replay"]
    assert replay["phase"] == "finished" and replay["matchesFinalState"] is True
    assert len(replay["events"]) == last_seq
