"""The OpenAPI schema states what the server accepts (issue 19 item 12): a client generated from
it sends nothing the server then refuses for a rule the schema did not say."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from domain.model.names import MAX_NAME_LENGTH
from domain.model.webhooks import FILTERS


def parameter(spec: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any]:
    return next(p for p in spec["paths"][path][method]["parameters"] if p["name"].lower() == name.lower())


def test_cursor_filters_and_names_are_stated_as_the_server_checks_them(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    cursor = parameter(spec, "/v1/games", "get", "cursor")["schema"]  # no parameter admits null
    for _ in range(3):
        player = client.post("/v1/players", json={"name": "Host"}).json()["token"]
        client.post("/v1/games", json={"type": "duel"}, headers={"Authorization": f"Bearer {player}"})
    issued = client.get("/v1/games", params={"limit": 1}).json()["next_cursor"]
    assert re.fullmatch(cursor["pattern"], issued)
    assert client.get("/v1/games", params={"limit": 1, "cursor": issued}).status_code == 200
    assert client.get("/v1/games", params={"cursor": "not a cursor!"}).status_code == 422

    schemas = spec["components"]["schemas"]
    assert schemas["WebhookCreate"]["properties"]["filters"]["items"]["enum"] == list(FILTERS)
    name = schemas["SeatCreate"]["properties"]["name"]
    assert name["anyOf"][0]["maxLength"] == MAX_NAME_LENGTH and "control" in name["description"]


def test_replay_seat_and_submit_key_are_stated_as_the_server_checks_them(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    replay = "/v1/games/{game_id}/replay"
    seat = parameter(spec, replay, "get", "seat")["schema"]
    at = parameter(spec, replay, "get", "at")["schema"]
    assert (seat["minimum"], at["maximum"]) == (0, 2**31 - 1)
    assert "404" in spec["paths"][replay]["get"]["responses"]
    game = client.post("/v1/games", json={"type": "duel"}).json()
    for name in ("ann", "bob"):
        client.post(f"/v1/games/{game['id']}/seats", json={"name": name})
    client.post(f"/v1/games/{game['id']}/abort", headers={"Authorization": f"Bearer {game['host_token']}"})
    url = f"/v1/games/{game['id']}/replay"
    assert client.get(url, params={"at": 1, "seat": 1}).status_code == 200
    beyond = client.get(url, params={"at": 1, "seat": 2})  # within the schema, not in this game
    assert beyond.status_code == 404 and beyond.json()["code"] == "seat_not_found"
    assert client.get(url, params={"at": 1, "seat": seat["maximum"] + 1}).status_code == 422
    assert client.get(url, params={"at": 2**31}).status_code == 422

    key = parameter(spec, "/v1/games/{game_id}/choices", "post", "idempotency-key")["schema"]
    assert (key["minLength"], key["maxLength"]) == (1, 128)
    playing = client.post("/v1/games", json={"type": "duel"}).json()
    seats = [
        client.post(f"/v1/games/{playing['id']}/seats", json={"name": n}).json()["token"]
        for n in ("ann", "bob")
    ]
    host = {"Authorization": f"Bearer {playing['host_token']}"}
    client.post(f"/v1/games/{playing['id']}/start", headers=host)
    for candidate in ("a b", "x" * 129, "k"):
        stated = bool(re.search(key["pattern"], candidate)) and len(candidate) <= key["maxLength"]
        answer = client.post(
            f"/v1/games/{playing['id']}/choices",
            json={"choice": {"card": 1}},
            headers={"Idempotency-Key": candidate, "Authorization": f"Bearer {seats[0]}"},
        )
        assert (answer.status_code == 200) is stated, (candidate, answer.text)


def test_every_graphql_query_and_mutation_answers_a_refusal_as_a_problem(client: TestClient) -> None:
    from graphql import GraphQLUnionType, get_named_type

    from api.graphql.schema import schema

    never_refuses = {"gameTypes"}  # an unknown `lang` falls back to English, as REST's does
    compiled = schema._schema
    for root in (compiled.query_type, compiled.mutation_type):
        assert root is not None
        for name, field in root.fields.items():
            if name in never_refuses:
                continue
            answer = get_named_type(field.type)
            assert isinstance(answer, GraphQLUnionType), name
            assert "Problem" in {member.name for member in answer.types}, name
    listed = client.post("/graphql", json={"query": '{ gameTypes(lang: "xx") { slug } }'}).json()
    assert "errors" not in listed and listed["data"]["gameTypes"]
