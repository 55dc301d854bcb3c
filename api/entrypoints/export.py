"""Export the OpenAPI and GraphQL schemas, and the guide into the README; a test fails when the
committed copies drift."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from api.app import create_app
from api.graphql.schema import schema
from api.openapi import game_schemas
from api.pages.docs import readme_with_guide
from api.settings import Settings
from domain.games.carcassonne import state as carcassonne_state
from domain.games.carcassonne import tiles as carcassonne_tiles
from domain.games.im_schutze_der_burg import state as isdb_state
from domain.registry import default_registry

EXTRA_VOCABULARY: dict[str, list[list[str]]] = {
    "carcassonne": [
        [
            carcassonne_state.START,
            carcassonne_state.PLACE,
            carcassonne_state.FIGURE,
            carcassonne_state.WAGON_MOVE,
            carcassonne_state.END_ABBEY,
            carcassonne_state.OVER,
        ],
        list(carcassonne_tiles.SIDE_NAMES),
        list(carcassonne_tiles.PORT_NAMES),
        list(carcassonne_tiles.CORNER_NAMES),
    ],
    "im-schutze-der-burg": [
        [
            isdb_state.ROUND_START,
            isdb_state.PICK,
            isdb_state.FIREWOOD,
            isdb_state.DAMSEL,
            isdb_state.REVEAL,
            isdb_state.EQUIP,
            isdb_state.RESOLVE,
            isdb_state.OVER,
        ],
    ],
}
"""Vocabularies the static data does not list as ids (phases, sides): string fields whose values
all belong to one become enums of the whole vocabulary."""

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
GRAPHQL_PATH = OPENAPI_PATH.with_name("schema.graphql")
README_PATH = OPENAPI_PATH.parent.parent / "README.md"


def openapi_document() -> dict[str, Any]:
    document: dict[str, Any] = create_app(Settings()).openapi()
    return document


def openapi_text() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n"


def graphql_text() -> str:
    return schema.as_str() + "\n"


def export() -> list[Path]:
    """Draft every game's JSON Schemas from random games, then write the OpenAPI and GraphQL
    documents (which include those schemas)."""
    written = game_schemas.export(default_registry(), EXTRA_VOCABULARY)
    OPENAPI_PATH.parent.mkdir(parents=True, exist_ok=True)
    OPENAPI_PATH.write_text(openapi_text())
    GRAPHQL_PATH.write_text(graphql_text())
    README_PATH.write_text(readme_with_guide(README_PATH.read_text(encoding="utf-8")), encoding="utf-8")
    return [*written, OPENAPI_PATH, GRAPHQL_PATH, README_PATH]
