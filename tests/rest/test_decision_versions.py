"""A seat's concurrency token (``decision_version``) moves only with its own decision: in a
simultaneous pick, other seats sealing never makes a seat's submit stale (issue 12 §4)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.client import stored
from tests.support.http import auth

GAME = "im-schutze-der-burg"


def three_seat_pick(client: TestClient) -> tuple[str, list[str]]:
    """An Im Schutze der Burg game of three people, at its first simultaneous pick."""
    game = client.post("/v1/games", json={"type": GAME, "seed": "tokens", "options": {"winter": False}})
    assert game.status_code == 201, game.text
    game_id, host = game.json()["id"], game.json()["host_token"]
    tokens = [
        client.post(f"/v1/games/{game_id}/seats", json={"name": name}).json()["token"]
        for name in ("Ann", "Ben", "Cid")
    ]
    assert client.post(f"/v1/games/{game_id}/start", headers=auth(host)).status_code == 200
    return game_id, tokens


def pending(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/v1/games/{game_id}/choices", headers=auth(token))
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    assert body["decision"]["simultaneous"] and body["choices"], body
    return body


def submit(client: TestClient, game_id: str, token: str, **body: Any) -> Any:
    return client.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))


def test_a_seat_token_read_before_another_seat_sealed_is_still_accepted(client: TestClient) -> None:
    game_id, tokens = three_seat_pick(client)
    ann, ben, cid = (pending(client, game_id, t) for t in tokens)
    token = ben["decision_version"]
    assert ben["decision"]["decision_version"] == token == ann["decision_version"]

    sealed = submit(
        client, game_id, tokens[0], choice=ann["choices"][0], decision_version=ann["decision_version"]
    )
    assert sealed.status_code == 200 and sealed.json()["status"] == "sealed", sealed.text

    seen = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json()
    assert seen["version"] > ben["version"], "the game moved on"
    assert seen["decision"]["decision_version"] == token, "Ben's decision did not"
    accepted = submit(client, game_id, tokens[1], choice=ben["choices"][0], decision_version=token)
    assert accepted.status_code == 200 and accepted.json()["status"] == "sealed", accepted.text
    # The game version read before both seals (clients of the README's first walkthrough).
    applied = submit(client, game_id, tokens[2], choice=cid["choices"][0], version=cid["version"])
    assert applied.status_code == 200 and applied.json()["status"] == "applied", applied.text


def test_a_token_of_a_decision_that_really_changed_is_409(client: TestClient) -> None:
    game_id, tokens = three_seat_pick(client)
    ann, ben, cid = (pending(client, game_id, t) for t in tokens)
    first = submit(
        client, game_id, tokens[0], choice=ann["choices"][0], decision_version=ann["decision_version"]
    ).json()
    assert first["decision_version"] > ann["decision_version"], "sealing changes Ann's own token"

    # Ann's own choice changed: her token from before it is stale, the one from her answer is not.
    before = stored(client, game_id)
    stale = submit(
        client, game_id, tokens[0], choice=ann["choices"][-1], decision_version=ann["decision_version"]
    )
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict", stale.text
    old_version = submit(client, game_id, tokens[0], choice=ann["choices"][-1], version=ann["version"])
    assert old_version.status_code == 409, old_version.text
    assert stored(client, game_id) == before
    replaced = submit(
        client, game_id, tokens[0], choice=ann["choices"][-1], decision_version=first["decision_version"]
    )
    assert replaced.status_code == 200, replaced.text

    # Once the pick is revealed, every token from it is stale.
    submit(client, game_id, tokens[1], choice=ben["choices"][0], decision_version=ben["decision_version"])
    submit(client, game_id, tokens[2], choice=cid["choices"][0], decision_version=cid["decision_version"])
    after = client.get(f"/v1/games/{game_id}/choices", headers=auth(tokens[1])).json()
    for token, seen in zip(tokens, (ann, ben, cid), strict=True):
        late = submit(
            client, game_id, token, choice=seen["choices"][0], decision_version=seen["decision_version"]
        )
        assert late.status_code == 409 and late.json()["code"] == "version_conflict", late.text
    if after["decision"] is not None:
        assert after["decision_version"] != ben["decision_version"]


CHOICES = """query($id: ID!) { choices(gameId: $id) {
  ... on Choices { version decisionVersion choices decision { decisionVersion } }
  ... on Problem { code } } }"""
SUBMIT = """mutation($id: ID!, $choice: JSON!, $dv: Int) {
  submitChoice(gameId: $id, choice: $choice, decisionVersion: $dv) {
    ... on SubmitResult { status decisionVersion }
    ... on Problem { code httpStatus } } }"""


def graphql(client: TestClient, token: str, query: str, **variables: Any) -> dict[str, Any]:
    answer = client.post("/graphql", json={"query": query, "variables": variables}, headers=auth(token))
    assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
    data: dict[str, Any] = answer.json()["data"]
    return data


def test_graphql_takes_the_same_token(client: TestClient) -> None:
    game_id, tokens = three_seat_pick(client)
    ann, ben = (graphql(client, t, CHOICES, id=game_id)["choices"] for t in tokens[:2])
    assert ben["decisionVersion"] == ben["decision"]["decisionVersion"] is not None

    graphql(client, tokens[0], SUBMIT, id=game_id, choice=ann["choices"][0], dv=ann["decisionVersion"])
    accepted = graphql(
        client, tokens[1], SUBMIT, id=game_id, choice=ben["choices"][0], dv=ben["decisionVersion"]
    )["submitChoice"]
    assert accepted["status"] == "sealed"
    stale = graphql(
        client, tokens[0], SUBMIT, id=game_id, choice=ann["choices"][0], dv=ann["decisionVersion"]
    )["submitChoice"]
    assert stale == {"code": "version_conflict", "httpStatus": 409}
