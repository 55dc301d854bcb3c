"""Table talk over real HTTP: the SSE stream carries the chat as its own `event: chat` messages
when asked (ids hold both places, so a reconnection resumes both), and two instances on one
PostgreSQL database pass chat entries live through Redis, as game events do."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.http import auth
from tests.support.play import new_duel
from tests.support.servers import ServerProcess, running_server, running_servers

STEP = 10.0
"""Seconds a test waits for one message that was already committed."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("chat-sse") / "tabletop.db"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{db}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
        "TABLETOP_STREAM_HEARTBEAT_SECONDS": "0.5",
    }
    with running_server(env) as base:
        yield base


class Stream:
    """One SSE connection: its messages as (id, event, data) in order."""

    def __init__(self, response: httpx.Response) -> None:
        self.lines = response.aiter_lines()
        self.messages: list[tuple[str, str, dict[str, Any]]] = []

    async def next(self) -> tuple[str, str, dict[str, Any]]:
        fields: dict[str, str] = {}
        async for line in self.lines:
            if line.startswith(":") or line.startswith("retry"):
                continue
            if line:
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
            elif "data" in fields:
                message = (fields["id"], fields["event"], json.loads(fields["data"]))
                self.messages.append(message)
                return message
        raise AssertionError("the stream ended")

    async def until_chat(self, seq: int) -> list[tuple[str, str, dict[str, Any]]]:
        """Messages up to the chat entry ``seq``."""
        got = []
        while True:
            message = await asyncio.wait_for(self.next(), STEP)
            got.append(message)
            if message[1] == "chat" and message[2]["seq"] == seq:
                return got


def post(http: httpx.Client, game_id: str, token: str, **body: Any) -> dict[str, Any]:
    answer = http.post(f"/v1/games/{game_id}/chat", json=body, headers=auth(token))
    assert answer.status_code == 201, answer.text
    entry: dict[str, Any] = answer.json()
    return entry


def test_the_event_stream_carries_the_chat_beside_the_events_and_resumes_both(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        game_id, tokens = new_duel(http)
        post(http, game_id, tokens[0], text="before anyone listens")

        async def scenario() -> None:
            async with httpx.AsyncClient(base_url=server, timeout=None) as client:
                url = f"/v1/games/{game_id}/stream"
                params = {"chat": "true", "lang": "de"}
                async with client.stream("GET", url, params=params, headers=auth(tokens[1])) as response:
                    assert response.status_code == 200
                    stream = Stream(response)
                    first = await stream.until_chat(1)
                    ids = [message[0] for message in first]
                    assert all("." in i for i in ids), ids
                    events = [m for m in first if m[1] != "chat"]
                    assert [m[2]["seq"] for m in events] == list(range(1, len(events) + 1))
                    assert first[-1][2]["text"] == "before anyone listens"
                    await asyncio.to_thread(post, http, game_id, tokens[0], phrase="good_luck")
                    live = await stream.until_chat(2)
                    assert live[-1][2]["text"] == "Viel Glück!" and live[-1][2]["phrase"] == "good_luck"
                    last_id = live[-1][0]
                    assert last_id.endswith(".2")
                # Reconnect as an EventSource does: nothing twice, the next entry only.
                await asyncio.to_thread(post, http, game_id, tokens[0], text="while you were away")
                headers = {**auth(tokens[1]), "Last-Event-ID": last_id}
                async with client.stream("GET", url, params=params, headers=headers) as response:
                    stream = Stream(response)
                    again = await stream.until_chat(3)
                    assert next(m for m in again if m[1] == "chat")[2]["text"] == "while you were away"
                    assert len([m for m in again if m[1] == "chat"]) == 1
                    assert [m for m in again if m[1] != "chat"] == []

        asyncio.run(scenario())
        plain = http.get(f"/v1/games/{game_id}/events").json()["events"]
        assert all(event["type"] != "chat" for event in plain)  # the game's own history is untouched


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.timeout(180)
def test_chat_crosses_instances_live_through_redis(tmp_path_factory: pytest.TempPathFactory) -> None:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url}
        with running_servers([env, env], tmp_path_factory.mktemp("chat-scale")) as servers:
            a, b = servers
            _cross(a, b)


def _cross(a: ServerProcess, b: ServerProcess) -> None:
    with httpx.Client(base_url=a.base, timeout=10) as on_a:
        game_id, tokens = new_duel(on_a)

        async def scenario() -> None:
            async with httpx.AsyncClient(base_url=b.base, timeout=None) as client:
                url = f"/v1/games/{game_id}/stream"
                async with client.stream("GET", url, params={"chat": "true"}) as response:
                    stream = Stream(response)
                    for seq in range(1, 4):
                        await asyncio.to_thread(post, on_a, game_id, tokens[seq % 2], text=f"from A #{seq}")
                        got = await stream.until_chat(seq)
                        assert got[-1][2]["text"] == f"from A #{seq}"
                    chats = [m[2]["seq"] for m in stream.messages if m[1] == "chat"]
                    assert chats == [1, 2, 3]

        asyncio.run(scenario())
