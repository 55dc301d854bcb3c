"""The lobby as a page object (issue 12 §5): cursor pages with a total, summaries a lobby can be
drawn from (seat limit, seat names, last change, whose turn), and a joinable filter."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.http import auth


def player(client: TestClient, name: str = "Host") -> str:
    token: str = client.post("/v1/players", json={"name": name}).json()["token"]
    return token


def lobby_with(client: TestClient, names: list[str]) -> dict[str, Any]:
    """A listed lobby (its creator is a player identity) with these people seated."""
    game: dict[str, Any] = client.post(
        "/v1/games", json={"type": "duel"}, headers=auth(player(client))
    ).json()
    assert game["listed"] is True
    game["tokens"] = [
        client.post(f"/v1/games/{game['id']}/seats", json={"name": name}).json()["token"] for name in names
    ]
    return game


def test_pages_follow_the_cursor_newest_first_without_gap_or_repeat(client: TestClient) -> None:
    made = [lobby_with(client, [])["id"] for _ in range(5)]
    seen: list[str] = []
    cursor = None
    for _ in range(3):
        params: dict[str, Any] = {"type": "duel", "limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/games", params=params).json()
        assert page["total"] == 5
        seen += [item["id"] for item in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == list(reversed(made))
    lobby_with(client, [])  # a new game does not shift later pages
    second = client.get("/v1/games", params={"type": "duel", "limit": 2}).json()
    after = client.get(
        "/v1/games", params={"type": "duel", "limit": 2, "cursor": second["next_cursor"]}
    ).json()
    assert [g["id"] for g in after["items"]] == list(reversed(made))[1:3]


def test_a_summary_names_the_seats_the_limit_the_last_change_and_whose_turn(
    client: TestClient,
) -> None:
    game = lobby_with(client, ["Ann", "Ben"])
    listed = client.get("/v1/games").json()["items"][0]
    assert listed["max_players"] == 3 and listed["players"] == 2
    assert [(s["seat"], s["name"], s["bot"]) for s in listed["seats"]] == [(0, "Ann", None), (1, "Ben", None)]
    assert listed["awaiting"] == [] and listed["updated_at"] >= listed["created_at"]

    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    assert client.get("/v1/games").json()["items"][0]["awaiting"] == [0, 1]
    client.post(
        f"/v1/games/{game['id']}/choices", json={"choice": {"card": 1}}, headers=auth(game["tokens"][0])
    )
    assert client.get("/v1/games").json()["items"][0]["awaiting"] == [1], "seat 0 has sealed"


def test_joinable_lists_lobbies_with_a_free_seat_only(client: TestClient) -> None:
    open_one = lobby_with(client, ["Ann"])
    full = lobby_with(client, ["Ann", "Ben", "Cid"])
    started = lobby_with(client, ["Ann", "Ben"])
    client.post(f"/v1/games/{started['id']}/start", headers=auth(started["host_token"]))

    joinable = client.get("/v1/games", params={"joinable": "true"}).json()
    assert [g["id"] for g in joinable["items"]] == [open_one["id"]] and joinable["total"] == 1
    others = client.get("/v1/games", params={"joinable": "false"}).json()
    assert {g["id"] for g in others["items"]} == {full["id"], started["id"]}


def test_a_cursor_not_issued_by_the_api_is_422(client: TestClient) -> None:
    answer = client.get("/v1/games", params={"cursor": "not-a-cursor"})
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_request"


GAMES = """query($cursor: String) { games(joinable: true, limit: 1, cursor: $cursor) {
  ... on GamePage { total nextCursor items { id type status players maxPlayers
  seats { seat name bot } awaiting createdAt updatedAt seedMode version } } } }"""


def test_graphql_pages_the_lobby_the_same_way(client: TestClient) -> None:
    first, second = lobby_with(client, ["Ann"]), lobby_with(client, ["Ben"])
    lobby_with(client, ["A", "B", "C"])

    def page(cursor: str | None) -> dict[str, Any]:
        body = client.post("/graphql", json={"query": GAMES, "variables": {"cursor": cursor}}).json()
        assert "errors" not in body, body
        return body["data"]["games"]  # type: ignore[no-any-return]

    one = page(None)
    assert one["total"] == 2 and one["items"][0]["id"] == second["id"]
    assert one["items"][0]["seats"] == [{"seat": 0, "name": "Ben", "bot": None}]
    assert one["items"][0]["maxPlayers"] == 3
    two = page(one["nextCursor"])
    assert [g["id"] for g in two["items"]] == [first["id"]] and two["nextCursor"] is None
    rest = client.get("/v1/games", params={"joinable": "true", "limit": 1}).json()
    assert rest["next_cursor"] == one["nextCursor"]
