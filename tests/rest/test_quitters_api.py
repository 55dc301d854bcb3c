"""Resign, clocks in the view and the return to a seat, over REST and GraphQL."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.client import play_until_finished, seated_game
from tests.support.graphql import gql
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_a_resigned_seat_is_flagged_and_played_by_a_bot_to_the_end(client: TestClient) -> None:
    game, tokens = seated_game(client, options={"rounds": 1})
    resigned = client.post(f"/v1/games/{game['id']}/resign", headers=auth(tokens[1]))
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["seats"][1]["stand_in"] == "resigned"
    assert_problem(
        client.post(f"/v1/games/{game['id']}/choices", json={"choice": {"card": 1}}, headers=auth(tokens[1])),
        409,
        "seat_resigned",
    )
    client.post(f"/v1/games/{game['id']}/choices", json={"choice": {"card": 3}}, headers=auth(tokens[0]))
    final = play_until_finished(client, game["id"], tokens[0], pick=lambda _: {"action": "pass"})
    assert final["result"]["resigned"] == [1] and 1 not in final["result"]["winners"]
    events = client.get(f"/v1/games/{game['id']}/events").json()["events"]
    assert [e["data"] for e in events if e["type"] == "seat_resigned"] == [{"seat": 1}]


def test_the_view_shows_each_seats_deadline_and_remaining_seconds(client: TestClient) -> None:
    game, _ = seated_game(client, clock={"mode": "fischer", "seconds": 600, "increment": 10})
    view = client.get(f"/v1/games/{game['id']}").json()
    clock = view["clock"]
    assert (clock["mode"], clock["seconds"], clock["increment"], clock["on_expiry"]) == (
        "fischer",
        600,
        10,
        "bot",
    )
    assert [s["seat"] for s in clock["seats"]] == [0, 1]
    for seat in clock["seats"]:
        assert seat["deadline"] is not None and seat["waiting_since"] is not None
        assert 590 < seat["remaining_seconds"] <= 600
    refused = client.post("/v1/games", json={"type": "duel", "clock": {"mode": "per_decision"}})
    assert_problem(refused, 422, "invalid_options")
    refused = client.post("/v1/games", json={"type": "duel", "clock": {"mode": "sundial"}})
    assert_problem(refused, 422, "invalid_request")


def test_resign_and_clock_over_graphql(client: TestClient) -> None:
    created = gql(
        client,
        'mutation { createGame(type: "duel", clock: {mode: "per_decision", seconds: 90}) '
        "{ ... on GameCreated { id hostToken } ... on Problem { code detail } } }",
    )["createGame"]
    game_id = created["id"]
    tokens = [
        gql(
            client,
            "mutation($g: ID!, $n: String!) { joinGame(gameId: $g, name: $n) "
            "{ ... on SeatJoined { token } } }",
            g=game_id,
            n=name,
        )["joinGame"]["token"]
        for name in ("a", "b")
    ]
    client.post(f"/v1/games/{game_id}/start", headers=auth(created["hostToken"]))
    resigned = gql(
        client,
        "mutation($g: ID!) { resignSeat(gameId: $g) { ... on Game { seats { seat standIn } "
        "clock { mode seconds seats { seat deadline remainingSeconds } } } } }",
        tokens[0],
        g=game_id,
    )["resignSeat"]
    assert resigned["seats"][0] == {"seat": 0, "standIn": "resigned"}
    assert resigned["clock"]["mode"] == "per_decision" and resigned["clock"]["seconds"] == 90
    again = gql(
        client,
        "mutation($g: ID!) { resignSeat(gameId: $g) { ... on Problem { code } } }",
        tokens[0],
        g=game_id,
    )["resignSeat"]
    assert again == {"code": "seat_resigned"}
    back = gql(
        client,
        "mutation($g: ID!) { returnToSeat(gameId: $g) { ... on Problem { code } } }",
        tokens[0],
        g=game_id,
    )["returnToSeat"]
    assert back == {"code": "seat_resigned"}


def test_the_view_shows_the_inactivity_limit_of_a_game_without_a_clock(client: TestClient) -> None:
    game, _ = seated_game(client)
    assert client.get(f"/v1/games/{game['id']}").json()["clock"]["inactivity_days"] == 7
    clock = gql(
        client, "query($g: ID!) { game(id: $g) { ... on Game { clock { inactivityDays } } } }", g=game["id"]
    )["game"]["clock"]
    assert clock == {"inactivityDays": 7}
    clocked, _ = seated_game(client, clock={"mode": "per_decision", "seconds": 60})
    assert client.get(f"/v1/games/{clocked['id']}").json()["clock"]["inactivity_days"] is None
