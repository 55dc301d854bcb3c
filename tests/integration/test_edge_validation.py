"""Input PostgreSQL (or SQLite) cannot store is refused at the edge, the same way on both databases
(issue 10 item 13): no client input may produce a 5xx, over REST or GraphQL."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import app_with_test_game, make_settings
from tests.support.databases import BACKENDS, postgres_database


@pytest.fixture(scope="module", params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app and database per backend for the module: every test sends inputs that must be
    refused, and nothing of one test (a game of its own, refused writes) meets another's."""
    tmp_path = tmp_path_factory.mktemp("edge")
    if request.param == "postgresql":
        with postgres_database("tabletop_edge") as url:
            settings = make_settings(tmp_path, database_url=url.render_as_string(hide_password=False))
            with TestClient(app_with_test_game(settings), raise_server_exceptions=False) as test_client:
                yield test_client
    else:
        app = app_with_test_game(make_settings(tmp_path))
        with TestClient(app, raise_server_exceptions=False) as test_client:
            yield test_client


@pytest.fixture
def game(client: TestClient) -> tuple[str, str]:
    created = client.post("/v1/games", json={"type": "duel"}).json()
    seats = [client.post(f"/v1/games/{created['id']}/seats", json={"name": n}).json() for n in "ab"]
    host = {"Authorization": f"Bearer {created['host_token']}"}
    client.post(f"/v1/games/{created['id']}/start", headers=host)
    return created["id"], seats[0]["token"]


def raw_json(client: TestClient, path: str, body: str, **headers: str) -> Any:
    return client.post(path, content=body.encode(), headers={"content-type": "application/json", **headers})


def test_rest_inputs_the_database_cannot_hold_are_refused_with_4xx(
    client: TestClient, game: tuple[str, str]
) -> None:
    game_id, token = game
    seat = {"Authorization": f"Bearer {token}"}
    player_token = client.post("/v1/players", json={"name": "Ann"}).json()["token"]
    player = {"Authorization": f"Bearer {player_token}"}
    answers = {
        "long seed": client.post("/v1/games", json={"type": "duel", "seed": "s" * 200}),
        "seed with NUL": client.post("/v1/games", json={"type": "duel", "seed": "a\x00b"}),
        "lone surrogate seed": raw_json(client, "/v1/games", '{"type": "duel", "seed": "\\ud800"}'),
        "lone surrogate type": raw_json(client, "/v1/games", '{"type": "\\udfff"}'),
        "lone surrogate option name": raw_json(
            client, "/v1/games", '{"type": "duel", "options": {"\\ud800": 1}}'
        ),
        "my games offset 2^63": client.get("/v1/players/me/games", params={"offset": 2**63}, headers=player),
        "lone surrogate name": raw_json(client, f"/v1/games/{game_id}/seats", '{"name": "\\ud800x"}'),
        "NUL in name": client.post(f"/v1/games/{game_id}/seats", json={"name": "a\x00"}),
        "after 2^31": client.get(f"/v1/games/{game_id}/events", params={"after": 2**31}),
        "limit 2^31": client.get("/v1/games", params={"limit": 2**31}),
        "limit 2^63": client.get("/v1/games", params={"limit": 2**63}),
        "long cursor": client.get("/v1/games", params={"cursor": "c" * 600}),
        "forged cursor": client.get("/v1/games", params={"cursor": "WyJ4IiwgMV0"}),
        "cursor with NUL": client.get("/v1/games", params={"cursor": NUL_CURSOR}),
        "NUL in id": client.get("/v1/games/ab%00cd"),
        "NUL in id, events": client.get("/v1/games/ab%00cd/events"),
        "lone surrogate in id": client.get("/v1/games/%ED%A0%80"),
        "long id": client.get("/v1/games/" + "a" * 300),
        "long idempotency key": client.post(
            f"/v1/games/{game_id}/choices",
            json={"choice": {"card": 1}},
            headers={**seat, "Idempotency-Key": "k" * 300},
        ),
        "deep choice": raw_json(
            client, f"/v1/games/{game_id}/choices", '{"choice": ' + "[" * 900 + "]" * 900 + "}", **seat
        ),
        "too deep JSON": raw_json(client, "/v1/games", '{"options": ' + "[" * 20000 + "]" * 20000 + "}"),
    }
    failed = {n: (r.status_code, r.text[:200]) for n, r in answers.items() if not 400 <= r.status_code < 500}
    assert not failed, failed


def graphql(client: TestClient, query: str, variables: dict[str, Any], **headers: str) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    assert response.status_code < 500, response.text
    body: dict[str, Any] = response.json()
    return body


