"""Rate budgets and websocket caps for the whole server, not per worker process.

``python -m api serve --workers N`` runs N processes; each counting on its own would grant N times
every documented limit. The supervisor therefore runs a ``LimitHub`` on a Unix socket (as it runs
the event hub) and every worker asks it: one round trip per charge, the counting done in one place.
With Redis configured the rate budgets stay in Redis (shared by every instance); the websocket
caps, which are per server, always go through the hub.

The protocol is one JSON object per line each way, answered in order, so a worker pipelines its
questions on one connection without ids. Each charge carries its limit (amount and window) and
each socket its caps, so the hub needs no settings. The sockets a worker holds open are counted
against its connection: a worker that dies (or loses the hub) frees them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter, deque
from typing import Any

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

log = logging.getLogger("tabletop.limits")

MAX_LINE = 64 * 1024


class LimitHub:
    """The counters of every worker of one supervisor (run by the supervisor)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.strategy = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.items: dict[tuple[int, int], RateLimitItemPerSecond] = {}
        self.sockets: Counter[str] = Counter()
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._serve, path=self.path, limit=MAX_LINE)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held: Counter[str] = Counter()
        try:
            while line := await reader.readline():
                writer.write(json.dumps(await self.answer(json.loads(line), held)).encode() + b"\n")
                await writer.drain()
        except (ConnectionError, ValueError, KeyError, TypeError) as exc:
            log.warning("limit hub dropped a worker connection", extra={"error": repr(exc)})
        finally:
            self.sockets.subtract(held)
            self.sockets += Counter()  # drops the addresses left at zero
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def answer(self, request: dict[str, Any], held: Counter[str]) -> dict[str, Any]:
        op = request["op"]
        if op == "hit":
            limit = (int(request["amount"]), int(request["window"]))
            item = self.items.get(limit)
            if item is None:
                item = self.items[limit] = RateLimitItemPerSecond(*limit)
            key = str(request["key"])
            allowed = await self.strategy.hit(item, "hub", key, cost=int(request["cost"]))
            stats = await self.strategy.get_window_stats(item, "hub", key)
            return {"allowed": allowed, "remaining": stats.remaining, "reset_time": stats.reset_time}
        address = str(request["address"])
        if op == "open":
            if self.sockets.total() >= int(request["total"]):
                return {"refused": "total"}
            if self.sockets[address] >= int(request["per_client"]):
                return {"refused": "client"}
            self.sockets[address] += 1
            held[address] += 1
            return {"refused": None}
        if op == "close":
            if held[address] > 0:  # never below what this worker opened (a reconnect starts at 0)
                held[address] -= 1
                self.sockets[address] -= 1
                if self.sockets[address] <= 0:
                    del self.sockets[address]
            return {}
        raise ValueError(f"unknown operation {op!r}")


class HubClient:
    """A worker's connection to the hub: questions pipelined on one socket, answers in order."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._writer: asyncio.StreamWriter | None = None
        self._waiting: deque[asyncio.Future[dict[str, Any]]] = deque()
        self._connecting: asyncio.Lock | None = None

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        writer = self._writer or await self._connect()
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting.append(answer)
        writer.write(json.dumps(request).encode() + b"\n")
        return await answer

    async def _connect(self) -> asyncio.StreamWriter:
        self._connecting = self._connecting or asyncio.Lock()
        async with self._connecting:
            if self._writer is None:
                reader, writer = await asyncio.open_unix_connection(self.path, limit=MAX_LINE)
                self._writer = writer
                asyncio.get_running_loop().create_task(self._read(reader, writer))
            return self._writer

    async def _read(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                self._waiting.popleft().set_result(json.loads(line))
        except (ConnectionError, ValueError) as exc:
            log.warning("limit hub connection lost", extra={"error": repr(exc)})
        finally:
            if self._writer is writer:
                self._writer = None
            waiting, self._waiting = self._waiting, deque()
            for answer in waiting:
                if not answer.done():
                    answer.set_exception(ConnectionError("limit hub connection lost"))
            writer.close()
