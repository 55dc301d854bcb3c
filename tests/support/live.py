"""Live clients of a real server: a graphql-transport-ws socket (subscriptions), subscribers
following games from a thread of their own, and an ``EventSource``-like reader of the event stream."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from tests.support.http import auth


class GraphQLSocket:
    """A minimal graphql-transport-ws client."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    async def subscribe(self, query: str, variables: dict[str, Any]) -> str:
        op_id = uuid.uuid4().hex
        await self.connection.send(
            json.dumps(
                {"id": op_id, "type": "subscribe", "payload": {"query": query, "variables": variables}}
            )
        )
        return op_id

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.connection.recv(), timeout))
            if message["type"] == "ping":
                await self.connection.send(json.dumps({"type": "pong"}))
                continue
            return message


@asynccontextmanager
async def graphql_socket(
    base: str, token: str | None = None, game: str | None = None
) -> AsyncIterator[GraphQLSocket]:
    """A ``graphql-transport-ws`` connection, acknowledged; ``game``: the routing hint
    ``/graphql?game=ID`` that takes the socket to the worker owning that game."""
    url = base.replace("http://", "ws://") + "/graphql" + (f"?game={game}" if game else "")
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"]) as connection:  # type: ignore[list-item]
        payload = {"authorization": f"Bearer {token}"} if token else {}
        await connection.send(json.dumps({"type": "connection_init", "payload": payload}))
        ack = json.loads(await asyncio.wait_for(connection.recv(), 10))
        assert ack["type"] == "connection_ack", ack
        yield GraphQLSocket(connection)


def stream_errors(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The errors of a subscription's ``error`` message (its payload), or of its ``next``."""
    payload = message.get("payload")
    errors = payload if isinstance(payload, list) else (payload or {}).get("errors")
    return list(errors or [])


GAME_EVENTS = """
subscription Events($gameId: ID!, $after: Int!) {
  gameEvents(gameId: $gameId, after: $after) { seq type data }
}
"""


async def events_until_over(
    base: str, game_id: str, token: str | None = None, after: int = 0, timeout: float = 30.0
) -> list[dict[str, Any]]:
    """Subscribe as ``token``'s viewer and collect every event up to ``game_over``."""
    async with graphql_socket(base, token) as socket:
        op = await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": after})
        events: list[dict[str, Any]] = []
        while True:
            message = await socket.receive(timeout=timeout)
            assert message["type"] == "next" and message["id"] == op, message
            events.append(message["payload"]["data"]["gameEvents"])
            if events[-1]["type"] == "game_over":
                return events


class BackgroundSubscribers:
    """Websocket subscribers (one per viewer) following a game from a thread of their own, while
    the test plays it over HTTP; ``join`` returns what each viewer received."""

    def __init__(self, base: str, game_id: str, viewers: Mapping[str, str | None]) -> None:
        self.events: dict[str, list[dict[str, Any]]] = {}
        self._failure: list[BaseException] = []

        async def collect_all() -> None:
            results = await asyncio.gather(
                *(events_until_over(base, game_id, token) for token in viewers.values())
            )
            self.events = dict(zip(viewers, results, strict=True))

        def run() -> None:
            try:
                asyncio.run(collect_all())
            except BaseException as exc:  # reported to the test by join()
                self._failure.append(exc)

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def join(self, timeout: float = 30.0) -> dict[str, list[dict[str, Any]]]:
        self._thread.join(timeout)
        assert not self._failure, self._failure
        assert not self._thread.is_alive(), "a websocket subscriber never saw game_over"
        return self.events


@dataclass
class Received:
    """What one stream delivered: its events (``id``, ``event``, parsed ``data``) and comments."""

    events: list[dict[str, Any]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    connections: int = 0


async def read_stream(
    client: httpx.AsyncClient,
    url: str,
    token: str | None,
    received: Received,
    *,
    stop_after: int | None = None,
) -> None:
    """Read one connection of an event stream until the server closes it (or ``stop_after`` more
    events arrived: then hang up, as a client losing its network does)."""
    headers = auth(token) if token else {}
    if received.events:
        headers["Last-Event-ID"] = str(received.events[-1]["id"])
    got = 0
    async with client.stream("GET", url, headers=headers) as response:
        assert response.status_code == 200, await response.aread()
        assert response.headers["content-type"].startswith("text/event-stream")
        received.connections += 1
        message: dict[str, str] = {}
        async for line in response.aiter_lines():
            if line.startswith(":"):
                received.comments.append(line)
            elif line:
                name, _, value = line.partition(":")
                message[name] = value.removeprefix(" ")
                received.fields.append(name)
            elif "data" in message:
                received.events.append(
                    {"id": int(message["id"]), "event": message["event"], "data": json.loads(message["data"])}
                )
                message = {}
                got += 1
                if stop_after is not None and got >= stop_after:
                    return
            else:
                message = {}


async def follow(base: str, game_id: str, token: str | None, hang_up_every: int | None) -> Received:
    """Follow a game to its end, hanging up after every ``hang_up_every`` events and reconnecting
    with ``Last-Event-ID``, as an ``EventSource`` does."""
    received = Received()
    url = f"/v1/games/{game_id}/stream"
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        while not received.events or received.events[-1]["event"] != "game_over":
            await read_stream(client, url, token, received, stop_after=hang_up_every)
    return received
