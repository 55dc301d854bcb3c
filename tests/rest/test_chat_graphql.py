"""Table talk over GraphQL: the same use cases as REST, and the chat followed live on its own
subscription (``graphql-transport-ws``) beside the game's events."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.support.client import seated_game
from tests.support.graphql import gql

PROTOCOL = "graphql-transport-ws"
FOLLOW = (
    'subscription($id: ID!, $after: Int!) { chatMessages(gameId: $id, after: $after, lang: "fr") '
    "{ seq kind seat target text phrase } }"
)
POST = (
    "mutation($id: ID!, $text: String, $phrase: String) { postChatMessage(gameId: $id, text: $text, "
    "phrase: $phrase) { __typename ... on ChatEntry { seq text } ... on Problem { code httpStatus } } }"
)
READ = (
    "query($id: ID!) { chat(gameId: $id) { ... on ChatPage { lastSeq canWrite muted hidden "
    "entries { seq kind seat text phrase } } ... on Problem { code } } }"
)
MUTE = (
    "mutation($id: ID!) { muteChatSeat(gameId: $id, seat: 1) "
    "{ ... on ChatSettings { muted } ... on Problem { code } } }"
)
HIDE = (
    "mutation($id: ID!, $hidden: Boolean!) { hideChatSeat(gameId: $id, seat: 1, hidden: $hidden) "
    "{ ... on ChatSettings { hidden } ... on Problem { code } } }"
)


def follow(socket: WebSocketTestSession, token: str | None, game_id: str, after: int = 0) -> None:
    socket.send_json(
        {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"} if token else {}}
    )
    assert socket.receive_json()["type"] == "connection_ack"
    payload = {"query": FOLLOW, "variables": {"id": game_id, "after": after}}
    socket.send_json({"id": "chat", "type": "subscribe", "payload": payload})


def received(socket: WebSocketTestSession) -> dict[str, Any]:
    frame = socket.receive_json()
    assert frame["type"] == "next", frame
    entry: dict[str, Any] = frame["payload"]["data"]["chatMessages"]
    return entry


def test_post_read_mute_and_hide_answer_as_rest_does(client: TestClient) -> None:
    game, tokens = seated_game(client, identities=True)
    gid = game["id"]
    posted = gql(client, POST, tokens[0], id=gid, text="salut")["postChatMessage"]
    assert posted == {"__typename": "ChatEntry", "seq": 1, "text": "salut"}
    refused = gql(client, POST, None, id=gid, text="salut")["postChatMessage"]
    assert refused == {"__typename": "Problem", "code": "unauthorized", "httpStatus": 401}
    bidi = gql(client, POST, tokens[0], id=gid, text="\u202e")["postChatMessage"]
    assert bidi["code"] == "invalid_chat_message"
    assert gql(client, MUTE, tokens[0], id=gid)["muteChatSeat"] == {"code": "forbidden"}
    assert gql(client, MUTE, game["host_token"], id=gid)["muteChatSeat"] == {"muted": [1]}
    muted = gql(client, POST, tokens[1], id=gid, phrase="thanks")["postChatMessage"]
    assert muted["code"] == "chat_muted"
    assert gql(client, HIDE, tokens[0], id=gid, hidden=True)["hideChatSeat"] == {"hidden": [1]}
    page = gql(client, READ, tokens[0], id=gid)["chat"]
    assert page["lastSeq"] == 3 and page["muted"] == [1] and page["hidden"] == [1] and page["canWrite"]
    assert [(e["seq"], e["kind"]) for e in page["entries"]] == [(1, "message"), (2, "muted"), (3, "hidden")]
    assert [e["kind"] for e in gql(client, READ, tokens[1], id=gid)["chat"]["entries"]] == [
        "message",
        "muted",
    ]


def test_the_chat_subscription_gives_history_then_live_entries_in_the_readers_language(
    client: TestClient,
) -> None:
    game, tokens = seated_game(client, players=3, identities=True)
    gid = game["id"]
    gql(client, POST, tokens[0], id=gid, text="before")
    with (
        client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as seat2,
        client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as spectator,
    ):
        follow(seat2, tokens[2], gid)
        follow(spectator, None, gid)
        for socket in (seat2, spectator):
            assert received(socket)["text"] == "before"
        gql(client, POST, tokens[1], id=gid, phrase="good_game")
        for socket in (seat2, spectator):
            assert received(socket) == {
                "seq": 2,
                "kind": "message",
                "seat": 1,
                "target": None,
                "text": "Bonne partie !",
                "phrase": "good_game",
            }
        # Seat 2 hides seat 1: from now on seat 2 gets its own hide entry and nothing of seat 1.
        gql(client, HIDE, tokens[2], id=gid, hidden=True)
        gql(client, POST, tokens[1], id=gid, text="hidden from seat 2")
        gql(client, POST, tokens[0], id=gid, text="for everyone")
        assert [received(seat2)["seq"] for _ in range(2)] == [3, 5]
        assert [received(spectator)["seq"] for _ in range(2)] == [4, 5]  # never the private hide
        seat2.send_json({"id": "chat", "type": "complete"})
        spectator.send_json({"id": "chat", "type": "complete"})

    # Resuming after the last entry it had: only what came later.
    gql(client, POST, tokens[0], id=gid, text="later")
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as again:
        follow(again, None, gid, after=5)
        assert received(again)["text"] == "later"
        again.send_json({"id": "chat", "type": "complete"})


def test_following_the_chat_of_an_unknown_game_is_an_error(client: TestClient) -> None:
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
        follow(socket, None, "nope")
        frame = socket.receive_json()
        assert frame["type"] in ("error", "next"), frame
        errors = frame["payload"] if frame["type"] == "error" else frame["payload"]["errors"]
        assert errors[0]["extensions"]["code"] == "game_not_found"
