"""GraphQL's per-game typed fields (``carcassonneState``, ``keythedralChoices``, ...): each is a
scalar whose ``@specifiedBy`` names the OpenAPI component, each value it carries in real games is
valid against that schema, and the fields of the other games are null."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.graphql.game_data import event_types, games
from api.graphql.schema import schema
from api.openapi.game_schemas import prefix
from tests.support.client import seated_game
from tests.support.contract import game_part_validator
from tests.support.graphql import gql
from tests.support.http import auth

SLUGS = ("carcassonne", "im-schutze-der-burg", "keythedral")
MOVES = 25


def field(slug: str, suffix: str) -> str:
    head, *rest = slug.split("-")
    return head + "".join(p.capitalize() for p in rest) + suffix


def every(suffix: str) -> str:
    return " ".join(field(slug, suffix) for slug in SLUGS)


def check(slug: str, part: str, values: dict[str, Any], suffix: str) -> None:
    """The field of ``slug`` is valid against its schema; every other game's field is null."""
    for other in SLUGS:
        value = values[field(other, suffix)]
        if other != slug:
            assert value is None, (other, part)
            continue
        assert value is not None, (slug, part)
        for item in value if isinstance(value, list) else [value]:
            game_part_validator(slug, part).validate(item)


def test_the_sdl_declares_one_scalar_per_game_and_part_pointing_at_its_schema() -> None:
    sdl = schema.as_str()
    assert set(games()) == set(SLUGS)
    for slug in SLUGS:
        for part in ("View", "Decision", "Choice", "Event", "StaticData"):
            name = f"{prefix(slug)}{part}"
            assert f'scalar {name} @specifiedBy(url: "/openapi.json#/components/schemas/{name}")' in sdl


@pytest.mark.parametrize("slug", SLUGS)
def test_typed_fields_carry_schema_valid_data_of_their_game_only(client: TestClient, slug: str) -> None:
    game, tokens = seated_game(client, players=2, type=slug)
    query = f"""query($id: ID!) {{
      game(id: $id) {{ ... on Game {{ {every("State")} decision {{ kind {every("")} }} }} }}
      choices(gameId: $id) {{ ... on Choices {{ decision {{ kind }} {every("Choices")} }} }}
    }}"""
    for _ in range(MOVES):
        pending = [client.get(f"/v1/games/{game['id']}/choices", headers=auth(t)).json() for t in tokens]
        seat = next((i for i, p in enumerate(pending) if p["choices"]), None)
        if seat is None:
            break
        data = gql(client, query, tokens[seat], id=game["id"])
        check(slug, "View", data["game"], "State")
        check(slug, "Decision", data["game"]["decision"], "")
        check(slug, "Choice", data["choices"], "Choices")
        assert data["choices"][field(slug, "Choices")] == pending[seat]["choices"]
        answer = client.post(
            f"/v1/games/{game['id']}/choices",
            headers=auth(tokens[seat]),
            json={"choice": pending[seat]["choices"][0]},
        )
        assert answer.status_code == 200, answer.text
    events = gql(
        client,
        f"""query($id: ID!) {{ events(gameId: $id) {{
        ... on EventPage {{ gameType events {{ type gameType {every("")} }} }} }} }}""",
        tokens[0],
        id=game["id"],
    )
    assert events["events"]["gameType"] == slug
    seen = events["events"]["events"]
    assert len(seen) > MOVES // 2
    shared = {t for o in SLUGS if o != slug for t in event_types(o)} & event_types(slug)
    assert any(event["type"] in shared for event in seen)  # round_started, seat_joined, ...
    for event in seen:  # every one typed by its game, shared types too: the event names it
        assert event["gameType"] == slug
        typed = event[field(slug, "")]
        assert typed is not None and typed["type"] == event["type"]
        game_part_validator(slug, "Event").validate(typed)
        assert all(event[field(o, "")] is None for o in SLUGS if o != slug)
    static = gql(
        client,
        f"""query($slug: String!) {{ gameType(slug: $slug) {{
        ... on GameTypeDetail {{ {every("Data")} }} }} }}""",
        tokens[0],
        slug=slug,
    )
    check(slug, "StaticData", static["gameType"], "Data")
