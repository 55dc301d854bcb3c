"""Tournaments over GraphQL (issue 30 item 4): the life cycle's mutations answer what REST
answers (the same problems), and the ``tournamentEvents`` subscription delivers the stored events
after a ``seq`` and then the live ones, every one once and in order, up to
``tournament_finished``: the same events as ``GET /v1/tournaments/{id}/events``."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import CLOCK
from tests.support.graphql import gql, graphql_ws
from tests.support.tournament_api import Tourney
from tests.support.waiting import eventually

pytestmark = pytest.mark.timeout(300)

CREATE = """
mutation Create($name: String!, $key: String, $clock: ClockInput, $rated: Boolean!, $private: Boolean!) {
  createTournament(name: $name, gameType: "duel", format: "swiss", rounds: 1, clock: $clock,
                   rated: $rated, private: $private, options: {rounds: 1}, idempotencyKey: $key) {
    __typename
    ... on TournamentCreated { hostToken inviteCode tournament { id status rated } }
    ... on Problem { code httpStatus }
  }
}
"""
SHAPE = (
    "__typename ... on Tournament { id status entrants { name withdrawn } } "
    "... on Problem { code httpStatus }"
)
REGISTER = (
    "mutation($id: ID!, $code: String) { registerForTournament(tournamentId: $id, inviteCode: $code) "
    f"{{ {SHAPE} }} }}"
)
UNREGISTER = f"mutation($id: ID!) {{ unregisterFromTournament(tournamentId: $id) {{ {SHAPE} }} }}"
START = f"mutation($id: ID!) {{ startTournament(tournamentId: $id) {{ {SHAPE} }} }}"
WITHDRAW = f"mutation($id: ID!) {{ withdrawFromTournament(tournamentId: $id) {{ {SHAPE} }} }}"
CANCEL = f"mutation($id: ID!) {{ cancelTournament(tournamentId: $id) {{ {SHAPE} }} }}"
EVENTS = (
    'subscription {{ tournamentEvents(tournamentId: "{id}", after: {after}) '
    "{{ seq type tournamentId data dataPlayer {{ player name }} dataStarted {{ players rounds }} "
    "dataRoundStarted {{ round tables byes games }} dataGameFinished {{ round table gameId ranks }} "
    "dataRoundFinished {{ round }} dataFinished {{ winner }} }} }}"
)


def player(client: TestClient, name: str) -> str:
    token: str = client.post("/v1/players", json={"name": name}).json()["token"]
    return token


def problem(data: dict[str, Any]) -> tuple[str, int]:
    (answer,) = data.values()
    assert answer["__typename"] == "Problem", answer
    return answer["code"], answer["httpStatus"]


def test_the_life_cycle_mutations_answer_as_rest_does(client: TestClient) -> None:
    created = gql(client, CREATE, name="Club", key=None, clock=None, rated=False, private=True)[
        "createTournament"
    ]
    assert created["__typename"] == "TournamentCreated" and created["tournament"]["rated"] is False
    tid, host, code = created["tournament"]["id"], created["hostToken"], created["inviteCode"]
    assert problem(gql(client, CREATE, name="Club", key=None, clock=None, rated=True, private=False)) == (
        "invalid_request",
        422,
    )  # a rated tournament needs a clock, as over REST
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    assert problem(gql(client, REGISTER, ann, id=tid, code=None)) == ("invite_required", 403)
    for token in (ann, bob, cy):
        joined = gql(client, REGISTER, token, id=tid, code=code)["registerForTournament"]
        assert joined["__typename"] == "Tournament"
    assert problem(gql(client, REGISTER, ann, id=tid, code=code)) == ("already_registered", 409)
    assert problem(gql(client, REGISTER, None, id=tid, code=code)) == ("unauthorized", 401)
    left = gql(client, UNREGISTER, cy, id=tid)["unregisterFromTournament"]
    assert [e["name"] for e in left["entrants"]] == ["Ann", "Bob"]
    assert problem(gql(client, UNREGISTER, cy, id=tid)) == ("not_registered", 409)
    assert problem(gql(client, START, ann, id=tid)) == ("forbidden", 403)
    assert problem(gql(client, START, ann, id="nope")) == ("tournament_not_found", 404)
    started = gql(client, START, host, id=tid)["startTournament"]
    assert started["status"] == "running"
    assert problem(gql(client, CANCEL, host, id=tid)) == ("tournament_running", 409)
    assert problem(gql(client, REGISTER, cy, id=tid, code=code)) == ("registration_closed", 409)
    withdrawn = gql(client, WITHDRAW, bob, id=tid)["withdrawFromTournament"]
    assert [(e["name"], e["withdrawn"]) for e in withdrawn["entrants"]] == [("Ann", False), ("Bob", True)]
    assert problem(gql(client, WITHDRAW, bob, id=tid)) == ("already_withdrawn", 409)
    rest = client.get(f"/v1/tournaments/{tid}").json()
    assert rest["status"] in ("running", "finished") and rest["rated"] is False
    other = gql(client, CREATE, name="Later", key=None, clock=None, rated=False, private=False)[
        "createTournament"
    ]
    cancelled = gql(client, CANCEL, other["hostToken"], id=other["tournament"]["id"])["cancelTournament"]
    assert cancelled["status"] == "cancelled"


def test_create_with_an_idempotency_key_answers_the_same_tournament(client: TestClient) -> None:
    key = "5d2c7b1e-9f4a-4c3b-8e6d-1a0f2b3c4d5e"
    first = gql(client, CREATE, name="Once", key=key, clock=None, rated=False, private=False)[
        "createTournament"
    ]
    again = gql(client, CREATE, name="Once", key=key, clock=None, rated=False, private=False)[
        "createTournament"
    ]
    assert first == again and first["__typename"] == "TournamentCreated"
    changed = gql(client, CREATE, name="Twice", key=key, clock=None, rated=False, private=False)
    assert problem(changed) == ("idempotency_key_reused", 422)


def test_tournament_events_resume_after_a_seq_then_follow_live_to_the_end(client: TestClient) -> None:
    tourney = Tourney([client])
    tourney.create(
        name="Followed", game_type="duel", format="swiss", rounds=1, clock=CLOCK, options={"rounds": 1}
    )
    tourney.register(["Ann", "Bob", "Cy", "Dee"])
    tid = tourney.tournament_id
    with graphql_ws(client) as socket:
        # resumed after the second registration: the third and fourth come from storage
        socket.send_json(
            {"id": "t", "type": "subscribe", "payload": {"query": EVENTS.format(id=tid, after=2)}}
        )
        early = [socket.receive_json() for _ in range(2)]
        assert [m["payload"]["data"]["tournamentEvents"]["seq"] for m in early] == [3, 4]
        tourney.start()  # then live
        tourney.play_round(1, seed=3)
        eventually(lambda: tourney.tournament()["status"] == "finished", 60, "finished")
        messages = list(early)
        while messages[-1]["type"] == "next":
            messages.append(socket.receive_json())
    assert messages[-1] == {"id": "t", "type": "complete"}
    got = [m["payload"]["data"]["tournamentEvents"] for m in messages[:-1]]
    stored = client.get(f"/v1/tournaments/{tid}/events", params={"after": 2}).json()["events"]
    assert [(e["seq"], e["type"], e["tournamentId"], e["data"]) for e in got] == [
        (e["seq"], e["type"], e["tournament_id"], e["data"]) for e in stored
    ]
    # Each event's data again in its typed sibling (camelCase names), for generated clients.
    typed = {
        "player_registered": "dataPlayer",
        "tournament_started": "dataStarted",
        "round_started": "dataRoundStarted",
        "game_finished": "dataGameFinished",
        "round_finished": "dataRoundFinished",
        "tournament_finished": "dataFinished",
    }
    for event in got:
        sibling = event[typed[event["type"]]]
        assert {
            key: sibling[key[0].lower() + key.title().replace("_", "")[1:]] for key in event["data"]
        } == event["data"]
    assert [e["seq"] for e in got] == list(range(3, 3 + len(got)))
    assert got[-1]["type"] == "tournament_finished"
    # once it is over, a client that has everything gets a completed stream at once
    with graphql_ws(client) as socket:
        socket.send_json(
            {
                "id": "u",
                "type": "subscribe",
                "payload": {"query": EVENTS.format(id=tid, after=got[-1]["seq"])},
            }
        )
        assert socket.receive_json() == {"id": "u", "type": "complete"}
