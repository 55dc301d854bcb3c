"""Events between the worker processes of one machine, without Redis.

``python -m api serve --workers N`` on the embedded SQLite default runs an ``EventHub`` in the
supervising process, on a Unix socket: every frame a worker sends is relayed to every worker,
itself included, and each worker's ``HubBroker`` dispatches to its local subscribers, exactly as
the ``RedisBroker`` does with Redis between instances. The database stays the source of truth: a
worker that loses the hub ends its live subscriptions, whose streams catch up from storage.

A frame is a 4-byte big-endian length, then ``<game id>\\n<event in the pubsub wire format>``.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress

from domain.model.match import RecordedEvent
from domain.ports.events import SubscriptionLost
from persistence.pubsub import _LocalSubscribers, encode
from persistence.subscription import DEFAULT_GAP_TIMEOUT, DEFAULT_MAX_PENDING, Subscription

log = logging.getLogger(__name__)

HEADER = struct.Struct(">I")
MAX_FRAME = 16 * 1024 * 1024
"""Larger than any event; a bigger length means a corrupt stream."""
MAX_BACKLOG = 32 * 1024 * 1024
"""Bytes a worker may leave unread before the hub drops it (it then catches up from storage)."""


def frame(game_id: str, event: RecordedEvent) -> bytes:
    body = f"{game_id}\n{encode(event)}".encode()
    return HEADER.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader) -> bytes:
    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
    if size > MAX_FRAME:
        raise ValueError(f"frame of {size} bytes is larger than {MAX_FRAME}")
    return await reader.readexactly(size)


class EventHub:
    """Relays every frame to every connected worker (run by the supervisor)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._serve, path=self.path)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while True:
                body = await read_frame(reader)
                packet = HEADER.pack(len(body)) + body
                for peer in list(self._writers):
                    if peer.transport.get_write_buffer_size() > MAX_BACKLOG:
                        log.warning("a worker fell behind the event hub; dropping its connection")
                        self._writers.discard(peer)
                        peer.close()
                        continue
                    peer.write(packet)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()


class HubBroker(_LocalSubscribers):
    """A worker's ``domain.ports.events.EventBroker``: publishes through the hub and dispatches what the
    hub relays."""

    def __init__(
        self,
        path: str,
        *,
        subscribe_timeout: float = 5.0,
        max_pending: int = DEFAULT_MAX_PENDING,
        gap_timeout: float = DEFAULT_GAP_TIMEOUT,
    ) -> None:
        super().__init__(max_pending, gap_timeout)
        self._path = path
        self._subscribe_timeout = subscribe_timeout
        self._writer: asyncio.StreamWriter | None = None
        self._listening = asyncio.Event()

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._listening = asyncio.Event()
        self._listener = asyncio.create_task(self._listen(), name="tabletop-hub-listener")

    async def stop(self) -> None:
        await self._stop_listening()
        self._loop = None

    async def ping(self) -> None:
        """Readiness check: raises unless connected to the hub."""
        if not self._listening.is_set():
            raise RuntimeError(f"not connected to the event hub at {self._path}")

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        """Called from worker threads: hand the frames to the loop, which writes them to the hub."""
        loop = self._loop
        if loop is None or not events:
            return
        packets = b"".join(frame(game_id, event) for event in events)
        with suppress(RuntimeError):  # the loop closed: nobody is listening any more
            loop.call_soon_threadsafe(self._send, packets)

    def _send(self, packets: bytes) -> None:
        if self._writer is None or self._writer.is_closing():
            log.warning("event hub unreachable; live subscribers will catch up from storage")
            return
        self._writer.write(packets)

    @asynccontextmanager
    async def subscribe(self, game_id: str, after: int | None = None) -> AsyncIterator[Subscription]:
        async with self._subscribe_once(
            game_id, after, self._listening, self._subscribe_timeout, "event hub"
        ) as subscription:
            yield subscription

    async def _listen(self) -> None:
        backoff = 0.05
        while True:
            try:
                reader, self._writer = await asyncio.open_unix_connection(self._path)
                self._listening.set()
                backoff = 0.05
                while True:
                    self._dispatch(await read_frame(reader))
            except (OSError, asyncio.IncompleteReadError, ValueError) as error:
                if self._listening.is_set():
                    log.warning("lost the event hub (%s); live subscriptions catch up", error)
                    self._listening.clear()
                    self._end_all(SubscriptionLost("lost the event hub; events may be missed", None))
            finally:
                if self._writer is not None:
                    self._writer.close()
                    self._writer = None
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 2.0)

    def _dispatch(self, body: bytes) -> None:
        game_id, _, payload = body.partition(b"\n")
        self._deliver_encoded(game_id.decode(), payload)
