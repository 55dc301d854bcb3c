"""The routing hint ``/graphql?game={id}`` (README, "One owner per game"): the worker supervisor
and the load balancer read it from the request line to reach the game's owner; the API itself
serves GraphQL at that address exactly as at ``/graphql``, over HTTP and over the websocket."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.client import new_game, seated_game

GAME = "query Game($id: ID!) { game(id: $id) { ... on Game { id status } } }"


def test_graphql_over_http_answers_the_same_with_the_hint(client: TestClient) -> None:
    game = new_game(client)
    body = {"query": GAME, "variables": {"id": game["id"]}}
    plain = client.post("/graphql", json=body)
    hinted = client.post(f"/graphql?game={game['id']}", json=body)
    assert plain.status_code == hinted.status_code == 200
    assert hinted.json() == plain.json() == {"data": {"game": {"id": game["id"], "status": "lobby"}}}


def test_a_subscription_socket_opened_with_the_hint_is_served(client: TestClient) -> None:
    game, _ = seated_game(client)  # started: its history has events
    events = "subscription E($id: ID!) { gameEvents(gameId: $id, after: 0) { seq type } }"
    with client.websocket_connect(f"/graphql?game={game['id']}", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_json({"type": "connection_init", "payload": {}})
        assert ws.receive_json()["type"] == "connection_ack"
        ws.send_json(
            {"id": "1", "type": "subscribe", "payload": {"query": events, "variables": {"id": game["id"]}}}
        )
        first = ws.receive_json()
        assert first["type"] == "next" and first["id"] == "1", first
        assert first["payload"]["data"]["gameEvents"]["seq"] == 1
