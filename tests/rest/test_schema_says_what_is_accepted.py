"""Issue 31 item 12: a body the published schema accepts is one the server accepts, and the other
way round, for the bodies whose fields exclude each other (a chat's `text` and `phrase`, a seat's
`name` and `bot`)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from tests.support.client import seated_game

CHAT_BODIES = [
    ({"text": "hi"}, True),
    ({"phrase": "hello"}, True),
    ({"text": None, "phrase": "hello"}, True),
    ({"text": "hi", "phrase": "hello"}, False),
    ({}, False),
    ({"text": None}, False),
]
SEAT_BODIES = [
    ({"name": "Ann"}, True),
    ({"name": "Ann", "bot": None}, True),
    ({"name": "Ann", "bot": "random"}, False),
]


def component(client: TestClient, name: str) -> dict[str, Any]:
    document = client.get("/openapi.json").json()
    schema: dict[str, Any] = {**document["components"]["schemas"][name], "components": document["components"]}
    return schema


def valid(schema: dict[str, Any], body: object) -> bool:
    try:
        jsonschema.validate(body, schema)
    except jsonschema.ValidationError:
        return False
    return True


@pytest.mark.parametrize(("body", "accepted"), CHAT_BODIES)
def test_a_chat_body_is_accepted_exactly_when_the_schema_says(
    client: TestClient, body: dict[str, Any], accepted: bool
) -> None:
    game, tokens = seated_game(client)
    answer = client.post(
        f"/v1/games/{game['id']}/chat", json=body, headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert valid(component(client, "ChatMessageCreate"), body) is accepted
    assert (answer.status_code == 201) is accepted, answer.text


@pytest.mark.parametrize(("body", "accepted"), SEAT_BODIES)
def test_a_seat_body_is_accepted_exactly_when_the_schema_says(
    client: TestClient, body: dict[str, Any], accepted: bool
) -> None:
    game = client.post("/v1/games", json={"type": "duel"}).json()
    answer = client.post(
        f"/v1/games/{game['id']}/seats", json=body, headers={"Authorization": f"Bearer {game['host_token']}"}
    )
    assert valid(component(client, "SeatCreate"), body) is accepted
    assert (answer.status_code == 201) is accepted, answer.text


def test_no_parameter_admits_null_and_last_event_id_is_its_pattern(client: TestClient) -> None:
    """A header or query value is text: ``Last-Event-ID: null`` is refused, and the schema says so."""
    document = client.get("/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                assert '"null"' not in str(parameter["schema"]).replace("'", '"'), (path, method, parameter)
    stream = document["paths"]["/v1/games/{game_id}/stream"]["get"]["parameters"]
    (header,) = [p for p in stream if p["name"] == "Last-Event-ID"]
    assert header["schema"]["type"] == "string" and not valid(header["schema"], "null")
    game, _ = seated_game(client)
    refused = client.get(f"/v1/games/{game['id']}/stream", headers={"Last-Event-ID": "null"})
    assert refused.status_code == 422


@pytest.mark.parametrize(("cursor", "schema_valid"), [("0", False), ("", False), ("WyI" + "A" * 44, True)])
def test_a_games_list_cursor_the_schema_refuses_is_refused_and_every_issued_one_fits_it(
    client: TestClient, cursor: str, schema_valid: bool
) -> None:
    """``cursor=0`` was schema-valid and refused: the pattern is now the form of every cursor the
    service issues, and what has the form but was never issued is the ``invalid_request`` the
    parameter's description names."""
    host = client.post("/v1/players", json={"name": "Host"}).json()["token"]
    for _ in range(3):
        client.post("/v1/games", json={"type": "duel"}, headers={"Authorization": f"Bearer {host}"})
    document = client.get("/openapi.json").json()
    (parameter,) = [p for p in document["paths"]["/v1/games"]["get"]["parameters"] if p["name"] == "cursor"]
    schema = {"anyOf": [parameter["schema"]]} if "anyOf" not in parameter["schema"] else parameter["schema"]
    issued = client.get("/v1/games", params={"limit": 1}).json()["next_cursor"]
    assert issued is not None and valid(schema, issued)
    assert client.get("/v1/games", params={"limit": 1, "cursor": issued}).status_code == 200
    assert valid(schema, cursor) is schema_valid
    refused = client.get("/v1/games", params={"cursor": cursor})
    assert refused.status_code == 422
    assert "invalid_request" in parameter["description"]
    assert refused.json()["code"] == "invalid_request"
