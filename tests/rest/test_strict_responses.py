"""Whole games of every hosted type, over REST, with every response validated against the
published OpenAPI document in strict mode: no field the schema does not know, none missing that
it requires, no null where it says a value. Each game's state, decision, choices and events are
checked against their per-game component schemas too. A generated client is then exact."""

from __future__ import annotations

import json
import re
from copy import deepcopy
from typing import Any

import httpx
import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from api.entrypoints.export import openapi_document
from api.openapi.game_schemas import prefix
from tests.e2e.play import play_over_rest

GAMES = [("keythedral", 2, {}), ("carcassonne", 2, {}), ("im-schutze-der-burg", 2, {})]


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


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("slug", "players", "options"), GAMES)
def test_every_response_of_a_whole_game_matches_the_published_schemas_strictly(
    client: TestClient, document: dict[str, Any], slug: str, players: int, options: dict[str, Any]
) -> None:
    checker = StrictChecker(document)
    checker.game_type = slug
    client.event_hooks["response"].append(checker)
    played = play_over_rest(client, slug, players, options, seed=f"strict-{slug}", watch_every=25)
    client.get(f"/v1/games/{played.game_id}/replay")
    client.get(f"/v1/game-types/{slug}")
    client.get("/v1/game-types")
    client.get("/v1/games", params={"type": slug})
    assert played.final["status"] == "finished"
    for operation in (
        "createGame",
        "joinGame",
        "startGame",
        "getGame",
        "getChoices",
        "submitChoice",
        "listEvents",
        "getGameType",
    ):
        assert checker.checked.get(operation), f"{operation} was never answered"


def test_the_strict_check_refuses_an_unknown_field_and_a_missing_one(document: dict[str, Any]) -> None:
    """The check is not vacuous: a response with a field too many, or one too few, fails."""
    checker = StrictChecker(document)
    example = document["components"]["schemas"]["GameCreated"]["examples"][0]
    checker.validate(example, "#/components/schemas/GameCreated", "example")
    with pytest.raises(AssertionError):
        checker.validate({**example, "surprise": 1}, "#/components/schemas/GameCreated", "extra")
    without = {k: v for k, v in example.items() if k != "rematch_of"}
    with pytest.raises(AssertionError):
        checker.validate(without, "#/components/schemas/GameCreated", "missing")
    schemas = document["components"]["schemas"]
    for ref in schemas["GameCreated"]["discriminator"]["mapping"].values():  # one per game type
        created = schemas[ref.removeprefix("#/components/schemas/")]
        assert created["properties"]["host_token"]["type"] == "string"
        assert {"host_token", "rematch_of", "invite_code"} <= set(created["required"])
