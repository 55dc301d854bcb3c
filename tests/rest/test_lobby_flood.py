"""The public lobby against flooding and squatting, over REST and GraphQL (issue 19 item 4):
the issue's 150 anonymous creates list nothing, a script with player identities lists at most
the per-address cap, entries carry creator, age, seats, clock and rating, filters page like the
other lists, and a host removes and blocks a seat-taker."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.i18n import platform_texts
from tests.support.http import auth
from tests.support.problems import assert_problem

CLOCK = {"mode": "per_decision", "seconds": 60}


def player(client: TestClient, name: str = "Ann") -> str:
    token: str = client.post("/v1/players", json={"name": name}).json()["token"]
    return token


def listed(client: TestClient, **params: Any) -> dict[str, Any]:
    page = client.get("/v1/games", params=params)
    assert page.status_code == 200, page.text
    return page.json()  # type: ignore[no-any-return]


def test_the_flood_of_the_issue_lists_no_game_and_identities_list_at_most_the_cap(
    client: TestClient,
) -> None:
    for _ in range(150):
        created = client.post("/v1/games", json={"type": "duel"})
        assert created.status_code == 201 and created.json()["listed"] is False
    assert listed(client, status="lobby")["total"] == 0
    assert listed(client, joinable="true")["total"] == 0

    # A script that makes a player identity per create is held by the address's cap (10).
    answers = [
        client.post("/v1/games", json={"type": "duel"}, headers=auth(player(client, f"bot{i}")))
        for i in range(15)
    ]
    assert [a.status_code for a in answers] == [201] * 10 + [429] * 5
    assert_problem(answers[-1], 429, "too_many_listed_games")
    assert listed(client, joinable="true")["total"] == 10
    # An unknown bearer token is refused, not taken for an anonymous create.
    assert_problem(client.post("/v1/games", json={"type": "duel"}, headers=auth("nope")), 401, "unauthorized")


def test_one_player_holds_at_most_three_open_listed_lobbies(client: TestClient) -> None:
    ann = player(client)
    made = [client.post("/v1/games", json={"type": "duel"}, headers=auth(ann)) for _ in range(4)]
    assert [m.status_code for m in made] == [201, 201, 201, 429]
    refused = client.post("/v1/games", json={"type": "duel"}, headers={**auth(ann), "Accept-Language": "de"})
    assert refused.json()["code"] == "too_many_listed_games" and "Spiele" in refused.json()["detail"]
    first = made[0].json()
    client.post(f"/v1/games/{first['id']}/abort", headers=auth(first["host_token"]))
    assert client.post("/v1/games", json={"type": "duel"}, headers=auth(ann)).status_code == 201


def test_an_entry_shows_creator_age_seats_clock_and_rating_and_filters_page(
    client: TestClient,
) -> None:
    ann = player(client, "Ann")
    rated = client.post("/v1/games", json={"type": "duel", "clock": CLOCK}, headers=auth(ann)).json()
    casual = client.post("/v1/games", json={"type": "duel"}, headers=auth(ann)).json()
    client.post(f"/v1/games/{casual['id']}/seats", json={"name": "guest"})
    entries = {g["id"]: g for g in listed(client)["items"]}
    entry = entries[rated["id"]]
    assert entry["creator"]["name"] == "Ann" and entry["creator"]["finishing_rate"] is None
    assert entry["creator"]["finished_games"] == 0 and entry["age_seconds"] >= 0
    assert (entry["players"], entry["max_players"], entry["open_seats"]) == (0, 3, 3)
    assert entry["clock"] == {
        "mode": "per_decision",
        "seconds": 60,
        "increment": 0,
        "on_expiry": "bot",
        "stand_in": "greedy",
    }
    assert entry["rated"] is True and entry["unrated_reasons"] == []
    other = entries[casual["id"]]
    assert other["rated"] is False
    assert [r["code"] for r in other["unrated_reasons"]] == ["anonymous_seat", "no_clock"]
    german = {g["id"]: g for g in listed(client, open_seats=2, lang="de")["items"]}[casual["id"]]
    assert german["unrated_reasons"][1]["text"] == platform_texts("de")["unrated.no_clock"]

    assert [g["id"] for g in listed(client, clock="per_decision")["items"]] == [rated["id"]]
    assert [g["id"] for g in listed(client, open_seats=3)["items"]] == [rated["id"]]
    first = listed(client, players=3, limit=1)
    assert first["total"] == 2 and first["items"][0]["id"] == casual["id"]
    second = listed(client, players=3, limit=1, cursor=first["next_cursor"])
    assert [g["id"] for g in second["items"]] == [rated["id"]] and second["next_cursor"] is None
    assert listed(client, players=2)["total"] == 0
    assert_problem(client.get("/v1/games", params={"clock": "hourglass"}), 422, "invalid_request")
    assert_problem(client.get("/v1/games", params={"open_seats": 0}), 422, "invalid_request")

    query = """{ games(openSeats: 3, clock: "per_decision") { ... on GamePage { total items {
      id openSeats ageSeconds rated unratedReasons { code } clock { mode seconds }
      creator { name finishingRate finishedGames } } } ... on Problem { code } } }"""
    page = client.post("/graphql", json={"query": query}).json()["data"]["games"]
    assert page["total"] == 1 and page["items"][0]["id"] == rated["id"]
    assert page["items"][0]["creator"] == {"name": "Ann", "finishingRate": None, "finishedGames": 0}
    assert page["items"][0]["clock"] == {"mode": "per_decision", "seconds": 60}
    bad = client.post("/graphql", json={"query": '{ games(clock: "x") { ... on Problem { code } } }'})
    assert bad.json()["data"]["games"] == {"code": "invalid_request"}


def test_the_host_removes_and_blocks_a_squatter_who_cannot_sit_down_again(
    client: TestClient,
) -> None:
    game = client.post("/v1/games", json={"type": "duel"}, headers=auth(player(client))).json()
    seats, host = f"/v1/games/{game['id']}/seats", auth(game["host_token"])
    squatter = player(client, "Squat")
    taken = client.post(seats, json={}, headers=auth(squatter)).json()
    assert_problem(client.delete(f"{seats}/0?block=true", headers=auth(taken["token"])), 403, "forbidden")
    removed = client.delete(f"{seats}/0", params={"block": "true"}, headers=host)
    assert removed.status_code == 200 and removed.json()["seats"] == []
    again = client.post(seats, json={}, headers={**auth(squatter), "Accept-Language": "fr"})
    assert_problem(again, 403, "seat_blocked")
    assert "hôte" in again.json()["detail"]
    # The squatter's client address is blocked too (every test client shares one address).
    assert_problem(client.post(seats, json={"name": "new name"}), 403, "seat_blocked")
    mutation = f'mutation {{ joinGame(gameId: "{game["id"]}", name: "g") {{ ... on Problem {{ code }} }} }}'
    assert client.post("/graphql", json={"query": mutation}).json()["data"]["joinGame"] == {
        "code": "seat_blocked"
    }


def test_graphql_remove_seat_blocks_too(client: TestClient) -> None:
    game = client.post("/v1/games", json={"type": "duel"}, headers=auth(player(client))).json()
    client.post(f"/v1/games/{game['id']}/seats", json={"name": "squat"})
    mutation = f"""mutation {{ removeSeat(gameId: "{game["id"]}", seat: 0, block: true) {{
      ... on Game {{ seats {{ name }} }} ... on Problem {{ code }} }} }}"""
    answer = client.post("/graphql", json={"query": mutation}, headers=auth(game["host_token"]))
    assert answer.json()["data"]["removeSeat"] == {"seats": []}
    again = client.post(f"/v1/games/{game['id']}/seats", json={"name": "squat"})
    assert_problem(again, 403, "seat_blocked")
