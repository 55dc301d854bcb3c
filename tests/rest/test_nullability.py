"""Exact nullability, the same in both APIs: a field is nullable in the GraphQL SDL exactly when
its REST twin in the published OpenAPI document allows null (every REST response field is
required; ``test_strict_responses`` checks real answers against that)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.export import openapi_document
from tests.rest.test_graphql_contract import PAIRS, camel, graphql_types

MORE_PAIRS = [
    ("EventPublic", "Event"), ("EventsPage", "EventPage"), ("GameSummaryPublic", "GameSummary"),
    ("GamePagePublic", "GamePage"), ("ClockPublic", "GameClock"), ("SeatClockPublic", "SeatClock"),
    ("ResultPublic", "GameResult"), ("WebhookPublic", "Webhook"), ("WebhookCreated", "Webhook"),
    ("WebhookDeliveryPublic", "WebhookDelivery"), ("WebhookAttemptPublic", "WebhookAttempt"),
    ("SeatSummaryPublic", "SeatSummary"), ("PlayerCreatedPublic", "PlayerCreated"),
    ("BotLevelPublic", "BotLevel"),
]
SHARED = {("WebhookCreated", "secret")}
"""GraphQL's ``Webhook`` serves both the creation (secret shown once) and the listing (null)."""


def allows_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(allows_null(member) for member in schema.get("anyOf", ()))


def test_graphql_fields_are_nullable_exactly_when_rest_allows_null(client: TestClient) -> None:
    schemas = openapi_document()["components"]["schemas"]
    types = graphql_types(client)
    pairs = [(model.__name__, name) for model, name in PAIRS] + MORE_PAIRS
    compared = 0
    for rest_name, graphql_name in pairs:
        for field, schema in schemas[rest_name]["properties"].items():
            twin = types[graphql_name].get(camel(field))
            if twin is None or (rest_name, field) in SHARED:
                continue
            graphql_nullable = twin["type"]["kind"] != "NON_NULL"
            assert graphql_nullable == allows_null(schema), (
                f"{graphql_name}.{camel(field)} nullable={graphql_nullable}, "
                f"{rest_name}.{field} allows null={allows_null(schema)}"
            )
            assert field in schemas[rest_name]["required"], f"{rest_name}.{field} not required"
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("name", ["GameCreated", "GamePublic", "SeatPublic", "DecisionPublic"])
def test_always_present_fields_are_required_and_typed_without_null(name: str) -> None:
    schema = openapi_document()["components"]["schemas"][name]
    assert set(schema["required"]) == set(schema["properties"])
    if name == "GameCreated":
        assert not allows_null(schema["properties"]["host_token"])
