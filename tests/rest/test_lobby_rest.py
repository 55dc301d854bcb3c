"""The lobby over REST and GraphQL: private games with an invite code, removing and leaving seats,
and seat names with invisible characters refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.client import new_game
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_a_private_game_is_unlisted_and_needs_its_invite_code(client: TestClient) -> None:
    private = new_game(client, private=True)
    assert private["private"] is True and private["invite_code"]
    public = new_game(client, listed=True)
    assert public["private"] is False and public["invite_code"] is None
    listed = [g["id"] for g in client.get("/v1/games", params={"status": "lobby"}).json()["items"]]
    assert public["id"] in listed and private["id"] not in listed
    seats = f"/v1/games/{private['id']}/seats"
    assert_problem(client.post(seats, json={"name": "squatter"}), 403, "invite_required")
    joined = client.post(seats, json={"name": "friend", "invite_code": private["invite_code"]})
    assert joined.status_code == 201 and joined.json()["seat"] == 0
    view = client.get(f"/v1/games/{private['id']}").json()
    assert view["private"] is True and [s["name"] for s in view["seats"]] == ["friend"]
    mutation = (
        f'mutation {{ joinGame(gameId: "{private["id"]}", name: "g", inviteCode: "{private["invite_code"]}") '
        "{ ... on SeatJoined { seat } ... on Problem { code } } }"
    )
    assert client.post("/graphql", json={"query": mutation}).json()["data"]["joinGame"] == {"seat": 1}


def test_host_removes_a_squatter_and_a_seat_leaves_by_itself(client: TestClient) -> None:
    game = new_game(client)
    seats = f"/v1/games/{game['id']}/seats"
    tokens = [client.post(seats, json={"name": n}).json()["token"] for n in ("ann", "squat", "bob")]
    assert_problem(client.delete(f"{seats}/1"), 401, "unauthorized")
    assert_problem(client.delete(f"{seats}/1", headers=auth(tokens[0])), 403, "forbidden")
    assert_problem(client.delete(f"{seats}/7", headers=auth(game["host_token"])), 404, "seat_not_found")
    removed = client.delete(f"{seats}/1", headers=auth(game["host_token"]))
    assert removed.status_code == 200, removed.text
    assert [s["name"] for s in removed.json()["seats"]] == ["ann", "bob"]
    assert removed.json()["viewer"] == {"seat": None, "host": True}
    left = client.delete(f"{seats}/0", headers=auth(tokens[0]))
    assert left.status_code == 200 and left.json()["viewer"] == {"seat": None, "host": False}
    assert_problem(client.get(f"/v1/games/{game['id']}", headers=auth(tokens[0])), 401, "unauthorized")
    assert client.get(f"/v1/games/{game['id']}", headers=auth(tokens[2])).json()["viewer"]["seat"] == 0
    mutation = f'mutation {{ removeSeat(gameId: "{game["id"]}", seat: 0) {{ ... on Problem {{ code }} }} }}'
    assert client.post("/graphql", json={"query": mutation}).json()["data"]["removeSeat"] == {
        "code": "unauthorized"
    }


def test_seat_names_with_control_bidi_or_zero_width_characters_are_422(client: TestClient) -> None:
    game = new_game(client)
    seats = f"/v1/games/{game['id']}/seats"
    for name in ("evil\u202egnp.exe", "a\u200bb", "line\nbreak"):
        assert_problem(client.post(seats, json={"name": name}), 422, "invalid_name")
    assert client.post(seats, json={"name": "  Ｚoe  "}).status_code == 201
    assert client.get(f"/v1/games/{game['id']}").json()["seats"][0]["name"] == "Zoe"
