"""Exact nullability, the same in both APIs: a field is nullable in the GraphQL SDL exactly when
its REST twin in the published OpenAPI document allows null (every REST response field is
required; ``test_strict_responses`` checks real answers against that). A schema answered per
game type (``GamePublic``, ``DecisionPublic``, ``ResultPublic``…) is checked in each game's
form, the one clients receive."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.entrypoints.export import openapi_document
from api.openapi.game_schemas import prefix
from domain.registry import default_registry
from tests.support.graphql import PAIRS, camel, graphql_types

MORE_PAIRS = [
    ("EventPublic", "Event"),
    ("EventsPage", "EventPage"),
    ("GameSummaryPublic", "GameSummary"),
    ("GamePagePublic", "GamePage"),
    ("ClockPublic", "GameClock"),
    ("SeatClockPublic", "SeatClock"),
    ("ResultPublic", "GameResult"),
    ("WebhookPublic", "Webhook"),
    ("WebhookCreated", "Webhook"),
    ("WebhookDeliveryPublic", "WebhookDelivery"),
    ("WebhookAttemptPublic", "WebhookAttempt"),
    ("SeatSummaryPublic", "SeatSummary"),
    ("PlayerCreatedPublic", "PlayerCreated"),
    ("BotLevelPublic", "BotLevel"),
]
SHARED = {("WebhookCreated", "secret")}
"""GraphQL's ``Webhook`` serves both the creation (secret shown once) and the listing (null)."""


def allows_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(allows_null(member) for member in schema.get("anyOf", ()))


def objects(schemas: dict[str, Any], schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The object schemas a schema stands for (a union's members, ``$ref``s followed)."""
    if "$ref" in schema:
        return objects(schemas, schemas[schema["$ref"].removeprefix("#/components/schemas/")])
    if "properties" in schema:
        return [schema]
    return [found for member in schema.get("oneOf", ()) for found in objects(schemas, member)]


def answered(schemas: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The forms of a REST schema in answers: each game's own when every game has one."""
    per_game = [f"{prefix(slug)}{name}" for slug in sorted(default_registry().catalogs())]
    if all(game in schemas for game in per_game):
        return [found for game in per_game for found in objects(schemas, schemas[game])]
    return objects(schemas, schemas[name])


def test_graphql_fields_are_nullable_exactly_when_rest_allows_null(client: TestClient) -> None:
    schemas = openapi_document()["components"]["schemas"]
    types = graphql_types(client)
    pairs = [(model.__name__, name) for model, name in PAIRS] + MORE_PAIRS
    compared = 0
    for rest_name, graphql_name in pairs:
        for form in answered(schemas, rest_name):
            for field, schema in form["properties"].items():
                twin = types[graphql_name].get(camel(field))
                if twin is None or (rest_name, field) in SHARED:
                    continue
                graphql_nullable = twin["type"]["kind"] != "NON_NULL"
                assert graphql_nullable == allows_null(schema), (
                    f"{graphql_name}.{camel(field)} nullable={graphql_nullable}, "
                    f"{rest_name}.{field} allows null={allows_null(schema)}"
                )
                assert field in form["required"], f"{rest_name}.{field} not required"
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("name", ["GameCreated", "GamePublic", "SeatPublic", "DecisionPublic"])
def test_always_present_fields_are_required_and_typed_without_null(name: str) -> None:
    forms = answered(openapi_document()["components"]["schemas"], name)
    assert forms
    for schema in forms:
        assert set(schema["required"]) == set(schema["properties"])
        if name == "GameCreated":
            assert not allows_null(schema["properties"]["host_token"])
