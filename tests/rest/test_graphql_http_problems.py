"""Requests to /graphql that are not GraphQL requests get problem details with a code, like every
other refusal of the API (Strawberry's own answer is a text/plain sentence)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import app_with_test_game, make_settings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = app_with_test_game(make_settings(tmp_path))
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize(
    ("request_kwargs", "code"),
    [
        ({"content": b"{", "headers": {"content-type": "application/json"}}, "malformed_json"),
        ({"content": b"query", "headers": {"content-type": "text/plain"}}, "unsupported_content_type"),
        ({"json": {"variables": {}}}, "graphql_request_invalid"),
        ({"json": [{"query": "{ __typename }"}]}, "graphql_request_invalid"),
    ],
)
def test_a_post_that_is_no_graphql_request_gets_a_problem(
    client: TestClient, request_kwargs: dict[str, Any], code: str
) -> None:
    response = client.post("/graphql", **request_kwargs)
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == code and body["status"] == 400 and body["detail"]
    assert int(response.headers["content-length"]) == len(response.content)


def test_a_get_without_a_query_gets_a_problem_and_graphql_errors_stay_graphql(
    client: TestClient,
) -> None:
    refused = client.get("/graphql", headers={"accept": "application/json"})
    assert refused.status_code == 400 and refused.json()["code"] == "graphql_request_invalid"
    answered = client.post("/graphql", json={"query": "{ nope }"})
    assert answered.headers["content-type"].startswith("application/json")
    assert answered.json()["errors"][0]["extensions"]["code"] == "graphql_validation_failed"