NUL_CURSOR = base64.urlsafe_b64encode(b'["2026-01-01T00:00:00+00:00", "a\\u0000b"]').decode()


def test_graphql_inputs_the_database_cannot_hold_get_a_problem_or_a_coded_error(
    client: TestClient, game: tuple[str, str]
) -> None:
    game_id, token = game
    seat = {"Authorization": f"Bearer {token}"}
    submit = """mutation($g: ID!, $c: JSON!, $k: String) {
      submitChoice(gameId: $g, choice: $c, idempotencyKey: $k) { ... on Problem { code } } }"""
    create = 'mutation($s: String) { createGame(type: "duel", seed: $s) { ... on Problem { code } } }'
    read = "query($g: ID!) { game(id: $g) { ... on Problem { code } } }"
    events = "query($g: ID!, $a: Int!) { events(gameId: $g, after: $a) { ... on Problem { code } } }"
    answers = {
        "long idempotency key": graphql(
            client, submit, {"g": game_id, "c": {"card": 1}, "k": "k" * 300}, **seat
        ),
        "NUL idempotency key": graphql(client, submit, {"g": game_id, "c": {"card": 1}, "k": "\x00"}, **seat),
        "long seed": graphql(client, create, {"s": "s" * 200}),
        "NUL seed": graphql(client, create, {"s": "\x00"}),
        "NUL in id": graphql(client, read, {"g": "ab\x00cd"}),
        "long id": graphql(client, read, {"g": "a" * 300}),
        "after 2^31": graphql(client, events, {"g": game_id, "a": 2**31}),
        "cursor with NUL": graphql(
            client, "query($c: String) { games(cursor: $c) { ... on Problem { code } } }", {"c": NUL_CURSOR}
        ),
    }
    body = json.dumps({"query": submit, "variables": {"g": game_id, "c": "DEEP", "k": None}})
    deep = client.post(
        "/graphql",
        content=body.replace('"DEEP"', "[" * 20000 + "]" * 20000).encode(),
        headers={"content-type": "application/json", **seat},
    )
    assert 400 <= deep.status_code < 500, deep.text[:300]
    for name, answer in answers.items():
        codes = [e["extensions"]["code"] for e in answer.get("errors") or []]
        assert "internal_error" not in codes, (name, answer)
        if not codes:
            (result,) = answer["data"].values()
            assert result and result["code"] in ("invalid_request", "game_not_found"), (name, answer)


def _cursor(raw: str | bytes) -> str:
    data = raw.encode() if isinstance(raw, str) else raw
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


FORGED_CURSORS = {
    "offset 1e400": _cursor('[1.0, "bot:random", 1e400]'),
    "rating 1e400": _cursor('[1e400, "bot:random", 1]'),
    "rating NaN": _cursor('[NaN, "bot:random", 1]'),
    "lone surrogate": _cursor('[1.0, "\\ud800", 1]'),
    "NUL": _cursor('[1.0, "a\\u0000b", 1]'),
    "offset 2^63": _cursor(f'[1.0, "bot:random", {2**63}]'),
    "negative offset": _cursor('[1.0, "bot:random", -1]'),
    "offset true": _cursor('[1.0, "bot:random", true]'),
    "offset 1.5": _cursor('[1.0, "bot:random", 1.5]'),
    "subject a number": _cursor("[1.0, 7, 1]"),
    "long subject": _cursor(json.dumps([1.0, "p" * 500, 1])),
    "four items": _cursor('[1.0, "bot:random", 1, 2]'),
    "an object": _cursor('{"a": 1}'),
    "not UTF-8": _cursor(b"\xff\xfe[1.0]"),
    "not base64": "@@@",
}


@pytest.mark.parametrize("forged", FORGED_CURSORS.values(), ids=FORGED_CURSORS.keys())
def test_forged_leaderboard_cursors_are_refused_with_4xx(client: TestClient, forged: str) -> None:
    """Issue 31 item 6: a cursor is only ever one this service returned; anything else is a 422,
    over REST and GraphQL, never a 500 (nor a reset connection)."""
    answer = client.get("/v1/leaderboards/duel", params={"cursor": forged})
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_request", answer.text
    query = """query($c: String) { leaderboard(gameType: "duel", cursor: $c) {
        __typename ... on Problem { code } } }"""
    graphql = client.post("/graphql", json={"query": query, "variables": {"c": forged}})
    assert graphql.status_code == 200, graphql.text
    assert graphql.json()["data"]["leaderboard"] == {"__typename": "Problem", "code": "invalid_request"}
    assert client.get("/v1/leaderboards/duel").status_code == 200  # the service goes on
