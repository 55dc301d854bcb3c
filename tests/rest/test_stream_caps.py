"""Live streams (SSE) count with the websockets against the caps, and a stream whose client takes
nothing is cut (issue 31 item 2): ``RequestGuard`` in front of an app whose stream never ends,
driven at the ASGI level, so a client that never reads is exactly a ``send`` that never returns."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI
from starlette.types import Message, Receive, Scope, Send

from api.edge.metric_labels import RouteLabels
from api.edge.metrics import Metrics
from api.edge.middleware import RequestGuard
from api.edge.rate_limits import RateLimiter
from api.settings import Settings
from tests.support.waiting import eventually_async

PER_CLIENT = 3


def guard(app: Any, **settings: Any) -> RequestGuard:
    values: dict[str, Any] = {"max_websockets_per_client": PER_CLIENT, "max_websockets": 5, **settings}
    chosen = Settings(**values)
    return RequestGuard(app, Metrics(), chosen, RateLimiter(chosen), RouteLabels(FastAPI()))


def stream_scope(address: str, game: str = "g1") -> Scope:
    return {
        "type": "http",
        "method": "GET",
        "path": f"/v1/games/{game}/stream",
        "raw_path": f"/v1/games/{game}/stream".encode(),
        "query_string": b"",
        "headers": [(b"host", b"test")],
        "client": (address, 1234),
        "server": ("test", 80),
        "scheme": "http",
        "http_version": "1.1",
        "root_path": "",
    }


class EndlessStream:
    """An app that streams until cancelled, one chunk after another."""

    def __init__(self) -> None:
        self.started = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.started += 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        while True:
            await send({"type": "http.response.body", "body": b": keep-alive\n\n", "more_body": True})
            await asyncio.sleep(0)


class Client:
    """One request's side of the ASGI conversation; ``reading``: whether it takes what is sent."""

    def __init__(self, reading: bool) -> None:
        self.reading = reading
        self.messages: list[Message] = []
        self.disconnected = asyncio.Event()

    async def receive(self) -> Message:
        await self.disconnected.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        self.messages.append(message)
        if not self.reading and message["type"] == "http.response.body":
            await asyncio.Event().wait()  # the send buffer is full and stays full

    @property
    def status(self) -> int | None:
        starts = [m for m in self.messages if m["type"] == "http.response.start"]
        return int(starts[0]["status"]) if starts else None

    def problem(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(b"".join(m.get("body", b"") for m in self.messages[1:]))
        return body

    def header(self, name: bytes) -> bytes | None:
        return dict(self.messages[0]["headers"]).get(name)


async def until(check: Any) -> None:
    async def holds() -> bool:
        return bool(check())

    await eventually_async(holds, 30)


def test_streams_beyond_the_per_address_cap_are_refused_with_429_and_retry_after() -> None:
    async def scenario() -> None:
        app = EndlessStream()
        guarded = guard(app)
        clients = [Client(reading=True) for _ in range(PER_CLIENT + 2)]
        running = [
            asyncio.create_task(guarded(stream_scope("198.51.100.7"), c.receive, c.send)) for c in clients
        ]
        await asyncio.wait_for(asyncio.gather(*running[PER_CLIENT:]), 30)
        assert app.started == PER_CLIENT
        for refused in clients[PER_CLIENT:]:
            assert refused.status == 429
            assert refused.problem()["code"] == "too_many_streams"
            assert refused.header(b"retry-after") is not None
        other = Client(reading=True)  # another address has its own budget, up to the server's cap
        other_task = asyncio.create_task(guarded(stream_scope("198.51.100.8"), other.receive, other.send))
        await until(lambda: app.started == PER_CLIENT + 1)
        for client in clients[:PER_CLIENT]:  # closing streams frees their places
            client.disconnected.set()
        other.disconnected.set()
        for task in [*running[:PER_CLIENT], other_task]:
            task.cancel()
        await asyncio.gather(*running[:PER_CLIENT], other_task, return_exceptions=True)
        again = Client(reading=True)
        again_task = asyncio.create_task(guarded(stream_scope("198.51.100.7"), again.receive, again.send))
        await until(lambda: again.status == 200)
        again_task.cancel()
        await asyncio.gather(again_task, return_exceptions=True)

    asyncio.run(scenario())


def test_the_server_wide_cap_counts_streams_from_every_address_with_503() -> None:
    async def scenario() -> None:
        app = EndlessStream()
        guarded = guard(app)
        clients = [Client(reading=True) for _ in range(6)]
        tasks = [
            asyncio.create_task(guarded(stream_scope(f"198.51.100.{n}"), c.receive, c.send))
            for n, c in enumerate(clients)
        ]
        await asyncio.wait(tasks, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        refused = [c for c in clients if c.status == 503]
        assert len(refused) == 1 and app.started == 5
        assert refused[0].problem()["code"] == "too_many_streams"
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())


def test_a_stream_whose_client_takes_nothing_is_cut_and_frees_its_place() -> None:
    async def scenario() -> None:
        app = EndlessStream()
        guarded = guard(app, stream_send_timeout_seconds=0.2)
        stuck = [Client(reading=False) for _ in range(PER_CLIENT)]
        stuck_tasks = [
            asyncio.create_task(guarded(stream_scope("198.51.100.9"), c.receive, c.send)) for c in stuck
        ]
        reader = Client(reading=True)
        reading = asyncio.create_task(guarded(stream_scope("198.51.100.10"), reader.receive, reader.send))
        # Every stuck stream ends by itself (bounded by the test's own limit only on failure).
        await asyncio.wait_for(asyncio.gather(*stuck_tasks), 30)
        assert all(c.status == 200 for c in stuck)
        assert not reading.done()  # the reader goes on
        chunks = len(reader.messages)
        await until(lambda: len(reader.messages) > chunks)
        after = Client(reading=True)  # the cut streams gave their places back
        after_task = asyncio.create_task(guarded(stream_scope("198.51.100.9"), after.receive, after.send))
        await until(lambda: after.status == 200)
        for task in (reading, after_task):
            task.cancel()
        await asyncio.gather(reading, after_task, return_exceptions=True)

    asyncio.run(scenario())
