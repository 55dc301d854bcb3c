"""Idempotency-Key over REST and GraphQL: create, join and submit answer a retry with the first
answer, and a key reused with another body with 422 ``idempotency_key_reused``."""

from __future__ import annotations

import secrets
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from tests.support.client import seated_game
from tests.support.http import auth
from tests.support.problems import assert_problem


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def test_create_and_join_retries_answer_the_first_answer(client: TestClient) -> None:
    once = key()
    first = client.post("/v1/games", json={"type": "duel"}, headers=once)
    again = client.post("/v1/games", json={"type": "duel"}, headers=once)
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["host_token"] == first.json()["host_token"]
    other = client.post("/v1/games", json={"type": "duel", "private": True}, headers=once)
    assert_problem(other, 422, "idempotency_key_reused")
    seats = f"/v1/games/{first.json()['id']}/seats"
    join_key = key()
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(
            pool.map(lambda _: client.post(seats, json={"name": "ann"}, headers=join_key), range(4))
        )
    assert {(a.status_code, a.json()["seat"], a.json()["token"]) for a in answers} == {
        (201, 0, answers[0].json()["token"])
    }
    assert len(client.get(f"/v1/games/{first.json()['id']}").json()["seats"]) == 1
    assert_problem(client.post(seats, json={"name": "bob"}, headers=join_key), 422, "idempotency_key_reused")
    assert_problem(
        client.post(seats, json={"name": "bob"}, headers={"Idempotency-Key": "short"}),
        422,
        "invalid_idempotency_key",
    )


def test_a_submit_key_reused_with_another_choice_is_422(client: TestClient) -> None:
    game, tokens = seated_game(client)
    once = {**key(), **auth(tokens[0])}
    url = f"/v1/games/{game['id']}/choices"
    first = client.post(url, json={"choice": {"card": 1}}, headers=once)
    assert first.status_code == 200
    assert client.post(url, json={"choice": {"card": 1}}, headers=once).json() == first.json()
    reused = client.post(url, json={"choice": {"card": 2}}, headers=once)
    assert_problem(reused, 422, "idempotency_key_reused")
    mutation = (
        f'mutation {{ submitChoice(gameId: "{game["id"]}", choice: {{card: 3}}, '
        f'idempotencyKey: "{once["Idempotency-Key"]}") {{ ... on Problem {{ code httpStatus }} }} }}'
    )
    answer = client.post("/graphql", json={"query": mutation}, headers=auth(tokens[0]))
    assert answer.json()["data"]["submitChoice"] == {"code": "idempotency_key_reused", "httpStatus": 422}


def test_a_create_or_join_key_replayed_from_another_address_gets_no_token_of_the_first(
    client: TestClient,
) -> None:
    """Keys are scoped to the caller: someone who learns a victim's key (logs, a shared proxy)
    and replays it with the same body gets a request of their own, not the victim's token."""
    thief = TestClient(client.app, client=("203.0.113.9", 4000))
    once = key()
    victim = client.post("/v1/games", json={"type": "duel"}, headers=once).json()
    replay = thief.post("/v1/games", json={"type": "duel"}, headers=once).json()
    assert replay["host_token"] != victim["host_token"] and replay["id"] != victim["id"]
    seats = f"/v1/games/{victim['id']}/seats"
    join_key = key()
    seat = client.post(seats, json={"name": "ann"}, headers=join_key).json()
    stolen = thief.post(seats, json={"name": "ann"}, headers=join_key).json()
    assert stolen["token"] != seat["token"]
    assert client.post(seats, json={"name": "ann"}, headers=join_key).json() == seat
    mutation = (
        f'mutation {{ joinGame(gameId: "{victim["id"]}", name: "ann", '
        f'idempotencyKey: "{join_key["Idempotency-Key"]}") {{ ... on SeatJoined {{ token }} }} }}'
    )
    by_thief = thief.post("/graphql", json={"query": mutation}).json()["data"]["joinGame"]
    by_victim = client.post("/graphql", json={"query": mutation}).json()["data"]["joinGame"]
    assert by_victim == {"token": seat["token"]} and by_thief["token"] != seat["token"]


def test_a_key_that_does_not_look_random_is_refused_as_the_schema_says(client: TestClient) -> None:
    weak = {"Idempotency-Key": "1234567890123456"}
    refused = client.post("/v1/games", json={"type": "duel"}, headers=weak)
    assert_problem(refused, 422, "invalid_idempotency_key")
    header = next(
        p
        for p in client.get("/openapi.json").json()["paths"]["/v1/games"]["post"]["parameters"]
        if p["name"].lower() == "idempotency-key"
    )
    assert header["schema"]["minLength"] == 16 and "look random" in header["description"]
    assert header["schema"]["pattern"] == "^[\\x21-\\x7e]{16,128}$"


@pytest.mark.parametrize(
    "weak", ["passwordpassword", "Password1Password1", "qwertyuiqwertyuiqwer", "letmeinletmeinletmein"]
)
def test_a_repeated_word_is_no_random_key(client: TestClient, weak: str) -> None:
    """Issue 31 item 12: a word said twice carries the bits of the word once."""
    refused = client.post("/v1/games", json={"type": "duel"}, headers={"Idempotency-Key": weak})
    assert_problem(refused, 422, "invalid_idempotency_key")


def test_random_keys_still_pass(client: TestClient) -> None:
    for key in (str(uuid.uuid4()), secrets.token_urlsafe(12), "correct-horse-battery-staple"):
        created = client.post("/v1/games", json={"type": "duel"}, headers={"Idempotency-Key": key})
        assert created.status_code == 201, (key, created.text)
