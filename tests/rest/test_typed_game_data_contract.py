"""Game data is typed everywhere a client generator looks: every schema reachable from every
operation and webhook of ``/openapi.json`` (the stream's JSON lines included), every per-game
schema and every schema a GraphQL scalar names with ``@specifiedBy`` (walked through their
``$ref``s) describes each value, no node is a free ``{}`` or an object of unknown values; the
REST game, its creation, the game type's detail, choices, submit answer, events page, replay and
event webhook are unions by game type; a submit answers the next decision in the caller's
language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.entrypoints.export import openapi_document
from api.graphql.schema import schema
from api.openapi.game_schemas import PARTS, prefix
from api.openapi.games import TAGS
from domain.registry import default_registry
from tests.support.client import seated_game
from tests.support.http import auth

SLUGS = sorted(default_registry().catalogs())
BASE = "#/components/schemas/"
OPERATIONS = {
    ("/v1/games/{game_id}", "get"): "GamePublic",
    ("/v1/games/{game_id}/choices", "get"): "ChoicesPublic",
    ("/v1/games/{game_id}/choices", "post"): "SubmitResultPublic",
    ("/v1/games/{game_id}/events", "get"): "EventsPage",
    ("/v1/games/{game_id}/replay", "get"): "ReplayPublic",
    ("/v1/games", "post"): "GameCreated",
    ("/v1/games/{game_id}/rematch", "post"): "GameCreated",
    ("/v1/game-types/{slug}", "get"): "GameTypeDetail",
}
SCHEMA_KEYWORDS = ("type", "$ref", "anyOf", "oneOf", "allOf", "const", "enum")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def resolve(document: dict[str, Any], ref: str) -> Any:
    node: Any = document
    for key in ref.removeprefix("#/").split("/"):
        node = node[int(key)] if isinstance(node, list) else node[key.replace("~1", "/")]
    return node


def untyped(document: dict[str, Any], roots: list[str]) -> list[str]:
    """Every place under ``roots`` (``$ref``s followed) whose values a generator cannot type."""
    found: list[str] = []
    seen: set[str] = set()

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{where}/{i}")
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in seen:
            seen.add(ref)
            walk(resolve(document, ref), ref)
        if not any(key in node for key in SCHEMA_KEYWORDS):
            found.append(f"{where}: no type")
        types = node.get("type")
        types = types if isinstance(types, list) else [types]
        extra = node.get("additionalProperties", True)
        if (
            "object" in types
            and not node.get("properties")
            and not isinstance(extra, dict)
            and extra is not False
            and "oneOf" not in node
        ):
            found.append(f"{where}: an object of unknown values")
        if "array" in types and not node.get("items"):
            found.append(f"{where}: an array of unknown items")
        for key in ("properties", "patternProperties"):
            for name, value in node.get(key, {}).items():
                walk(value, f"{where}/{key}/{name}")
        for key in ("items", "additionalProperties", "contentSchema"):
            if isinstance(node.get(key), dict):
                walk(node[key], f"{where}/{key}")
        for key in ("anyOf", "oneOf", "allOf"):
            if key in node:
                walk(node[key], f"{where}/{key}")

    for root in roots:
        walk({"$ref": root}, root)
    return found


def game_data_roots(document: dict[str, Any]) -> list[str]:
    """The per-game components, the game-data fields of the per-game REST schemas, and every
    schema the GraphQL SDL names."""
    roots = [
        f"{BASE}{prefix(slug)}{part}" for slug in SLUGS for part in (*PARTS, "Options", "DecisionPublic")
    ]
    schemas = document["components"]["schemas"]
    for base in OPERATIONS.values():
        for slug in SLUGS:
            properties = schemas[f"{prefix(slug)}{base}"]["properties"]
            for field in ("state", "decision", "choices", "events", "options", "next", "result", "data"):
                if field in properties:
                    roots.append(f"{BASE}{prefix(slug)}{base}/properties/{field}")
    named = re.findall(r'@specifiedBy\(url: "/openapi\.json(#[^"]+)"\)', schema.as_str())
    assert len(named) >= 5 * len(SLUGS)
    return roots + named


def test_no_game_data_is_untyped_in_openapi_or_the_graphql_scalars(document: dict[str, Any]) -> None:
    assert untyped(document, game_data_roots(document)) == []


def refs_in(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [
            ref
            for key, value in node.items()
            for ref in ([value] if key == "$ref" and isinstance(value, str) else refs_in(value))
        ]
    return [ref for value in node for ref in refs_in(value)] if isinstance(node, list) else []


def escape(key: str) -> str:
    return key.replace("/", "~1")


def test_nothing_reachable_from_an_operation_or_a_webhook_is_untyped(document: dict[str, Any]) -> None:
    """Operations and webhooks, their inline schemas as well as what they reference."""
    roots = sorted(set(refs_in(document["paths"]) + refs_in(document["webhooks"])))
    assert len(roots) > 20
    assert untyped(document, roots) == []
    inline = [
        f"#/paths/{escape(path)}/{method}/responses/{status}/content/{escape(media)}/schema"
        for path, item in document["paths"].items()
        for method, operation in item.items()
        for status, response in operation.get("responses", {}).items()
        for media in response.get("content", {})
    ]
    assert untyped(document, inline) == []


def test_the_stream_and_the_event_webhook_are_typed_per_game(document: dict[str, Any]) -> None:
    stream = document["paths"]["/v1/games/{game_id}/stream"]["get"]["responses"]["200"]
    data = stream["content"]["text/event-stream"]["schema"]["properties"]["data"]
    assert data["contentSchema"]["anyOf"] == [
        {"$ref": f"{BASE}StreamEvent"},
        {"$ref": f"{BASE}ChatEntryPublic"},
    ]
    union = document["components"]["schemas"]["StreamEvent"]
    assert union["discriminator"]["propertyName"] == "game_type"
    assert set(union["discriminator"]["mapping"]) == set(SLUGS)
    for slug, ref in union["discriminator"]["mapping"].items():
        assert ref == f"{BASE}{prefix(slug)}StreamEvent"
        events = resolve(document, f"{BASE}{prefix(slug)}Event")["oneOf"]
        members = resolve(document, ref)["oneOf"]
        assert [m["properties"]["type"] for m in members] == [e["properties"]["type"] for e in events]
        for member in members:
            assert member["properties"]["game_type"]["const"] == slug
            assert set(member["required"]) == {"seq", "type", "game_type", "data", "next"}
            assert member["properties"]["next"]["anyOf"][0] == {"$ref": f"{BASE}{prefix(slug)}ChoicesPublic"}
    payload = document["components"]["schemas"]["WebhookEventPayload"]
    assert payload["discriminator"]["propertyName"] == "game_type"
    for slug, ref in payload["discriminator"]["mapping"].items():
        member = resolve(document, ref)
        assert member["properties"]["game_type"]["const"] == slug
        assert member["properties"]["event"]["$ref"] == f"{BASE}{prefix(slug)}Event"
    assert set(payload["discriminator"]["mapping"]) == set(SLUGS)


def test_a_result_has_the_details_of_the_games_game_over_event(document: dict[str, Any]) -> None:
    for slug in SLUGS:
        game = resolve(document, f"{BASE}{prefix(slug)}GamePublic")
        assert game["properties"]["result"]["anyOf"][0] == {"$ref": f"{BASE}{prefix(slug)}ResultPublic"}
        details = resolve(document, f"{BASE}{prefix(slug)}ResultPublic")["properties"]["details"]
        assert details["$ref"] == f"{BASE}{prefix(slug)}ResultDetails"  # GraphQL's scalar names it
        (inner,) = resolve(document, details["$ref"])["allOf"]
        over = resolve(document, inner["$ref"].removesuffix("/properties/data/properties/details"))
        assert over["properties"]["type"]["const"] == "game_over"


def test_the_check_finds_an_untyped_node(document: dict[str, Any]) -> None:
    view = document["components"]["schemas"]["CarcassonneView"]["properties"]
    kept = view["discarded"]
    try:
        view["discarded"] = {"type": "array", "items": {}}
        assert f"{BASE}CarcassonneView/properties/discarded/items: no type" in untyped(
            document, [f"{BASE}CarcassonneView"]
        )
        view["discarded"] = {"type": "object"}
        assert untyped(document, [f"{BASE}CarcassonneView"]) == [
            f"{BASE}CarcassonneView/properties/discarded: an object of unknown values"
        ]
    finally:
        view["discarded"] = kept


@pytest.mark.parametrize(("path", "method"), list(OPERATIONS))
def test_game_operations_answer_one_schema_per_game_type(
    document: dict[str, Any], path: str, method: str
) -> None:
    name = OPERATIONS[(path, method)]
    responses = document["paths"][path][method]["responses"]
    ok = next(status for status in responses if status.startswith("2"))
    content = responses[ok]["content"]["application/json"]
    assert content["schema"] == {"$ref": f"{BASE}{name}"}
    union = document["components"]["schemas"][name]
    tag = TAGS.get(name, "game_type")
    assert union["discriminator"]["propertyName"] == tag
    assert set(union["discriminator"]["mapping"]) == set(SLUGS)
    for slug, ref in union["discriminator"]["mapping"].items():
        member = resolve(document, ref)
        assert member["properties"][tag]["const"] == slug
        assert tag in member["required"]


def test_a_submitted_choice_is_any_games_choice(document: dict[str, Any]) -> None:
    choice = document["components"]["schemas"]["ChoiceSubmit"]["properties"]["choice"]
    assert choice["anyOf"] == [{"$ref": f"{BASE}{prefix(slug)}Choice"} for slug in SLUGS]


def test_every_event_names_its_game_type_in_graphql() -> None:
    sdl = schema.as_str()
    event = re.search(r"\ntype Event [^{]*\{(.*?)\n\}", sdl, re.S)
    assert event is not None and re.search(r"\n  gameType: String!\n", event.group(1))


def test_a_submit_answers_the_next_decision_in_the_callers_language(client: TestClient) -> None:
    game, tokens = seated_game(client, 2, type="keythedral")
    for _ in range(40):  # until a submit of seat 0 leaves seat 0 a decision right away
        seat = next(
            (
                i
                for i, t in enumerate(tokens)
                if client.get(f"/v1/games/{game['id']}/choices", headers=auth(t)).json()["choices"]
            ),
            None,
        )
        assert seat is not None
        pending = client.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[seat])).json()
        headers = {**auth(tokens[seat]), "Accept-Language": "de"}
        sent = client.post(
            f"/v1/games/{game['id']}/choices",
            headers=headers,
            json={"choice": pending["choices"][0], "decision_version": pending["decision_version"]},
        )
        assert sent.status_code == 200, sent.text
        answer = sent.json()
        assert answer["game_type"] == "keythedral"
        assert sent.headers["content-language"] == "de"
        if answer["next"] is not None:
            german = client.get(f"/v1/games/{game['id']}/choices", headers=headers).json()
            assert answer["next"]["decision"]["prompt"] == german["decision"]["prompt"]
            english = client.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[seat])).json()
            assert answer["next"]["decision"]["prompt"] != english["decision"]["prompt"]
            return
    pytest.fail("no submit was followed by a decision of the same seat")
