"""Per-game response schemas in ``/openapi.json``: the game, its choices, a submit's answer, an
events page and a replay are each a ``oneOf`` of one schema per game, told apart by the game type
(``discriminator``), whose state, decision, choices and events are that game's own schemas.

A generator (openapi-ts, openapi-generator) turns them into a union a client narrows by checking
``type`` (or ``game_type``), after which every field of the game's data is typed: no
``{[key: string]: unknown}`` for game data. A submitted choice is any game's ``<Game>Choice``.
A game that publishes no schemas (a test game) has its member with the generic shapes.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from api.openapi.game_schemas import prefix
from domain.engine import GameMeta

REF = "#/components/schemas/"


def _ref(name: str, nullable: bool = False) -> dict[str, Any]:
    ref = {"$ref": REF + name}
    return {"anyOf": [ref, {"type": "null"}]} if nullable else ref


def _array(name: str) -> dict[str, Any]:
    return {"type": "array", "items": _ref(name)}


def _variant(
    schemas: dict[str, Any], base: str, slug: str, tag: str, fields: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """A copy of ``base`` for one game: its tag a constant, its game-data fields typed."""
    schema: dict[str, Any] = deepcopy(schemas[base])
    schema.pop("examples", None)
    schema["title"] = f"{prefix(slug)}{base}"
    properties = schema["properties"]
    properties[tag] = {"const": slug, "type": "string", "description": "The game type."}
    for name, typed in fields.items():
        description = properties[name].get("description")
        properties[name] = {**typed, **({"description": description} if description else {})}
    return schema


def _decision(schemas: dict[str, Any], name: str) -> dict[str, Any]:
    """``DecisionPublic`` of one game: one member per decision ``kind``, with its ``data``."""
    common = deepcopy(schemas["DecisionPublic"])
    sealed = common["properties"]["your_sealed_choice"]
    common["properties"]["your_sealed_choice"] = {
        **_ref(f"{name}Choice", nullable=True),
        "description": sealed.get("description", "")
        or "Your sealed choice of a simultaneous decision (null until you seal one).",
    }
    members = []
    for i, member in enumerate(schemas[f"{name}Decision"]["oneOf"]):
        data = f"{name}Decision/oneOf/{i}/properties/data"
        properties = {**common["properties"], "kind": member["properties"]["kind"], "data": _ref(data)}
        members.append({"type": "object", "properties": properties, "required": list(properties)})
    return {"title": f"{name}DecisionPublic", "description": "The decision, by `kind`.", "oneOf": members}


def _options(meta: GameMeta) -> dict[str, Any]:
    """A game's option values as a game answers them (every option, defaults filled in)."""
    kinds = {"bool": "boolean", "int": "integer", "enum": "string"}
    properties: dict[str, Any] = {}
    for option in meta.options:
        schema: dict[str, Any] = {"type": kinds[option.kind], "description": option.description}
        if option.allowed:
            schema["enum"] = list(option.allowed)
        properties[option.name] = schema
    return {
        "title": f"{prefix(meta.slug)}Options",
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _options_input(options: dict[str, Any]) -> dict[str, Any]:
    """The option values a host may send when creating a game: any of them (defaults fill the
    rest), each as in ``<Game>Options``."""
    schema = {key: value for key, value in deepcopy(options).items() if key != "required"}
    return {**schema, "title": f"{options['title']}Input"}


def _result_details(schemas: dict[str, Any], name: str) -> dict[str, Any]:
    """A game's end-of-game breakdown: the ``details`` of its ``game_over`` event (the match puts
    the same result in both), a component of its own so a GraphQL scalar can name it."""
    members = schemas[f"{name}Event"]["oneOf"]
    index = next(
        i for i, member in enumerate(members) if member["properties"]["type"].get("const") == "game_over"
    )
    details = f"{name}Event/oneOf/{index}/properties/data/properties/details"
    return {"title": f"{name}ResultDetails", "allOf": [_ref(details)]}


def _result(schemas: dict[str, Any], name: str) -> dict[str, Any]:
    """``ResultPublic`` of one game, its ``details`` typed as ``<Game>ResultDetails``."""
    schema: dict[str, Any] = deepcopy(schemas["ResultPublic"])
    schema.pop("examples", None)
    schema["title"] = f"{name}ResultPublic"
    schema["properties"]["details"] = {
        **_ref(f"{name}ResultDetails"),
        "description": "The end-of-game breakdown (as in the `game_over` event).",
    }
    return schema


def _typed_fields(name: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The game-data fields of each generic schema, typed by one game's schemas."""
    return {
        "GamePublic": {
            "options": _ref(f"{name}Options"),
            "state": _ref(f"{name}View", nullable=True),
            "decision": _ref(f"{name}DecisionPublic", nullable=True),
            "result": _ref(f"{name}ResultPublic", nullable=True),
        },
        "GameCreated": {"options": _ref(f"{name}Options")},
        "GameTypeDetail": {"data": _ref(f"{name}StaticData", nullable=True)},
        "ChoicesPublic": {
            "decision": _ref(f"{name}DecisionPublic", nullable=True),
            "choices": _array(f"{name}Choice"),
        },
        "EventsPage": {"events": _array(f"{name}Event")},
        "ReplayPublic": {
            "state": _ref(f"{name}View", nullable=True),
            "events": _array(f"{name}Event"),
        },
        "SubmitResultPublic": {
            "events": _array(f"{name}Event"),
            "next": _ref(f"{name}ChoicesPublic", nullable=True),
        },
    }


def _stream_member(event: dict[str, Any], slug: str, name: str, data: dict[str, Any]) -> dict[str, Any]:
    """One event of one game as a stream line: the event's fields, its game type and ``next``."""
    properties = {
        "seq": {"type": "integer", "minimum": 1},
        "type": event["properties"]["type"],
        "game_type": {"const": slug, "type": "string", "description": "The game type."},
        "data": data,
        "next": {
            **_ref(f"{name}ChoicesPublic", nullable=True),
            "description": "The seat's decision right after the event, or null.",
        },
    }
    return {"type": "object", "properties": properties, "required": list(properties)}


def _stream_event(schemas: dict[str, Any], games: list[GameMeta], typed: set[str]) -> dict[str, Any]:
    """The JSON of one server-sent game event's ``data`` (``GET /v1/games/{id}/stream``): one
    schema per game, told apart by ``game_type``; in each, one member per event ``type``."""
    mapping: dict[str, str] = {}
    for meta in games:
        slug, name = meta.slug, prefix(meta.slug)
        if slug in typed:
            members = [
                _stream_member(event, slug, name, _ref(f"{name}Event/oneOf/{i}/properties/data"))
                for i, event in enumerate(schemas[f"{name}Event"]["oneOf"])
            ]
            game = {"oneOf": members, "description": "An event of the game, by `type`."}
        else:
            generic = schemas["EventPublic"]
            game = _stream_member(generic, slug, name, generic["properties"]["data"])
        schemas[f"{name}StreamEvent"] = {"title": f"{name}StreamEvent", **game}
        mapping[slug] = REF + f"{name}StreamEvent"
    return {
        "title": "StreamEvent",
        "description": "`data` of a game's stream event: an event "
        "with `next` (the seat's decision after it), one schema per game type, told apart by "
        "`game_type`.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game_type", "mapping": mapping},
    }


TAGS = {"GamePublic": "type", "GameCreated": "type", "GameTypeDetail": "slug"}
"""The property naming the game type, by schema (``game_type`` when not listed)."""


def type_game_data(document: dict[str, Any], games: list[GameMeta], typed: set[str]) -> None:
    """Replace the generic game, choices, submit result, events page and replay by per-game
    unions; the data of the games in ``typed`` (those publishing schemas) typed, the others'
    left generic (a test game)."""
    schemas = document["components"]["schemas"]
    per_game: dict[str, dict[str, str]] = {}
    for meta in games:
        slug, name = meta.slug, prefix(meta.slug)
        fields = _typed_fields(name) if slug in typed else {}
        if slug in typed:
            schemas[f"{name}DecisionPublic"] = _decision(schemas, name)
            schemas[f"{name}Options"] = _options(meta)
            schemas[f"{name}OptionsInput"] = _options_input(schemas[f"{name}Options"])
            schemas[f"{name}ResultDetails"] = _result_details(schemas, name)
            schemas[f"{name}ResultPublic"] = _result(schemas, name)
        for base in _typed_fields(name):
            tag = TAGS.get(base, "game_type")
            schemas[f"{name}{base}"] = _variant(schemas, base, slug, tag, fields.get(base, {}))
            per_game.setdefault(base, {})[slug] = REF + f"{name}{base}"
    for base, mapping in per_game.items():
        generic = schemas[base]
        tag = TAGS.get(base, "game_type")
        schemas[base] = {
            "title": base,
            "description": generic.get("description", "")
            or f"One schema per game type, told apart by `{tag}`.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": tag, "mapping": mapping},
            **({"examples": generic["examples"]} if "examples" in generic else {}),
        }
    schemas["StreamEvent"] = _stream_event(schemas, games, typed)
    choice = schemas["ChoiceSubmit"]["properties"]["choice"]
    schemas["ChoiceSubmit"]["properties"]["choice"] = {
        "anyOf": [
            _ref(f"{prefix(meta.slug)}Choice") if meta.slug in typed else {"type": "object"} for meta in games
        ],
        "description": choice.get("description")
        or "One of the listed choices, posted back verbatim (`<Game>Choice` of the game's type).",
    }
