"""Export the OpenAPI and GraphQL schemas; a test fails when the committed copies drift."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api.app import create_app
from api.graphql_schema import schema
from api.settings import Settings

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
GRAPHQL_PATH = OPENAPI_PATH.with_name("schema.graphql")


def openapi_document() -> dict[str, Any]:
    document: dict[str, Any] = create_app(Settings()).openapi()
    return document


def openapi_text() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n"


def graphql_text() -> str:
    return schema.as_str() + "\n"


def export() -> list[Path]:
    OPENAPI_PATH.parent.mkdir(parents=True, exist_ok=True)
    OPENAPI_PATH.write_text(openapi_text())
    GRAPHQL_PATH.write_text(graphql_text())
    return [OPENAPI_PATH, GRAPHQL_PATH]
