"""One execution and one encoding of a live event per group of subscribers (issue 23 item 2).

Subscribers of one viewer with the same document get the very same bytes (their ids spliced in),
executed once for all of them; other viewers get their own, and nothing one viewer may not see
reaches it through another's group.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.graphql import fanout
from api.graphql.fanout import SharedData, SharedRenderings
from persistence import fast_json
from tests.support.client import app_with_test_game, make_settings, new_game
from tests.support.graphql import PROTOCOL
from tests.support.http import auth

STREAM = (
    "subscription Follow($g: ID!, $after: Int!) { gameEvents(gameId: $g, after: $after) "
    "{ seq type data next { decisionVersion choices } } }"
)
LAST = "banked"


def renderings(app: FastAPI) -> SharedRenderings:
    """The served schema's shared answers."""
    for route in app.routes:
        schema = getattr(getattr(route, "original_router", None), "schema", None)
        if schema is not None:
            shared: SharedRenderings = schema.shared_events
            return shared
    raise AssertionError("no GraphQL route")


def follow(client: TestClient, token: str | None, game_id: str, after: int, op_id: str) -> Any:
    socket = client.websocket_connect("/graphql", subprotocols=[PROTOCOL]).__enter__()
    params = {"authorization": f"Bearer {token}"} if token else {}
    socket.send_json({"type": "connection_init", "payload": params})
    assert socket.receive_json()["type"] == "connection_ack"
    variables = {"g": game_id, "after": after}
    socket.send_json({"id": op_id, "type": "subscribe", "payload": {"query": STREAM, "variables": variables}})
    return socket


def frames_until(socket: Any, last_type: str) -> list[str]:
    """The raw ``next`` messages received up to the first event of ``last_type``."""
    frames: list[str] = []
    while True:
        text = socket.receive_text()
        message = json.loads(text)
        assert message["type"] == "next", message
        frames.append(text)
        if message["payload"]["data"]["gameEvents"]["type"] == last_type:
            return frames


def play(tmp_path: Path) -> tuple[dict[str, list[str]], int, SharedRenderings]:
    """Five followers of a duel, subscribed before it starts: seat 0 three times (two from the
    start, one resuming later in the history), seat 1, a spectator. Start, play a round, bank.
    Returns each follower's frames, the last seq before the start, and the shared answers."""
    settings = make_settings(tmp_path)
    app = app_with_test_game(settings)
    with TestClient(app) as client:
        game = new_game(client, options={"rounds": 2}, seed="fanout")
        url = f"/v1/games/{game['id']}"
        tokens = [client.post(f"{url}/seats", json={"name": f"p{i}"}).json()["token"] for i in range(2)]
        before = client.get(f"{url}/events").json()["last_seq"]
        assert before >= 2
        sockets = {
            "seat0-a": follow(client, tokens[0], game["id"], 0, "1"),
            "seat0-b": follow(client, tokens[0], game["id"], 0, "follow-b"),
            "seat0-late": follow(client, tokens[0], game["id"], before - 1, "x"),
            "seat1": follow(client, tokens[1], game["id"], 0, "1"),
            "spectator": follow(client, None, game["id"], 0, "1"),
        }
        for name, socket in sockets.items():
            history = frames_until(socket, "seat_joined") if name != "seat0-late" else []
            while not history or json.loads(history[-1])["payload"]["data"]["gameEvents"]["seq"] < before:
                history += [socket.receive_text()]
        started = client.post(f"{url}/start", headers=auth(game["host_token"]))
        assert started.status_code == 200, started.text
        for seat, choice in ((0, {"card": 3}), (1, {"card": 1}), (0, {"action": "bank"})):
            sent = client.post(f"{url}/choices", json={"choice": choice}, headers=auth(tokens[seat]))
            assert sent.status_code == 200, sent.text
        frames = {name: frames_until(socket, LAST) for name, socket in sockets.items()}
        for socket in sockets.values():
            socket.__exit__(None, None, None)
        return frames, before, renderings(app)


