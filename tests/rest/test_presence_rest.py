"""Presence in the game view (REST and GraphQL): a seat's own open subscription makes it
connected, a spectator's does not, closing it ends it, and the game read's ETag follows it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.client import seated_game
from tests.support.http import auth
from tests.support.waiting import eventually

PROTOCOL = "graphql-transport-ws"
SUBSCRIBE = "subscription($id: ID!) { gameEvents(gameId: $id, after: 0) { seq } }"
SEATS = "query($id: ID!) { game(id: $id) { ... on Game { seats { seat connected } } } }"


def connected(client: TestClient, game_id: str) -> list[bool]:
    return [seat["connected"] for seat in client.get(f"/v1/games/{game_id}").json()["seats"]]


def test_a_seat_is_connected_while_its_own_subscription_is_open(client: TestClient) -> None:
    game, tokens = seated_game(client, players=3)
    url = f"/v1/games/{game['id']}"
    before = client.get(url).headers["etag"]
    with (
        client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as spectator,
        client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as seat,
    ):
        spectator.send_json({"type": "connection_init"})
        seat.send_json({"type": "connection_init", "payload": {"authorization": f"Bearer {tokens[1]}"}})
        for socket in (spectator, seat):
            assert socket.receive_json()["type"] == "connection_ack"
            payload = {"query": SUBSCRIBE, "variables": {"id": game["id"]}}
            socket.send_json({"id": "1", "type": "subscribe", "payload": payload})
            assert socket.receive_json()["type"] == "next"  # registered by its first event

        assert connected(client, game["id"]) == [False, True, False]
        answer = client.post("/graphql", json={"query": SEATS, "variables": {"id": game["id"]}})
        assert answer.json()["data"]["game"]["seats"] == [
            {"seat": 0, "connected": False},
            {"seat": 1, "connected": True},
            {"seat": 2, "connected": False},
        ]
        during = client.get(url, headers={"If-None-Match": before})
        assert during.status_code == 200 and during.headers["etag"] != before  # no stale 304
        assert client.get(url, headers=auth(tokens[0])).json()["seats"][1]["connected"] is True
        seat.send_json({"id": "1", "type": "complete"})

    eventually(
        lambda: connected(client, game["id"]) == [False, False, False],
        30,
        "presence ended with the subscription",
    )
