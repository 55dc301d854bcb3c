"""GraphQL against floods and leaks (issue 10 items 5 and 14): depth, alias, token and cost limits
refuse a document before any resolver runs; each top-level field is one request for the rate
limiter; every error carries ``extensions.code`` and an unexpected one never shows its text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import app_with_test_game, make_settings
from tests.support.graphql import fragment_chain, graphql_ws, operation


def graphql(client: TestClient, query: str, variables: dict[str, Any] | None = None, **kw: Any) -> Any:
    response = client.post("/graphql", json={"query": query, "variables": variables or {}}, **kw)
    assert response.status_code < 500, response.text
    return response


def only_error(response: Any) -> dict[str, Any]:
    body = response.json()
    assert body.get("data") is None, body
    (error,) = body["errors"]
    assert isinstance(error, dict)
    return error


def test_alias_amplification_is_refused_before_anything_runs(client: TestClient) -> None:
    query = "{ " + " ".join(f"a{n}: gameTypes {{ slug }}" for n in range(200)) + " }"
    error = only_error(graphql(client, query))
    assert error["extensions"]["code"] == "too_many_aliases"
    assert "200 aliases" in error["message"]


def test_a_document_with_too_many_tokens_is_refused(client: TestClient) -> None:
    query = "{ gameTypes { " + "slug " * 3000 + "} }"
    error = only_error(graphql(client, query))
    assert error["extensions"]["code"] == "too_many_tokens"


def test_a_too_deep_selection_is_refused(client: TestClient) -> None:
    nested = "seat"
    for name in "abcdefghijkl":
        nested = f"{name} {{ {nested} }}"
    query = f'{{ game(id: "x") {{ ... on Game {{ seats {{ {nested} }} }} }} }}'
    body = graphql(client, query).json()
    assert "query_too_deep" in [e["extensions"]["code"] for e in body["errors"]], body


def test_a_costly_operation_is_refused_and_its_cost_is_explained(client: TestClient) -> None:
    page = 'events(gameId: "x", limit: 1000) { ... on EventPage { events { seq type data } } }'
    query = "{ " + " ".join(f"p{n}: {page}" for n in range(5)) + " }"
    error = only_error(graphql(client, query))
    assert error["extensions"]["code"] == "query_too_costly"
    assert "at most 10000" in error["message"]


def test_normal_operations_pass_the_limits(client: TestClient) -> None:
    created = graphql(client, 'mutation { createGame(type: "duel") { ... on GameCreated { id } } }')
    game_id = created.json()["data"]["createGame"]["id"]
    query = """query($id: ID!) {
      game(id: $id) { ... on Game { id seats { seat name } decision { kind } } }
      events(gameId: $id, limit: 1000) { ... on EventPage { events { seq type data } lastSeq } }
      gameTypes { slug options { name default } }
    }"""
    body = graphql(client, query, {"id": game_id}).json()
    assert "errors" not in body, body
    assert body["data"]["game"]["id"] == game_id


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(tmp_path, rate_limit_per_second=0.01, rate_limit_burst=5)
    with TestClient(app_with_test_game(settings)) as client:
        yield client


def test_an_aliased_mutation_counts_as_that_many_requests(limited: TestClient) -> None:
    mutation = (
        "mutation { "
        + " ".join(f'g{n}: createGame(type: "duel") {{ ... on GameCreated {{ id }} }}' for n in range(10))
        + " }"
    )
    response = graphql(limited, mutation)
    assert response.status_code == 429
    error = only_error(response)
    assert error["extensions"]["code"] == "rate_limited"
    assert "counts as 10 requests" in error["message"]
    assert response.headers["retry-after"] and response.headers["ratelimit-limit"] == "5"
    games = graphql(limited, "{ games { ... on GamePage { items { id } } } }")
    assert games.status_code == 429 or games.json()["data"]["games"]["items"] == [], "no game may be created"


def test_a_few_top_level_fields_within_the_budget_are_fine(limited: TestClient) -> None:
    mutation = (
        "mutation { "
        + " ".join(f'g{n}: createGame(type: "duel") {{ ... on GameCreated {{ id }} }}' for n in range(3))
        + " }"
    )
    body = graphql(limited, mutation).json()
    assert "errors" not in body and len(body["data"]) == 3


def test_an_unexpected_failure_is_masked_with_a_code_and_a_request_id(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = client.app.state.container.lobby  # type: ignore[attr-defined]

    def broken(*_: object) -> None:
        raise RuntimeError("SELECT host_token_hash FROM games WHERE id = 'secret-parameter'")

    monkeypatch.setattr(lobby, "list_games", broken)
    response = graphql(
        client, "{ games { ... on GamePage { total } } }", headers={"X-Request-Id": "trace-me-1"}
    )
    (error,) = response.json()["errors"]
    assert error["message"] == "an unexpected error occurred; it has been logged"
    assert error["extensions"] == {
        "code": "internal_error",
        "detail": error["message"],
        "request_id": "trace-me-1",
    }
    assert "secret-parameter" not in response.text and "SELECT" not in response.text


@pytest.mark.parametrize(
    ("query", "variables", "headers", "code"),
    [
        ("{ nope }", {}, {}, "graphql_validation_failed"),
        ("{ games { ... on GamePage { total } }", {}, {}, "graphql_parse_failed"),
        (
            "query($n: Int!) { games(limit: $n) { ... on GamePage { total } } }",
            {"n": "x"},
            {},
            "graphql_validation_failed",
        ),
        ('{ choices(gameId: "x") { __typename } }', {}, {"Authorization": "Basic abc"}, "unauthorized"),
    ],
)
def test_every_graphql_error_carries_a_code(
    client: TestClient, query: str, variables: dict[str, Any], headers: dict[str, str], code: str
) -> None:
    body = graphql(client, query, variables, headers=headers).json()
    assert body["errors"], body
    assert [e["extensions"]["code"] for e in body["errors"]] == [code] * len(body["errors"])


@pytest.mark.parametrize("fragments", [21, 30])
def test_a_fragment_bomb_is_refused_as_too_costly_over_http_and_the_websocket(
    client: TestClient, fragments: int
) -> None:
    document = fragment_chain(fragments)
    error = only_error(graphql(client, document))
    assert error["extensions"]["code"] == "query_too_costly"
    assert f"{2 * 2**fragments} fields" in error["message"]
    with graphql_ws(client) as socket:
        (answer,) = operation(socket, "bomb", document)
    assert answer["type"] == "error"
    assert [e["extensions"]["code"] for e in answer["payload"]] == ["query_too_costly"]


def test_a_document_past_the_deadline_is_stopped_over_http_and_the_websocket(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, graphql_deadline_seconds=1e-9)
    with TestClient(app_with_test_game(settings)) as hurried:
        error = only_error(graphql(hurried, "{ games { ... on GamePage { total } } }"))
        assert error["extensions"]["code"] == "graphql_deadline_exceeded"
        with graphql_ws(hurried) as socket:
            messages = operation(socket, "late", "{ games { ... on GamePage { total } } }")
    codes = [e["extensions"]["code"] for m in messages for e in (m.get("payload") or {}).get("errors", [])]
    assert codes == ["graphql_deadline_exceeded"], messages
