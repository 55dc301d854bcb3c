"""The published documents as the tests hold answers to them: every response against the OpenAPI
document in strict mode, and each game's parts (view, decision, choices, events, static data)
against the game's own JSON Schemas."""

from __future__ import annotations

import json
import re
from copy import deepcopy
from functools import cache
from typing import Any

import httpx
import jsonschema_rs
from jsonschema import Draft202012Validator

from api.openapi.game_schemas import components, prefix
from domain.registry import default_registry

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("keythedral", 2, {}),
    ("carcassonne", 2, {}),
    ("im-schutze-der-burg", 2, {}),
]
"""One whole game of each hosted type (slug, players, options), for the strict-schema tests."""


def closed(node: Any) -> Any:
    """Every object schema that lists its properties allows no other (strict mode)."""
    if isinstance(node, dict):
        out = {key: closed(value) for key, value in node.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [closed(value) for value in node]
    return node


class StrictChecker:
    """Validates each response against the schema its operation declares for its status."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.components = closed(deepcopy(document["components"]))
        self.routes: list[tuple[re.Pattern[str], dict[str, Any]]] = []
        for path, item in document["paths"].items():
            pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
            self.routes.append((pattern, item))
        self.validators: dict[str, jsonschema_rs.Draft202012Validator] = {}
        self.checked: dict[str, int] = {}
        self.game_type = ""

    def validate(self, instance: Any, ref: str | dict[str, Any], where: str) -> None:
        schema = {"$ref": ref} if isinstance(ref, str) else ref
        schema = self._member(schema, instance)
        key = json.dumps(schema, sort_keys=True)
        if key not in self.validators:
            # the Rust validator: the pure-Python one took minutes per whole game
            self.validators[key] = jsonschema_rs.Draft202012Validator(
                {**schema, "components": self.components}
            )
        validator = self.validators[key]
        if validator.is_valid(instance):
            return
        error = min(validator.iter_errors(instance), key=lambda e: len(e.instance_path))
        raise AssertionError(f"{where}: {error.message[:300]} at {list(error.instance_path)}")

    def _member(self, schema: dict[str, Any], instance: Any) -> dict[str, Any]:
        """For a union by game type (``discriminator``): the member the instance names, as a
        generated client picks it (``oneOf`` would also validate it against every other game's
        schemas, only to fail, at great cost; the member's constant type still must match)."""
        ref = schema.get("$ref", "")
        union = self.components["schemas"].get(ref.removeprefix("#/components/schemas/"), {})
        discriminator = union.get("discriminator")
        if discriminator is None or not isinstance(instance, dict):
            return schema
        mapped = discriminator["mapping"].get(instance.get(discriminator["propertyName"]))
        return {"$ref": mapped} if mapped is not None else schema

    def __call__(self, response: httpx.Response) -> None:
        response.read()
        request = response.request
        path = request.url.path
        operation = next(
            (
                item[request.method.lower()]
                for pattern, item in self.routes
                if pattern.match(path) and request.method.lower() in item
            ),
            None,
        )
        assert operation is not None, f"{request.method} {path} is not in the OpenAPI document"
        declared = operation["responses"].get(str(response.status_code))
        where = f"{operation['operationId']} {response.status_code}"
        assert declared is not None, f"{where}: status not declared"
        if response.status_code == 304:
            return
        media = response.headers["content-type"].split(";")[0]
        schema = declared["content"][media]["schema"]
        body = response.json()
        self.validate(body, closed(schema), where)
        self.checked[operation["operationId"]] = self.checked.get(operation["operationId"], 0) + 1
        self._game_parts(body, where)

    def _game_parts(self, body: Any, where: str) -> None:
        """The per-game shapes inside the envelope (``state``, ``decision``, ``choices``, events)."""
        if not isinstance(body, dict) or not self.game_type:
            return
        name = prefix(self.game_type)
        base = "#/components/schemas/"
        if isinstance(body.get("state"), dict):
            self.validate(body["state"], f"{base}{name}View", f"{where} state")
        decision = body.get("decision")
        if isinstance(decision, dict) and "data" in decision:
            shaped = {"kind": decision["kind"], "data": decision["data"]}
            self.validate(shaped, f"{base}{name}Decision", f"{where} decision")
            if "choices" in body:
                listed = {"kind": decision["kind"], "choices": body["choices"]}
                self.validate(listed, f"{base}{name}Choices", f"{where} choices")
        for event in body.get("events", ()) if isinstance(body.get("events"), list) else ():
            self.validate(event, f"{base}{name}Event", f"{where} event {event.get('type')}")


def game_part_schema(slug: str, part: str) -> dict[str, Any]:
    """The published schema of one part (``View``, ``Decision``, ``Event``, ...) of a game."""
    return {
        "$ref": f"#/components/schemas/{prefix(slug)}{part}",
        "components": {"schemas": components(default_registry())},
    }


@cache
def game_part_validator(slug: str, part: str) -> Draft202012Validator:
    """The reference validator of a game's part (it explains a failure best)."""
    Draft202012Validator.check_schema(game_part_schema(slug, part))
    return Draft202012Validator(game_part_schema(slug, part))


@cache
def fast_game_part_validator(slug: str, part: str) -> Any:
    """The same schema compiled by jsonschema-rs: about 70 times faster on these views, so random
    games can be checked in full."""
    return jsonschema_rs.validator_for(game_part_schema(slug, part))
