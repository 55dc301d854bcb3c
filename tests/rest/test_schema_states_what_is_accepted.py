"""The OpenAPI schema states what the server accepts (issue 19 item 12): a client generated from
it sends nothing the server then refuses for a rule the schema did not say."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from domain.names import MAX_NAME_LENGTH
from domain.webhook_model import FILTERS


def parameter(spec: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any]:
    return next(
        p for p in spec["paths"][path][method]["parameters"] if p["name"].lower() == name.lower()
    )


def test_cursor_filters_and_names_are_stated_as_the_server_checks_them(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    cursor = parameter(spec, "/v1/games", "get", "cursor")["schema"]["anyOf"][0]
    for _ in range(3):
        client.post("/v1/games", json={"type": "duel"})
    issued = client.get("/v1/games", params={"limit": 1}).json()["next_cursor"]
    assert re.fullmatch(cursor["pattern"], issued)
    assert client.get("/v1/games", params={"limit": 1, "cursor": issued}).status_code == 200
    assert client.get("/v1/games", params={"cursor": "not a cursor!"}).status_code == 422

    schemas = spec["components"]["schemas"]
    assert schemas["WebhookCreate"]["properties"]["filters"]["items"]["enum"] == list(FILTERS)
    name = schemas["SeatCreate"]["properties"]["name"]
    assert name["anyOf"][0]["maxLength"] == MAX_NAME_LENGTH and "control" in name["description"]
