"""Idempotency-Key over REST and GraphQL: create, join and submit answer a retry with the first
answer, and a key reused with another body with 422 ``idempotency_key_reused``."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from tests.rest.test_rest_contract import assert_problem, auth, seated_game


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
