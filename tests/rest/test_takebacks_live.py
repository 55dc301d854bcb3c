"""A take-back reaches a GraphQL ``gameEvents`` subscriber live, as its seat sees it: the
``taken_back`` event's ``view`` is the seat's own view of the game after it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.graphql import PROTOCOL
from tests.support.http import auth
from tests.support.play import game_as, play_first_choice


def test_a_subscriber_sees_the_take_back_live_with_its_own_view(client: TestClient) -> None:
    created = client.post("/v1/games", json={"type": "carcassonne", "seed": "live-takeback"}).json()
    game_id = created["id"]
    tokens = [client.post(f"/v1/games/{game_id}/seats", json={"name": n}).json()["token"] for n in ("A", "B")]
    client.post(f"/v1/games/{game_id}/start", headers=auth(created["host_token"]))
    for _ in range(60):
        seat = play_first_choice(client, game_id, tokens)
        if game_as(client, game_id, tokens[seat])["takebacks"]["can_take_back"]:
            break
    else:
        raise AssertionError("no decision could be taken back")
    other = 1 - seat
    last_seq = client.get(f"/v1/games/{game_id}/events", headers=auth(tokens[other])).json()["last_seq"]
    query = f'subscription {{ gameEvents(gameId: "{game_id}", after: {last_seq}) {{ seq type data }} }}'
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send_json({"type": "connection_init", "payload": {"authorization": f"Bearer {tokens[other]}"}})
        assert socket.receive_json()["type"] == "connection_ack"
        socket.send_json({"id": "1", "type": "subscribe", "payload": {"query": query}})

        taken = client.post(f"/v1/games/{game_id}/takebacks", headers=auth(tokens[seat]))
        assert taken.status_code == 200, taken.text

        message = socket.receive_json()
        socket.send_json({"id": "1", "type": "complete"})
    assert message["type"] == "next", message
    event = message["payload"]["data"]["gameEvents"]
    assert event["seq"] == last_seq + 1 and event["type"] == "taken_back"
    assert (
        event["data"]["seat"] == seat
        and event["data"]["view"] == game_as(client, game_id, tokens[other])["state"]
    )
