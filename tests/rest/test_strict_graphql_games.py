"""Whole games of every hosted type played over GraphQL alone (create, join, start, choices,
submit, events), with no error and no ``Problem`` anywhere, and every game-specific value the
SDL types as ``JSON`` (state, decision data, choices, event data) valid against the per-game
schema that the OpenAPI document publishes for it, in strict mode."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.game_schemas import prefix
from tests.rest.test_strict_responses import StrictChecker
from tests.rest.test_strict_responses import document as document

CREATE = """mutation($type: String!) { createGame(type: $type) {
  __typename ... on GameCreated { id hostToken } ... on Problem { code detail } } }"""
JOIN = """mutation($id: ID!, $name: String!) { joinGame(gameId: $id, name: $name) {
  __typename ... on SeatJoined { seat token } ... on Problem { code detail } } }"""
START = """mutation($id: ID!) { startGame(gameId: $id) {
  __typename ... on Game { status } ... on Problem { code detail } } }"""
GAME = """query($id: ID!) { game(id: $id) { __typename ... on Game {
  status state decision { kind seats sealed data } } ... on Problem { code detail } } }"""
CHOICES = """query($id: ID!) { choices(gameId: $id) { __typename ... on Choices {
  decisionVersion choices decision { kind data } } ... on Problem { code detail } } }"""
SUBMIT = """mutation($id: ID!, $choice: JSON!, $dv: Int) {
  submitChoice(gameId: $id, choice: $choice, decisionVersion: $dv) {
  __typename ... on SubmitResult { status } ... on Problem { code detail } } }"""
EVENTS = """query($id: ID!, $after: Int!) { events(gameId: $id, after: $after, limit: 1000) {
  __typename ... on EventPage { lastSeq events { seq type data } } ... on Problem { code detail } } }"""


def call(client: TestClient, query: str, token: str | None = None, **variables: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = client.post("/graphql", json={"query": query, "variables": variables}, headers=headers).json()
    assert "errors" not in body, body["errors"]
    (answer,) = body["data"].values()
    assert answer["__typename"] != "Problem", answer
    return answer


@pytest.mark.timeout(900)
@pytest.mark.parametrize("slug", ["keythedral", "carcassonne", "im-schutze-der-burg"])
def test_a_whole_game_over_graphql_matches_the_published_game_schemas(
    client: TestClient, document: dict[str, Any], slug: str
) -> None:
    checker = StrictChecker(document)
    base = f"#/components/schemas/{prefix(slug)}"
    created = call(client, CREATE, type=slug)
    game_id = created["id"]
    tokens = [call(client, JOIN, id=game_id, name=f"p{i}")["token"] for i in range(2)]
    assert call(client, START, created["hostToken"], id=game_id)["status"] == "in_progress"
    chooser = random.Random(slug)
    moves = 0
    while True:
        viewer = tokens[moves % 2] if moves % 3 else None
        game = call(client, GAME, viewer, id=game_id)
        if moves % 5 == 0 or game["status"] != "in_progress":
            checker.validate(game["state"], f"{base}View", f"{slug} state after {moves} moves")
        if game["status"] != "in_progress":
            break
        decision = game["decision"]
        checker.validate({"kind": decision["kind"], "data": decision["data"]}, f"{base}Decision", slug)
        for seat in [s for s in decision["seats"] if s not in decision["sealed"]]:
            pending = call(client, CHOICES, tokens[seat], id=game_id)
            listed = {"kind": pending["decision"]["kind"], "choices": pending["choices"]}
            checker.validate(listed, f"{base}Choices", f"{slug} choices")
            choice = chooser.choice(pending["choices"])
            call(client, SUBMIT, tokens[seat], id=game_id, choice=choice, dv=pending["decisionVersion"])
            moves += 1
        assert moves < 20_000
    assert game["status"] == "finished"
    after, count = 0, 0
    while True:
        page = call(client, EVENTS, tokens[0], id=game_id, after=after)
        for event in page["events"]:
            checker.validate(event, f"{base}Event", f"{slug} event {event['type']}")
        count += len(page["events"])
        if page["lastSeq"] == after:
            break
        after = page["lastSeq"]
    assert count > moves
