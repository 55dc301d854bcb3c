"""Whole games of every hosted type played over GraphQL alone (create, join, start, choices,
submit, events), with no error and no ``Problem`` anywhere, and every game-specific value the
SDL types as ``JSON`` (state, decision data, choices, event data) valid against the per-game
schema that the OpenAPI document publishes for it, in strict mode; so are their typed twins
(``carcassonneState``, ``keythedralOptions``, ``imSchutzeDerBurgDetails``, ...), equal to the
``JSON`` they type."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.openapi.game_schemas import prefix
from tests.support.contract import StrictChecker

CREATE = """mutation($type: String!, $options: GameOptions) {
  createGame(type: $type, gameOptions: $options) {
  __typename ... on GameCreated { id hostToken options %s } ... on Problem { code detail } } }"""
JOIN = """mutation($id: ID!, $name: String!) { joinGame(gameId: $id, name: $name) {
  __typename ... on SeatJoined { seat token } ... on Problem { code detail } } }"""
START = """mutation($id: ID!) { startGame(gameId: $id) {
  __typename ... on Game { status } ... on Problem { code detail } } }"""
GAME = """query($id: ID!) { game(id: $id) { __typename ... on Game {
  status state %s decision {
  kind seats sealed simultaneous data yourSealedChoice %s } options %s
  result { details %s } } ... on Problem { code detail } } }"""
REPLAY = """query($id: ID!, $at: Int!) { replay(gameId: $id, at: $at) { __typename ... on Replay {
  state %s } ... on Problem { code detail } } }"""
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
    game_query = GAME % tuple(
        twin(slug, suffix) for suffix in ("State", "YourSealedChoice", "Options", "Details")
    )
    first = client.get(f"/v1/game-types/{slug}").json()["options"][0]
    options = {camel(slug): {first["name"]: first["default"]}}
    created = call(client, CREATE % twin(slug, "Options"), type=slug, options=options)
    assert created[twin(slug, "Options")] == created["options"]
    checker.validate(created["options"], f"{base}Options", f"{slug} options")
    game_id = created["id"]
    tokens = [call(client, JOIN, id=game_id, name=f"p{i}")["token"] for i in range(2)]
    assert call(client, START, created["hostToken"], id=game_id)["status"] == "in_progress"
    chooser = random.Random(slug)
    moves = sealed_choices = 0
    while True:
        viewer = tokens[moves % 2] if moves % 3 else None
        game = call(client, game_query, viewer, id=game_id)
        assert game[twin(slug, "State")] == game["state"]
        if moves % 5 == 0 or game["status"] != "in_progress":
            checker.validate(game["state"], f"{base}View", f"{slug} state after {moves} moves")
        if game["status"] != "in_progress":
            break
        decision = game["decision"]
        checker.validate({"kind": decision["kind"], "data": decision["data"]}, f"{base}Decision", slug)
        waiting = [s for s in decision["seats"] if s not in decision["sealed"]]
        for seat in waiting:
            pending = call(client, CHOICES, tokens[seat], id=game_id)
            listed = {"kind": pending["decision"]["kind"], "choices": pending["choices"]}
            checker.validate(listed, f"{base}Choices", f"{slug} choices")
            choice = chooser.choice(pending["choices"])
            call(client, SUBMIT, tokens[seat], id=game_id, choice=choice, dv=pending["decisionVersion"])
            moves += 1
            if decision["simultaneous"] and seat != waiting[-1]:  # sealed, the others not yet
                sealed = call(client, game_query, tokens[seat], id=game_id)["decision"]
                assert sealed["yourSealedChoice"] == sealed[twin(slug, "YourSealedChoice")] == choice
                sealed_choices += 1
        assert moves < 20_000
    assert game["status"] == "finished"
    assert game[twin(slug, "Options")] == game["options"]
    checker.validate(game["options"], f"{base}Options", f"{slug} options")
    assert game["result"][twin(slug, "Details")] == game["result"]["details"]
    checker.validate(game["result"]["details"], f"{base}ResultDetails", f"{slug} result details")
    assert sealed_choices > 0 or slug != "im-schutze-der-burg"  # its picks are sealed
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
    replay = call(client, REPLAY % twin(slug, "State"), tokens[0], id=game_id, at=count // 2)
    assert replay[twin(slug, "State")] == replay["state"] is not None
    checker.validate(replay["state"], f"{base}View", f"{slug} replay")


def camel(slug: str) -> str:
    head, *rest = slug.split("-")
    return head + "".join(p.capitalize() for p in rest)


def twin(slug: str, suffix: str) -> str:
    """The typed twin of a ``JSON`` field in a game of ``slug``: ``carcassonneOptions``."""
    return camel(slug) + suffix
