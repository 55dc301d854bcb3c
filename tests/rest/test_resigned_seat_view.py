"""A seat that resigned (or forfeited) sees what a spectator sees from then on, on every path: its
hand is no longer its player's to read while a bot plays it on (issue 19 item 10)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.client import seated_game
from tests.support.graphql import PROTOCOL, gql
from tests.support.http import auth

STREAM = (
    "subscription($g: ID!) { gameEvents(gameId: $g, after: 0) { seq type data next { decisionVersion } } }"
)
READ = "query($g: ID!) { game(id: $g) { ... on Game { state viewer { seat } } } }"


def stream_until(socket: Any, event_type: str) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["type"] != event_type:
        message = socket.receive_json()
        assert message["type"] == "next", message
        seen.append(message["payload"]["data"]["gameEvents"])
    return seen


def subscribe(socket: Any, token: str, game_id: str) -> None:
    socket.send_json({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}})
    assert socket.receive_json()["type"] == "connection_ack"
    payload = {"query": STREAM, "variables": {"g": game_id}}
    socket.send_json({"id": "1", "type": "subscribe", "payload": payload})


def test_a_resigned_seats_token_reads_as_a_spectator_on_every_path(client: TestClient) -> None:
    game, tokens = seated_game(client, options={"rounds": 3})
    url = f"/v1/games/{game['id']}"
    before = client.get(url, headers=auth(tokens[1])).json()
    assert "hand" in before["state"], "the duel's seat view shows its hand"
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as live:
        subscribe(live, tokens[1], game["id"])
        dealt = stream_until(live, "bonus_dealt")
        assert "bonus" in dealt[-1]["data"], "the seat sees its private bonus while it plays"
        assert client.post(f"{url}/resign", headers=auth(tokens[1])).status_code == 200
        client.post(f"{url}/choices", json={"choice": {"card": 3}}, headers=auth(tokens[0]))
        after = stream_until(live, "reveal")
    resigned_at = [e["type"] for e in after].index("seat_resigned")
    assert all(e["next"] is None for e in after[resigned_at:]), after

    spectator = client.get(url).json()
    seat = client.get(url, headers=auth(tokens[1])).json()
    assert seat["viewer"] == {"seat": None, "host": False}
    assert seat["state"] == spectator["state"] and "hand" not in seat["state"]
    choices = client.get(f"{url}/choices", headers=auth(tokens[1])).json()
    assert choices["choices"] == [] and choices["decision_version"] is None
    events = client.get(f"{url}/events", headers=auth(tokens[1])).json()
    assert events == client.get(f"{url}/events").json()
    assert not any("bonus" in e["data"] for e in events["events"])
    assert gql(client, READ, tokens[1], g=game["id"]) == gql(client, READ, g=game["id"])
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as again:
        subscribe(again, tokens[1], game["id"])
        replayed = stream_until(again, "bonus_dealt")
    assert "bonus" not in replayed[-1]["data"] and all(e["next"] is None for e in replayed)
