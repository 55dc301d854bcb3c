"""GraphQL's contract with generated clients (issue 12 §4): every selectable field resolves, a
union query may select `Game.status` with `Problem.httpStatus`, identifiers are `ID`, REST and
GraphQL expose the same fields, and the websocket's token is read like the HTTP header."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel
from starlette.websockets import WebSocketDisconnect

from api.graphql.game_data import typed_field_names
from domain.catalog import prompt_text
from domain.registry import default_registry
from tests.support.client import seated_game
from tests.support.graphql import PAIRS, PROTOCOL, SUBSCRIBE, camel, gql, graphql_types, named, seated_duel


def test_every_game_type_field_resolves_boolean_options_included(client: TestClient) -> None:
    types = gql(
        client,
        """{ gameTypes { slug minPlayers maxPlayers
        options { name type default allowed description verified }
        playerLimits { option value maxPlayers } } }""",
    )["gameTypes"]
    isdb = next(t for t in types if t["slug"] == "im-schutze-der-burg")
    winter = next(o for o in isdb["options"] if o["name"] == "winter")
    assert winter["type"] == "bool" and winter["allowed"] is None and winter["default"] is False
    rest = {t["slug"]: t for t in client.get("/v1/game-types").json()}
    for found in types:
        assert found["playerLimits"] == [
            {"option": p["option"], "value": p["value"], "maxPlayers": p["max_players"]}
            for p in rest[found["slug"]]["player_limits"]
        ]


UNION = """query($id: ID!) { game(id: $id) {
  __typename ... on Game { id status viewer { seat host } } ... on Problem { code httpStatus detail } } }"""


def test_a_union_query_may_select_game_status_and_the_problem_status(client: TestClient) -> None:
    created = client.post("/v1/games", json={"type": "duel"}).json()
    found = gql(client, UNION, created["host_token"], id=created["id"])["game"]
    assert found == {
        "__typename": "Game",
        "id": created["id"],
        "status": "lobby",
        "viewer": {"seat": None, "host": True},
    }
    missing = gql(client, UNION, id="nope")["game"]
    assert missing["__typename"] == "Problem"
    assert (missing["code"], missing["httpStatus"]) == ("game_not_found", 404)


def test_identifiers_are_ids(client: TestClient) -> None:
    types = graphql_types(client)
    assert named(types["Game"]["id"]["type"]) == "ID"
    assert named(types["GameCreated"]["createdAt"]["type"]) == "DateTime"
    assert named(types["PlayerGame"]["gameId"]["type"]) == "ID"
    game_arg = next(a for a in types["Query"]["game"]["args"] if a["name"] == "id")
    assert named(game_arg["type"]) == "ID"
    for operation in ("submitChoice", "startGame", "joinGame"):
        arg = next(a for a in types["Mutation"][operation]["args"] if a["name"] == "gameId")
        assert named(arg["type"]) == "ID", operation


@pytest.mark.parametrize(("model", "graphql_name"), PAIRS, ids=[name for _, name in PAIRS])
def test_rest_and_graphql_expose_the_same_fields(
    client: TestClient, model: type[BaseModel], graphql_name: str
) -> None:
    fields = graphql_types(client)[graphql_name]
    rest = {camel(name) for name in model.model_fields}
    assert rest - set(fields) == set(), f"{graphql_name} lacks REST fields"
    typed = typed_field_names()  # per-game typed twins of JSON fields (api/graphql/game_data.py)
    # ... and typed twins of JSON values of no game: `defaultBoolean` of `default`
    kinds = {f for f in fields for r in rest if f.startswith(r) and f[len(r) :][:1].isupper()}
    assert set(fields) - rest - {"next"} - typed - kinds == set(), f"{graphql_name} has fields REST lacks"


@pytest.mark.parametrize("key", ["Authorization", "AUTHORIZATION", "authorization"])
def test_the_websocket_reads_the_authorization_key_in_any_case(client: TestClient, key: str) -> None:
    game_id, token = seated_duel(client)
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send_json({"type": "connection_init", "payload": {key: f"Bearer {token}"}})
        assert socket.receive_json()["type"] == "connection_ack"
        socket.send_json(
            {"id": "1", "type": "subscribe", "payload": {"query": SUBSCRIBE, "variables": {"g": game_id}}}
        )
        for _ in range(50):
            event = socket.receive_json()["payload"]["data"]["gameEvents"]
            if event["next"] is not None:
                break
        assert event["next"]["decisionVersion"] is not None, "the seat was read as a spectator"


@pytest.mark.parametrize("value", ["Basic dXNlcg==", "Bearer", 42])
def test_a_malformed_websocket_token_closes_the_socket_with_4403(client: TestClient, value: object) -> None:
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send_json({"type": "connection_init", "payload": {"Authorization": value}})
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4403


def test_an_unknown_websocket_token_is_an_error_not_a_spectator(client: TestClient) -> None:
    game_id, _ = seated_duel(client)
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send_json({"type": "connection_init", "payload": {"Authorization": "Bearer forged"}})
        assert socket.receive_json()["type"] == "connection_ack"
        socket.send_json(
            {"id": "1", "type": "subscribe", "payload": {"query": SUBSCRIBE, "variables": {"g": game_id}}}
        )
        answer = socket.receive_json()
    assert answer["type"] in ("error", "next"), answer
    errors = answer["payload"] if answer["type"] == "error" else answer["payload"]["errors"]
    assert "does not belong to this game" in str(errors)


def test_the_subscriptions_next_decision_speaks_the_asked_language(client: TestClient) -> None:
    """``gameEvents(lang:)``: the decision handed over with an event has its prompt in that
    language, as ``choices(lang:)`` has it."""
    game, tokens = seated_game(client, players=2, type="im-schutze-der-burg")
    subscribe = (
        'subscription($id: ID!) { gameEvents(gameId: $id, after: 0, lang: "de") '
        "{ seq next { decision { kind prompt } } } }"
    )
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as socket:
        init = {"authorization": f"Bearer {tokens[0]}"}
        socket.send_json({"type": "connection_init", "payload": init})
        assert socket.receive_json()["type"] == "connection_ack"
        payload = {"query": subscribe, "variables": {"id": game["id"]}}
        socket.send_json({"id": "1", "type": "subscribe", "payload": payload})
        offered = None
        while offered is None:
            message = socket.receive_json()
            assert message["type"] == "next", message
            offered = message["payload"]["data"]["gameEvents"]["next"]
    decision = offered["decision"]
    catalog = default_registry().catalog("im-schutze-der-burg")
    german = prompt_text(catalog, decision["kind"], "de", "")
    assert german and decision["prompt"] == german
    assert german != prompt_text(catalog, decision["kind"], "en", "")