def events(frames: list[str]) -> list[dict[str, Any]]:
    return [json.loads(f)["payload"]["data"]["gameEvents"] for f in frames]


def test_one_viewers_subscribers_get_the_same_bytes_executed_once(tmp_path: Path) -> None:
    frames, before, shared = play(tmp_path)
    live = len(frames["seat0-a"])
    assert live >= 5 and all(e["seq"] > before for e in events(frames["seat0-a"]))
    spliced = [re.sub(r'^\{"id":"follow-b"', '{"id":"1"', f) for f in frames["seat0-b"]]
    assert spliced == frames["seat0-a"], "same group: the same bytes, only the id differs"
    late = [re.sub(r'^\{"id":"x"', '{"id":"1"', f) for f in frames["seat0-late"]]
    assert late == frames["seat0-a"], "resuming from another `after` still shares the live events"
    # Three viewers (seat 0, seat 1, spectator): each live event executed once per viewer; the two
    # other subscribers of seat 0 reused seat 0's answer.
    assert shared.executed == 3 * live
    assert shared.reused == 2 * live


def test_each_viewer_gets_its_own_answer_and_nothing_hidden_crosses(tmp_path: Path) -> None:
    frames, _, _ = play(tmp_path)
    seat0, seat1, spectator = (events(frames[n]) for n in ("seat0-a", "seat1", "spectator"))
    assert [e["seq"] for e in seat0] == [e["seq"] for e in seat1] == [e["seq"] for e in spectator]
    bonus0 = next(e["data"]["bonus"] for e in seat0 if e["type"] == "bonus_dealt")
    bonus1 = next(e["data"]["bonus"] for e in seat1 if e["type"] == "bonus_dealt")
    assert bonus0 != bonus1
    assert not any("bonus" in e["data"] for e in spectator)
    assert f'"bonus":{bonus0}' not in "".join(frames["seat1"]) + "".join(frames["spectator"])
    assert f'"bonus":{bonus1}' not in "".join(frames["seat0-a"]) + "".join(frames["spectator"])
    # Each seat's `next` lists its own hand (seat 0 played 3, seat 1 played 1); a spectator has none.
    hands = [next(e["next"]["choices"] for e in seen if e["type"] == LAST) for seen in (seat0, seat1)]
    assert [sorted(c["card"] for c in hand) for hand in hands] == [[1, 2], [2, 3]]
    assert all(e["next"] is None for e in spectator)
    assert frames["seat0-a"] != frames["seat1"] != frames["spectator"]


def test_a_groups_frame_is_built_once_and_written_to_each_socket_with_its_own_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28 item 3: the ``next`` payload is encoded once per group; every subscriber of the group
    but the one that executed it gets it written straight to its socket, its own id spliced in, and
    receives exactly the bytes it receives when nothing is shared (each answer executed, encoded and
    sent by Strawberry for each subscriber)."""
    encodings: list[object] = []

    def dumps(value: object) -> str:
        if isinstance(value, dict) and type(value.get("data")) is SharedData:
            encodings.append(value["data"])
        return fast_json.dumps(value)

    monkeypatch.setattr(fanout, "fast_json", SimpleNamespace(dumps=dumps))
    (tmp_path / "shared").mkdir()
    (tmp_path / "alone").mkdir()
    frames, _, shared = play(tmp_path / "shared")
    live = len(frames["seat0-a"])
    # Three viewers: one payload encoded per viewer and live event, whoever follows it.
    assert len(encodings) == shared.executed == 3 * live
    # Seat 0's two other subscribers: their first live event goes through the pipeline (which tells
    # them where the answers are kept), every later one is written straight to their socket.
    assert shared.written == 2 * (live - 1)

    monkeypatch.setattr(SharedRenderings, "remember", lambda self, key, result: result)
    alone, _, unshared = play(tmp_path / "alone")
    assert unshared.written == unshared.reused == 0
    assert alone == frames, "the same bytes for every subscriber, shared or not"
