"""The committed OpenAPI and GraphQL schemas match the code (run `./run export-schemas` to update)."""

from __future__ import annotations

import json

from api.entrypoints.export import GRAPHQL_PATH, OPENAPI_PATH, graphql_text, openapi_document, openapi_text


def test_openapi_json_is_in_sync_with_the_code() -> None:
    assert OPENAPI_PATH.read_text() == openapi_text(), "run ./run export-schemas"


def test_graphql_schema_is_in_sync_with_the_code() -> None:
    assert GRAPHQL_PATH.read_text() == graphql_text(), "run ./run export-schemas"


def test_operation_ids_are_stable_and_readable() -> None:
    document = openapi_document()
    ids = {
        op["operationId"]
        for path in document["paths"].values()
        for op in path.values()
        if isinstance(op, dict) and "operationId" in op
    }
    expected = {
        "listGameTypes",
        "getGameType",
        "createGame",
        "listGames",
        "getGame",
        "joinGame",
        "startGame",
        "abortGame",
        "getChoices",
        "submitChoice",
        "listEvents",
        "healthz",
        "readyz",
        "metrics",
    }
    assert expected <= ids
    assert json.loads(openapi_text())["info"]["title"] == "Tabletop"
