"""Take-backs over real HTTP (issue 30 item 5): REST and GraphQL, the events through SSE and the
history as each viewer may see them, and the problems in the caller's language."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.support.http import auth
from tests.support.live import Received, read_stream
from tests.support.play import all_events, game_as, play_first_choice, start_game

TAKEBACK_FIELDS = "takebacks { allowed canTakeBack request { seat waiting accepted } }"


def stream(base: str, game_id: str, token: str, events: int) -> Received:
    """The first ``events`` events of a seat's SSE stream (its history, then live)."""

    async def read() -> Received:
        received = Received()
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            await read_stream(client, f"/v1/games/{game_id}/stream", token, received, stop_after=events)
        return received

    return asyncio.run(read())


def gql(http: httpx.Client, query: str, token: str, **variables: Any) -> dict[str, Any]:
    answer = http.post("/graphql", json={"query": query, "variables": variables}, headers=auth(token))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def test_a_seat_takes_back_a_tile_over_rest_and_every_stream_shows_it(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        created, tokens = start_game(http, "carcassonne", 2, seed="takeback-rest")
        game_id = created["id"]
        assert created["takebacks"] is True  # no clock: the game can never be rated
        refused = http.post(
            f"/v1/games/{game_id}/takebacks", headers={**auth(tokens[1]), "Accept-Language": "de"}
        )
        assert refused.status_code == 409 and refused.json()["code"] == "nothing_to_take_back"
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert "zurücknehmen" in refused.json()["detail"]
        for _ in range(60):
            before = {seat: game_as(http, game_id, tokens[seat]) for seat in (0, 1)}
            seat = play_first_choice(http, game_id, tokens)
            if game_as(http, game_id, tokens[seat])["takebacks"]["can_take_back"]:
                break
        else:
            raise AssertionError("no decision could be taken back")
        assert game_as(http, game_id, tokens[1 - seat])["takebacks"]["can_take_back"] is False

        taken = http.post(f"/v1/games/{game_id}/takebacks", headers=auth(tokens[seat]))

        assert taken.status_code == 200, taken.text
        body = taken.json()
        assert (
            body["state"] == before[seat]["state"]
            and body["decision"]["kind"] == before[seat]["decision"]["kind"]
        )
        assert body["version"] == before[seat]["version"] + 2  # the decision and its take-back
        other = game_as(http, game_id, tokens[1 - seat])
        assert other["state"] == before[1 - seat]["state"]
        history = {s: all_events(http, game_id, tokens[s]) for s in (0, 1)}
    for viewer in (0, 1):
        last = history[viewer][-1]
        assert last["type"] == "taken_back" and last["data"]["seat"] == seat
        assert last["data"]["view"] == before[viewer]["state"]
        streamed = stream(server, game_id, tokens[viewer], len(history[viewer]))
        assert [e["data"]["type"] for e in streamed.events][-1] == "taken_back"
        assert streamed.events[-1]["data"]["data"] == last["data"]
    offer = streamed.events[-1]["data"]["next"]
    assert (offer is not None) == (viewer == seat)  # the seat to decide again learns it live


def test_after_the_opponent_decided_a_take_back_is_asked_refused_and_accepted_over_graphql(
    server: str,
) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        created, tokens = start_game(http, "im-schutze-der-burg", 2, seed="takeback-ask")
        game_id = created["id"]
        views_before: dict[int, dict[int, dict[str, Any]]] = {}
        asking = None
        for _ in range(200):
            shown = {seat: game_as(http, game_id, tokens[seat]) for seat in (0, 1)}
            if shown[0]["status"] != "in_progress":
                break
            if not shown[0]["decision"]["simultaneous"]:
                views_before[shown[0]["decision"]["seats"][0]] = shown
            mover = play_first_choice(http, game_id, tokens)
            other = 1 - mover
            if game_as(http, game_id, tokens[other])["takebacks"]["can_take_back"]:
                asking = other
                break
        assert asking is not None, "the opponent never decided after a decision that revealed nothing"
        answering = 1 - asking
        request = (
            "mutation($g: ID!) { requestTakeback(gameId: $g) { __typename "
            f"... on Game {{ state {TAKEBACK_FIELDS} }} ... on Problem {{ code }} }} }}"
        )
        answer = (
            "mutation($g: ID!, $a: Boolean!) { answerTakeback(gameId: $g, accept: $a) { __typename "
            f"... on Game {{ state {TAKEBACK_FIELDS} }} ... on Problem {{ code }} }} }}"
        )
        unchanged = game_as(http, game_id, tokens[asking])["state"]

        asked = gql(http, request, tokens[asking], g=game_id)["requestTakeback"]
        assert asked["takebacks"]["request"] == {"seat": asking, "waiting": [answering], "accepted": []}
        assert asked["state"] == unchanged
        again = gql(http, request, tokens[asking], g=game_id)["requestTakeback"]
        assert again == {"__typename": "Problem", "code": "takeback_pending"}
        wrong = gql(http, answer, tokens[asking], g=game_id, a=True)["answerTakeback"]
        assert wrong == {"__typename": "Problem", "code": "no_takeback_request"}
        refused = gql(http, answer, tokens[answering], g=game_id, a=False)["answerTakeback"]
        assert (
            refused["takebacks"]["request"] is None
            and refused["state"] == game_as(http, game_id, tokens[answering])["state"]
        )
        gql(http, request, tokens[asking], g=game_id)
        accepted = gql(http, answer, tokens[answering], g=game_id, a=True)["answerTakeback"]

        assert accepted["takebacks"]["request"] is None
        expected = views_before[asking]
        assert game_as(http, game_id, tokens[asking])["state"] == expected[asking]["state"]
        assert accepted["state"] == expected[answering]["state"]
        types = [e["type"] for e in all_events(http, game_id, tokens[answering])]
        assert types[-5:] == [
            "takeback_requested",
            "takeback_refused",
            "takeback_requested",
            "takeback_accepted",
            "taken_back",
        ]
