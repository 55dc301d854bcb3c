"""A game's owner killed mid-game under load, played through one address (a worker supervisor or a
load balancer): the shared scenario of tests/e2e/test_owner_failover.py and test_load_balancer.py.

Several games are played at once, each seat on its own connection (so it reaches the game's owner)
and followed live by each seat on the GraphQL socket with the ``?game=`` hint (so the stream lives
on the owner too). Once the first game is under way its owner is killed. Players retry a dropped
request with the same Idempotency-Key (a submit is never played twice); a subscriber whose socket
dies, or whose stream ends with the retryable ``database_unavailable`` (a database that stalls
under the takeover's burst), resumes with ``after`` = the last ``seq`` it received (after the
wait it was told), as the web client does. At the end: every game is over, every acknowledged
submit's events are in the stored history, and every subscriber's events are exactly its seat's
stored history.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from tests.support.http import auth
from tests.support.live import graphql_socket, stream_errors
from tests.support.play import all_events, start_game

GAMES = 10
"""Games played at once (three rounds of the test duel, about nine submits each)."""
KILL_AFTER = 3
"""Acknowledged submits of the first game before its owner is killed."""
EVENTS = (
    "subscription Events($gameId: ID!, $after: Int!) "
    "{ gameEvents(gameId: $gameId, after: $after) { seq type data } }"
)
DROPPED = (httpx.TransportError,)
"""What a request meets when its connection's process dies under it."""
GATEWAY = (502, 503, 504)
"""What a load balancer answers when the instance died under a request (or none is up yet)."""


@dataclass
class Played:
    game_id: str
    tokens: list[str]
    acknowledged: list[dict[str, Any]] = field(default_factory=list)
    """Every submit answered 200: its answer."""
    streams: list[list[dict[str, Any]]] = field(default_factory=list)
    reconnects: int = 0


async def request(http: httpx.AsyncClient, method: str, path: str, **kwargs: Any) -> httpx.Response:
    """One request, sent again (same headers, hence the same Idempotency-Key) when its connection
    dies; the process that answers the next attempt may be another."""
    for _ in range(50):
        try:
            response = await http.request(method, path, **kwargs)
        except DROPPED:
            await asyncio.sleep(0.1)
            continue
        if response.status_code not in GATEWAY:
            return response
        await asyncio.sleep(0.1)
    raise AssertionError(f"{method} {path}: no process answered")


async def seat(base: str, game: Played, token: str, seed: int) -> None:
    """Play this seat's decisions (random legal choices) until the game is over."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while True:
            pending = await request(http, "GET", f"/v1/games/{game.game_id}/choices", headers=auth(token))
            assert pending.status_code == 200, pending.text
            asked = pending.json()
            decision = asked["decision"]
            if decision is None or decision.get("your_sealed_choice") is not None or not asked["choices"]:
                state = await request(http, "GET", f"/v1/games/{game.game_id}")
                if state.json()["status"] != "in_progress":
                    return
                await asyncio.sleep(0.02)
                continue
            body = {"choice": rng.choice(asked["choices"]), "version": asked["version"]}
            headers = {**auth(token), "Idempotency-Key": uuid.uuid4().hex}
            answer = await request(
                http, "POST", f"/v1/games/{game.game_id}/choices", json=body, headers=headers
            )
            if answer.status_code == 409:  # the other seat moved first: ask again
                continue
            assert answer.status_code == 200, answer.text
            game.acknowledged.append(answer.json())


async def follow(base: str, game: Played, token: str) -> list[dict[str, Any]]:
    """``token``'s seat's events live until the stream completes, resuming after the last one
    received whenever the socket dies."""
    received: list[dict[str, Any]] = []
    for _ in range(50):
        try:
            async with graphql_socket(base, token, game=game.game_id) as socket:
                after = received[-1]["seq"] if received else 0
                op = await socket.subscribe(EVENTS, {"gameId": game.game_id, "after": after})
                while True:
                    message = await socket.receive(timeout=60)
                    wait = retry_after(message)
                    if wait is not None:  # the database stalled (the guide: subscribe again after it)
                        await asyncio.sleep(wait)
                        break
                    if message["type"] == "complete":
                        return received
                    assert message["type"] == "next" and message["id"] == op, message
                    assert "errors" not in message["payload"], message
                    received.append(message["payload"]["data"]["gameEvents"])
        except (websockets.WebSocketException, OSError):
            game.reconnects += 1
            await asyncio.sleep(0.1)
    raise AssertionError(f"game {game.game_id}: the stream kept dying")


def retry_after(message: dict[str, Any]) -> float | None:
    """The seconds a retryable error of a stream says to wait (``database_unavailable``), or None:
    on an ``error`` message or on the errors of a ``next``; any other error fails the test."""
    errors = stream_errors(message)
    if not errors:
        return None
    extensions = errors[0].get("extensions") or {}
    assert extensions.get("code") == "database_unavailable", message
    return float(extensions["retry_after"])


def play_through_a_failover(
    base: str, kill_owner: Callable[[str], None], start_base: str | None = None
) -> list[Played]:
    """``GAMES`` games played and followed at once through ``base`` (created and started through
    ``start_base`` if given); ``kill_owner(game id)`` is called once the first game has
    ``KILL_AFTER`` acknowledged submits. Returns the games once all are over, after checking what
    was acknowledged and streamed against what is stored."""
    with httpx.Client(base_url=start_base or base, timeout=30) as http:
        games = [Played(*start(http)) for _ in range(GAMES)]

    async def scenario() -> int:
        followers = [
            asyncio.ensure_future(follow(base, game, token)) for game in games for token in game.tokens
        ]
        players = [
            asyncio.ensure_future(seat(base, game, token, n * 10 + s))
            for n, game in enumerate(games)
            for s, token in enumerate(game.tokens)
        ]
        first = games[0]
        while len(first.acknowledged) < KILL_AFTER:
            assert not all(player.done() for player in players[:2]), "the first game ended too soon"
            await asyncio.sleep(0.01)
        at_kill = len(first.acknowledged)
        kill_owner(first.game_id)
        await asyncio.wait_for(asyncio.gather(*players), 180)
        streams = await asyncio.wait_for(asyncio.gather(*followers), 120)
        for index, game in enumerate(games):
            game.streams = streams[index * 2 : index * 2 + 2]
        return at_kill

    at_kill = asyncio.run(scenario())
    assert len(games[0].acknowledged) > at_kill, "the first game moved on after its owner was killed"
    with httpx.Client(base_url=base, timeout=30) as http:
        for game in games:
            assert http.get(f"/v1/games/{game.game_id}").json()["status"] == "finished"
            stored = {event["seq"]: event for event in all_events(http, game.game_id)}
            for answer in game.acknowledged:
                for event in answer["events"]:
                    assert event["seq"] in stored, f"acknowledged event {event} of {game.game_id} lost"
                    assert stored[event["seq"]]["type"] == event["type"]
            for token, stream in zip(game.tokens, game.streams, strict=True):
                assert stream == all_events(http, game.game_id, token), f"{game.game_id}: a stream differs"
    return games


def start(http: httpx.Client) -> tuple[str, list[str]]:
    game, tokens = start_game(http, "duel", 2, {"rounds": 3})
    return game["id"], tokens
