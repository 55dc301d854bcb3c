"""Every ``JSON`` of the GraphQL SDL has a typed twin, so that a client generated from the SDL
needs no ``unknown``: a field, input field or argument ``f`` of the ``JSON`` scalar is typed by

- one sibling per game, ``<game><F>`` (``options``: ``carcassonneOptions``), of a scalar whose
  ``@specifiedBy`` names a component of ``/openapi.json``;
- or one sibling per game named as the game (``carcassonne``) whose component gives ``f`` to
  every member (``Event.data`` inside ``CarcassonneEvent``);
- or, an argument, a sibling ``game<F>`` (``gameChoice``): a ``@oneOf`` input with such a
  scalar per game;
- or, a value of no game (an option's default, a map of texts), siblings ``<f><Kind>`` of
  built-in GraphQL types (``defaultBoolean``, ``promptsByKind``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from graphql import (
    GraphQLArgument,
    GraphQLField,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLSchema,
    build_schema,
    get_named_type,
)

from api.entrypoints.export import openapi_document
from api.graphql.game_data import games
from api.graphql.schema import schema
from tests.support.client import app_with_test_game, make_settings
from tests.support.http import auth

BASE = "/openapi.json#/components/schemas/"
BUILT_IN = {"String", "Int", "Float", "Boolean", "ID"}
Field = GraphQLField | GraphQLInputField | GraphQLArgument


@pytest.fixture(scope="module")
def sdl() -> GraphQLSchema:
    return build_schema(schema.as_str())


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    return openapi_document()["components"]["schemas"]  # type: ignore[no-any-return]


def camel(slug: str) -> str:
    head, *rest = slug.split("-")
    return head + "".join(p.capitalize() for p in rest)


def upper(name: str) -> str:
    return name[0].upper() + name[1:]


def component(named: GraphQLNamedType, components: dict[str, Any]) -> dict[str, Any] | None:
    """The OpenAPI component a per-game scalar names with ``@specifiedBy`` (None: not such)."""
    if not isinstance(named, GraphQLScalarType) or not named.specified_by_url:
        return None
    name = named.specified_by_url.removeprefix(BASE)
    assert name != named.specified_by_url and name in components, named.specified_by_url
    return components[name]  # type: ignore[no-any-return]


def members(schema_: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for key in ("oneOf", "anyOf") for m in schema_.get(key, [])] or [schema_]


def has_property(schema_: dict[str, Any], name: str, components: dict[str, Any]) -> bool:
    """Every member of the component (``$ref``s to components followed) declares ``name``."""
    found = []
    for member in members(schema_):
        ref = member.get("$ref", "")
        target = components.get(ref.removeprefix("#/components/schemas/"), member) if ref else member
        found.append(name in target.get("properties", {}))
    return all(found)


def is_json(field: Field) -> bool:
    return get_named_type(field.type).name == "JSON"


def built_in(field: Field) -> bool:
    """Of a built-in scalar, or of an object whose fields all are."""
    named = get_named_type(field.type)
    if isinstance(named, GraphQLObjectType):
        return all(get_named_type(f.type).name in BUILT_IN for f in named.fields.values())
    return named.name in BUILT_IN


def typed_twin(name: str, siblings: dict[str, Field], components: dict[str, Any]) -> str | None:
    """Why ``name`` (a ``JSON``) is typed by its siblings, or None when it is not."""
    per_game = [siblings.get(camel(slug) + upper(name)) for slug in games()]
    if all(f is not None and component(get_named_type(f.type), components) for f in per_game):
        return "a scalar per game"
    whole = [siblings.get(camel(slug)) for slug in games()]
    if all(
        f is not None
        and (c := component(get_named_type(f.type), components)) is not None
        and has_property(c, name, components)
        for f in whole
    ):
        return "inside the game's whole scalar"
    one_of = siblings.get("game" + upper(name))
    named = get_named_type(one_of.type) if one_of is not None else None
    if (
        isinstance(named, GraphQLInputObjectType)
        and named.is_one_of
        and all(
            (f := named.fields.get(camel(slug))) is not None and component(get_named_type(f.type), components)
            for slug in games()
        )
    ):
        return "a @oneOf input with a scalar per game"
    kinds = [f for key, f in siblings.items() if key.startswith(name) and key[len(name) :][:1].isupper()]
    if kinds and all(built_in(f) for f in kinds):
        return "built-in types"
    return None


def untyped_json(sdl: GraphQLSchema, components: dict[str, Any]) -> list[str]:
    found = []
    for type_ in sdl.type_map.values():
        if type_.name.startswith("__") or not isinstance(type_, GraphQLObjectType | GraphQLInputObjectType):
            continue
        fields: dict[str, Field] = dict(type_.fields)
        places: list[tuple[str, dict[str, Field]]] = [(type_.name, fields)]
        for name, field in fields.items():
            if isinstance(field, GraphQLField) and field.args:
                places.append((f"{type_.name}.{name}", dict(field.args)))
        for where, siblings in places:
            found += [
                f"{where}.{name}"
                for name, field in siblings.items()
                if is_json(field) and typed_twin(name, siblings, components) is None
            ]
    return found


def test_every_json_of_the_sdl_has_a_typed_twin(sdl: GraphQLSchema, components: dict[str, Any]) -> None:
    assert games(), "no game publishes schemas"
    assert untyped_json(sdl, components) == []


def test_the_check_finds_a_json_field_without_a_twin(components: dict[str, Any]) -> None:
    bare = build_schema("""scalar JSON
      type GameResult { scores: [Int!]! details: JSON! }
      type Query { result: GameResult }""")
    assert untyped_json(bare, components) == ["GameResult.details"]


def test_the_typed_twins_cover_options_results_replays_sealed_choices_and_webhooks(
    sdl: GraphQLSchema, components: dict[str, Any]
) -> None:
    for type_name, field, part in [
        ("Game", "Options", "Options"),
        ("GameCreated", "Options", "Options"),
        ("GameResult", "Details", "ResultDetails"),
        ("Replay", "State", "View"),
        ("Decision", "YourSealedChoice", "Choice"),
        ("WebhookDelivery", "Payload", "WebhookEventPayload"),
    ]:
        type_ = sdl.type_map[type_name]
        assert isinstance(type_, GraphQLObjectType)
        for slug in games():
            named = get_named_type(type_.fields[camel(slug) + field].type)
            assert named.name.endswith(part)
            assert component(named, components) is not None
    options = sdl.type_map["GameOptions"]
    assert isinstance(options, GraphQLInputObjectType) and options.is_one_of
    for slug in games():
        assert component(get_named_type(options.fields[camel(slug)].type), components) is not None


DELIVERIES = """query($id: ID!) { webhookDeliveries(webhookId: $id) { __typename
  ... on WebhookDeliveries { deliveries { kind payload yourTurnPayload %s } } } }"""


def test_a_webhook_delivery_carries_its_payload_typed_by_its_kind_and_game(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, webhook_allow_private_targets=True)
    twins = [camel(slug) + "Payload" for slug in games()]
    with TestClient(app_with_test_game(settings)) as client:
        player = client.post("/v1/players", json={"name": "Ann"}).json()
        hook = client.post(
            "/v1/webhooks",
            headers=auth(player["token"]),
            json={"url": "http://127.0.0.1:9/hook", "filters": ["all", "your_turn"]},
        ).json()
        body = {"type": "keythedral", "options": {"first_player": "0"}}  # Ann's turn first
        game = client.post("/v1/games", json=body).json()
        for name, bearer in (("Ann", player["token"]), ("Ben", None)):
            seat = client.post(
                f"/v1/games/{game['id']}/seats", json={"name": name}, headers=auth(bearer) if bearer else {}
            )
            assert seat.status_code == 201, seat.text
        assert client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).is_success
        body = client.post(
            "/graphql",
            headers=auth(player["token"]),
            json={"query": DELIVERIES % " ".join(twins), "variables": {"id": hook["id"]}},
        ).json()
    assert "errors" not in body, body
    deliveries = body["data"]["webhookDeliveries"]["deliveries"]
    assert {d["payload"]["type"] for d in deliveries} == {"event", "your_turn"}
    for delivery in deliveries:
        event = delivery["payload"]["type"] == "event"
        assert delivery["keythedralPayload"] == (delivery["payload"] if event else None)
        assert delivery["yourTurnPayload"] == (None if event else delivery["payload"])
        assert all(delivery[twin] is None for twin in twins if twin != "keythedralPayload")


CREATE = """mutation($options: JSON, $gameOptions: GameOptions) {
  createGame(type: "carcassonne", options: $options, gameOptions: $gameOptions) { __typename
    ... on GameCreated { options carcassonneOptions keythedralOptions } ... on Problem { code } } }"""


@pytest.mark.parametrize(
    ("variables", "code"),
    [
        ({"gameOptions": {"keythedral": {}}}, "invalid_options"),  # under another game
        ({"options": {}, "gameOptions": {"carcassonne": {}}}, "invalid_options"),  # both
        ({"gameOptions": {"carcassonne": {"farm_scoring": "v9"}}}, "invalid_options"),
    ],
)
def test_typed_options_are_refused_under_another_game_or_beside_untyped_ones(
    client: TestClient, variables: dict[str, Any], code: str
) -> None:
    answer = client.post("/graphql", json={"query": CREATE, "variables": variables}).json()
    assert answer["data"]["createGame"] == {"__typename": "Problem", "code": code}, answer


def test_typed_options_create_the_game_with_them_and_defaults_for_the_rest(client: TestClient) -> None:
    variables = {"gameOptions": {"carcassonne": {"farm_scoring": "v2"}}}
    created = client.post("/graphql", json={"query": CREATE, "variables": variables}).json()
    game = created["data"]["createGame"]
    assert game["carcassonneOptions"] == game["options"] and game["keythedralOptions"] is None
    defaults = {o["name"]: o["default"] for o in client.get("/v1/game-types/carcassonne").json()["options"]}
    assert game["options"] == {**defaults, "farm_scoring": "v2"}


SUBMIT = """mutation($g: ID!, $c: GameChoice) {
  submitChoice(gameId: $g, gameChoice: $c) { __typename ... on SubmitResult { version }
    ... on Problem { code detail } } }"""


def test_a_typed_choice_under_another_game_is_refused_and_changes_nothing(client: TestClient) -> None:
    """``gameChoice: {carcassonne: …}`` on a Keythedral game is refused, as ``createGame``
    refuses another game's ``gameOptions``; under the game's own field it is applied."""
    game = client.post("/v1/games", json={"type": "keythedral", "options": {"first_player": "0"}}).json()
    tokens = [
        client.post(f"/v1/games/{game['id']}/seats", json={"name": name}).json()["token"]
        for name in ("A", "B")
    ]
    assert client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).is_success
    choices = client.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[0])).json()
    choice = choices["choices"][0]
    version = client.get(f"/v1/games/{game['id']}").json()["version"]
    for other in ("carcassonne", "imSchutzeDerBurg"):
        variables = {"g": game["id"], "c": {other: choice}}
        answer = client.post(
            "/graphql", json={"query": SUBMIT, "variables": variables}, headers=auth(tokens[0])
        )
        result = answer.json()["data"]["submitChoice"]
        assert result["__typename"] == "Problem" and result["code"] == "illegal_choice", result
        assert "keythedral" in result["detail"]
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == version
    variables = {"g": game["id"], "c": {"keythedral": choice}}
    answer = client.post("/graphql", json={"query": SUBMIT, "variables": variables}, headers=auth(tokens[0]))
    assert answer.json()["data"]["submitChoice"]["__typename"] == "SubmitResult", answer.json()
