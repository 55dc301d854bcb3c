"""Error codes (issue 12 §4): one registry of every code the API answers, the README's table equal
to it, the same fault with the same code on every route and in both APIs, JSON in details, and the
422 ``errors`` member documented."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.problems.details import known, problem_codes

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_codes() -> dict[str, tuple[int, ...]]:
    rows = re.findall(r"^\s*\| `([a-z_]+)` \| ([0-9, ]+|GraphQL) \|", README.read_text(), re.M)
    table: dict[str, tuple[int, ...]] = {}
    for code, statuses in rows:
        assert code not in table, f"{code} is listed twice"
        table[code] = () if statuses == "GraphQL" else tuple(int(s) for s in statuses.split(","))
    return table


def test_the_readme_lists_every_code_the_api_can_answer_and_no_other() -> None:
    registered = {code: entry.statuses for code, entry in problem_codes().items()}
    assert readme_codes() == registered


def test_an_unregistered_code_is_never_sent() -> None:
    with pytest.raises(LookupError):
        known("http_error")


def gql(client: TestClient, query: str) -> dict[str, Any]:
    body: dict[str, Any] = client.post("/graphql", json={"query": query}).json()
    return body


def code_of(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def test_an_unknown_game_type_has_one_code_everywhere(client: TestClient) -> None:
    assert code_of(client.get("/v1/game-types/nope")) == (404, "unknown_game_type")
    assert code_of(client.get("/v1/games", params={"type": "nope"})) == (422, "unknown_game_type")
    assert code_of(client.post("/v1/games", json={"type": "nope"})) == (422, "unknown_game_type")
    detail = gql(client, '{ gameType(slug: "nope") { ... on Problem { code httpStatus } } }')
    assert detail["data"]["gameType"] == {"code": "unknown_game_type", "httpStatus": 404}
    created = gql(client, 'mutation { createGame(type: "nope") { ... on Problem { code httpStatus } } }')
    assert created["data"]["createGame"] == {"code": "unknown_game_type", "httpStatus": 422}
    listed = gql(client, '{ games(type: "nope") { ... on Problem { code httpStatus } } }')
    assert listed["data"]["games"] == {"code": "unknown_game_type", "httpStatus": 422}


def test_a_missing_game_has_one_code_everywhere(client: TestClient) -> None:
    for answer in (
        client.get("/v1/games/nope"),
        client.get("/v1/games/nope/choices"),
        client.get("/v1/games/nope/events"),
        client.post("/v1/games/nope/seats", json={"name": "Ann"}),
        client.post("/v1/games/nope/choices", json={"choice": {}}),
        client.post("/v1/games/nope/start"),
    ):
        assert code_of(answer) == (404, "game_not_found"), answer.request.url
    for query in (
        '{ game(id: "nope") { ... on Problem { code } } }',
        '{ choices(gameId: "nope") { ... on Problem { code } } }',
        'mutation { joinGame(gameId: "nope", name: "Ann") { ... on Problem { code } } }',
    ):
        data = gql(client, query)["data"]
        assert next(iter(data.values())) == {"code": "game_not_found"}, query


def test_a_bad_lobby_filter_has_one_code_in_both_apis(client: TestClient) -> None:
    assert code_of(client.get("/v1/games", params={"status": "playing"})) == (422, "invalid_request")
    listed = gql(client, '{ games(status: "playing") { ... on Problem { code } } }')
    assert listed["data"]["games"] == {"code": "invalid_request"}


def test_paging_arguments_out_of_range_are_refused_in_both_apis(client: TestClient) -> None:
    """GraphQL used to clamp a limit silently where REST refused it."""
    assert code_of(client.get("/v1/games", params={"limit": 0})) == (422, "invalid_request")
    listed = gql(client, "{ games(limit: 0) { ... on Problem { code httpStatus } } }")
    assert listed["data"]["games"] == {"code": "invalid_request", "httpStatus": 422}
    game = client.post("/v1/games", json={"type": "duel"}).json()
    assert code_of(client.get(f"/v1/games/{game['id']}/events", params={"limit": 5000})) == (
        422,
        "invalid_request",
    )
    query = '{ events(gameId: "ID", limit: 5000) { ... on Problem { code httpStatus } } }'
    events = gql(client, query.replace("ID", game["id"]))
    assert events["data"]["events"] == {"code": "invalid_request", "httpStatus": 422}
    mine = gql(client, "{ myGames(offset: -1) { ... on Problem { code } } }")
    assert mine["data"]["myGames"] == {"code": "invalid_request"}


def test_details_quote_values_as_json_not_python(client: TestClient) -> None:
    game = client.post("/v1/games", json={"type": "duel"}).json()
    tokens = [client.post(f"/v1/games/{game['id']}/seats", json={"name": n}).json()["token"] for n in "AB"]
    client.post(f"/v1/games/{game['id']}/start", headers={"Authorization": f"Bearer {game['host_token']}"})
    refused = client.post(
        f"/v1/games/{game['id']}/choices",
        json={"choice": {"card": 7, "note": None, "ok": True}},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    ).json()
    assert refused["code"] == "illegal_choice"
    assert '{"card": 7, "note": null, "ok": true}' in refused["detail"], refused["detail"]
    options = client.post("/v1/games", json={"type": "duel", "options": {"rounds": "two"}}).json()
    assert options["code"] == "invalid_options" and '"two"' in options["detail"]
    assert "'" not in options["detail"].replace("option 'rounds'", "")


def test_the_422_errors_member_is_in_the_problem_schema(client: TestClient) -> None:
    answer = client.post("/v1/games", json={"type": "duel", "private": "maybe"})
    assert answer.status_code == 422 and answer.json()["errors"][0]["loc"] == ["body", "private"]
    problem = client.get("/openapi.json").json()["components"]["schemas"]["Problem"]
    assert "errors" in problem["properties"]
