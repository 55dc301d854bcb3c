"""Every response header the API sets is declared in OpenAPI for that operation and status, and
every header declared as required is really sent: the rate-limit headers, ``Retry-After`` on 429,
``ETag`` (and 304) on readable resources, ``Location`` on 201, ``Allow`` on 405, the request id."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.entrypoints.export import openapi_document
from tests.support.client import app_with_test_game, make_settings
from tests.support.http import auth

API_HEADERS = {
    "x-request-id",
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "ratelimit-policy",
    "retry-after",
    "location",
    "etag",
    "cache-control",
    "vary",
    "content-language",
    "allow",
}
"""Headers the API itself sets (not the transport's: content-type, content-length, ...)."""


@pytest.fixture
def tight_client(tmp_path: Path) -> Iterator[TestClient]:
    """Rate limiting as deployed (a small budget, so a 429 is reachable), private webhooks allowed."""
    settings = make_settings(
        tmp_path, rate_limit_per_second=5.0, rate_limit_burst=60, webhook_allow_private_targets=True
    )
    with TestClient(app_with_test_game(settings)) as client:
        yield client


class Survey:
    """The API headers of every response, by operation and status."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), item)
            for path, item in document["paths"].items()
        ]
        self.seen: list[tuple[str, str, str, set[str]]] = []

    def __call__(self, response: httpx.Response) -> None:
        request = response.request
        method = request.method.lower()
        for pattern, item in self.routes:
            if pattern.match(request.url.path):
                operation = item.get(method)
                key = operation["operationId"] if operation else f"405 {request.url.path}"
                names = {n.lower() for n in response.headers} & API_HEADERS
                self.seen.append((key, method, str(response.status_code), names))
                return


def exercise(client: TestClient) -> None:
    """Every kind of answer: 200, 201, 304, 4xx problems, 405, 429."""
    created = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}}).json()
    game = created["id"]
    tokens = [
        client.post(f"/v1/games/{game}/seats", json={"name": f"p{i}"}).json()["token"] for i in range(2)
    ]
    client.post(f"/v1/games/{game}/start", headers=auth(created["host_token"]))
    read = client.get(f"/v1/games/{game}", headers=auth(tokens[0]))
    client.get(f"/v1/games/{game}", headers={**auth(tokens[0]), "If-None-Match": read.headers["etag"]})
    choices = client.get(f"/v1/games/{game}/choices", headers=auth(tokens[0]))
    client.get(
        f"/v1/games/{game}/choices", headers={**auth(tokens[0]), "If-None-Match": choices.headers["etag"]}
    )
    typed = client.get("/v1/game-types/keythedral", params={"lang": "de"})
    client.get(
        "/v1/game-types/keythedral", params={"lang": "de"}, headers={"If-None-Match": typed.headers["etag"]}
    )
    client.get("/v1/game-types")
    client.get("/v1/games")
    client.get(f"/v1/games/{game}/events", params={"after": 0})
    client.get("/v1/games/nope")
    client.post(f"/v1/games/{game}/choices", json={"choice": {"card": 99}}, headers=auth(tokens[0]))
    client.post("/v1/games", json={"type": 3})
    player = client.post("/v1/players", json={"name": "Ann"}).json()
    client.post(
        "/v1/webhooks",
        headers=auth(player["token"]),
        json={"url": "http://127.0.0.1:9/hook", "filters": ["your_turn"]},
    )
    client.get("/v1/webhooks", headers=auth(player["token"]))
    client.delete("/v1/game-types")
    client.get("/healthz")
    for _ in range(200):
        if client.get("/v1/game-types").status_code == 429:
            break


def test_every_api_header_of_a_real_response_is_declared_and_every_required_one_sent(
    tight_client: TestClient,
) -> None:
    document = openapi_document()
    survey = Survey(document)
    tight_client.event_hooks["response"].append(survey)
    exercise(tight_client)
    operations = {op["operationId"]: op for item in document["paths"].values() for op in item.values()}
    statuses = {(key, status) for key, _, status, _ in survey.seen}
    for wanted in [
        ("createGame", "201"),
        ("getGame", "304"),
        ("getChoices", "304"),
        ("getGameType", "304"),
        ("listGameTypes", "429"),
        ("getGame", "404"),
        ("submitChoice", "422"),
        ("createWebhook", "201"),
        ("healthz", "200"),
    ]:
        assert wanted in statuses, f"never answered {wanted}"
    method_not_allowed = document["components"]["responses"]["MethodNotAllowed"]
    for key, _, status, names in survey.seen:
        if key.startswith("405"):
            declared = {n.lower(): h for n, h in method_not_allowed["headers"].items()}
            assert status == "405"
        else:
            response = operations[key]["responses"].get(status)
            assert response is not None, f"{key} answered {status}, not declared"
            declared = {n.lower(): h for n, h in response.get("headers", {}).items()}
        undeclared = names - set(declared)
        assert not undeclared, f"{key} {status} sends undeclared {sorted(undeclared)}"
        missing = {n for n, h in declared.items() if h.get("required") and n not in names}
        assert not missing, f"{key} {status} lacks required {sorted(missing)}"
    assert any(key.startswith("405") for key, *_ in survey.seen)
