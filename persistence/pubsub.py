"""Brokers carrying committed events to live subscribers: in process, or across instances.

``publish`` is the domain's ``EventPublisher`` port. It is called from worker threads after a
commit, so it only hands events over (to the loop, or to Redis with a short timeout) and never
raises: the events are already durable and subscribers detect anything missed by ``seq``.
``subscribe`` is for async code on the broker's loop::

    async with broker.subscribe(game_id, after=last_seen_seq) as events:
        async for event in events:  # or: event = await events.get()
            ...
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

import redis
import redis.asyncio as aioredis

from domain.engine import Event
from domain.match import RecordedEvent
from persistence.errors import SubscriptionLost
from persistence.subscription import DEFAULT_GAP_TIMEOUT, DEFAULT_MAX_PENDING, Subscription

log = logging.getLogger(__name__)

DEFAULT_CHANNEL_PREFIX = "tabletop:game:"


class _LocalSubscribers:
    """The subscriptions of this process by game; touched only on the loop thread."""

    def __init__(self, max_pending: int, gap_timeout: float) -> None:
        self._max_pending = max_pending
        self._gap_timeout = gap_timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._by_game: dict[str, set[Subscription]] = {}

    def subscriber_count(self) -> int:
        """Live subscriptions in this process (safe to call from any thread, for metrics)."""
        return sum(len(subscriptions) for subscriptions in list(self._by_game.values()))

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError(f"{type(self).__name__} is not started; await start() first")
        return self._loop

    def _add(self, game_id: str, after: int | None) -> tuple[Subscription, bool]:
        """The new subscription, and whether it is the game's first here."""
        loop = self._running_loop()
        subscription = Subscription(game_id, loop, after, self._max_pending, self._gap_timeout)
        subscriptions = self._by_game.setdefault(game_id, set())
        subscriptions.add(subscription)
        return subscription, len(subscriptions) == 1

    def _remove(self, subscription: Subscription) -> bool:
        """Drop a subscription; whether it was the game's last here."""
        subscription.end()
        subscriptions = self._by_game.get(subscription.game_id)
        if subscriptions is None:
            return False
        subscriptions.discard(subscription)
        if subscriptions:
            return False
        del self._by_game[subscription.game_id]
        return True

    def _deliver(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        for subscription in list(self._by_game.get(game_id, ())):
            subscription.offer(events)

    def _end_all(self, error: SubscriptionLost | None) -> None:
        for subscriptions in list(self._by_game.values()):
            for subscription in list(subscriptions):
                subscription.end(error)


class InProcessBroker(_LocalSubscribers):
    """Fan-out inside one process (a single instance, or tests)."""

    def __init__(
        self, max_pending: int = DEFAULT_MAX_PENDING, gap_timeout: float = DEFAULT_GAP_TIMEOUT
    ) -> None:
        super().__init__(max_pending, gap_timeout)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        self._end_all(None)
        self._loop = None

    async def ping(self) -> None:
        """Readiness check: an in-process broker is ready once started."""
        self._running_loop()

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        loop = self._loop
        if loop is None or not events or game_id not in self._by_game:
            return  # nobody here can be listening
        try:
            loop.call_soon_threadsafe(self._deliver, game_id, tuple(events))
        except RuntimeError:  # the loop closed while we were publishing: nobody is listening
            log.debug("event loop closed; dropped %d events of game %s", len(events), game_id)

    @asynccontextmanager
    async def subscribe(
        self, game_id: str, after: int | None = None
    ) -> AsyncIterator[Subscription]:
        subscription, _ = self._add(game_id, after)
        try:
            yield subscription
        finally:
            self._remove(subscription)


class RedisBroker(_LocalSubscribers):
    """Fan-out across service instances through Redis pub/sub, one channel per game.

    Each instance runs one listener task on one pub/sub connection, subscribed only to the games
    that have local subscribers, and dispatches to them locally.
    """

    def __init__(
        self,
        url: str,
        *,
        channel_prefix: str = DEFAULT_CHANNEL_PREFIX,
        client_name: str = "tabletop-events",
        publish_timeout: float = 1.0,
        subscribe_timeout: float = 5.0,
        max_pending: int = DEFAULT_MAX_PENDING,
        gap_timeout: float = DEFAULT_GAP_TIMEOUT,
    ) -> None:
        super().__init__(max_pending, gap_timeout)
        self._url = url
        self._prefix = channel_prefix
        self._subscribe_timeout = subscribe_timeout
        self.client_name = client_name
        # A thread-safe pool; short timeouts so a Redis outage never stalls a request thread.
        self._publisher = redis.Redis.from_url(
            url, socket_timeout=publish_timeout, socket_connect_timeout=publish_timeout
        )
        self._client: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._confirmations: dict[str, list[asyncio.Future[None]]] = {}

    def channel(self, game_id: str) -> str:
        return f"{self._prefix}{game_id}"

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._connected = asyncio.Event()
        self._client = aioredis.Redis.from_url(
            self._url, health_check_interval=30, client_name=self.client_name
        )
        self._pubsub = self._client.pubsub()
        self._listener = asyncio.create_task(self._listen(), name="tabletop-redis-listener")

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        self._end_all(None)
        if self._pubsub is not None:
            await self._pubsub.aclose()
            self._pubsub = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        self._publisher.close()
        self._loop = None

    async def ping(self) -> None:
        """Readiness check: raises if Redis does not answer PING."""
        if self._client is None:
            raise RuntimeError("RedisBroker is not started; await start() first")
        await self._client.ping()

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        """One round trip for the whole batch; failures are logged, never raised."""
        if not events:
            return
        channel = self.channel(game_id)
        try:
            with self._publisher.pipeline(transaction=False) as pipe:
                for event in events:
                    pipe.publish(channel, encode(event))
                pipe.execute()
        except redis.RedisError as error:
            log.warning(
                "could not publish %d events of game %s to Redis: %s", len(events), game_id, error
            )

    @asynccontextmanager
    async def subscribe(
        self, game_id: str, after: int | None = None
    ) -> AsyncIterator[Subscription]:
        subscription, first = self._add(game_id, after)
        try:
            await self._listen_to(self.channel(game_id), first)
            yield subscription
        finally:
            if self._remove(subscription) and self._pubsub is not None:
                try:
                    await self._pubsub.unsubscribe(self.channel(game_id))
                except (redis.RedisError, OSError) as error:
                    log.warning("could not unsubscribe from game %s: %s", game_id, error)

    async def _listen_to(self, channel: str, first: bool) -> None:
        """Return once Redis confirmed the channel, so no event published after it is missed."""
        if not first and channel not in self._confirmations:
            return
        confirmed = self._running_loop().create_future()
        self._confirmations.setdefault(channel, []).append(confirmed)
        try:
            if first:
                await self._pubsub.subscribe(channel)
                self._connected.set()
            await asyncio.wait_for(confirmed, self._subscribe_timeout)
        finally:
            waiting = self._confirmations.get(channel, [])
            if confirmed in waiting:
                waiting.remove(confirmed)
            if not waiting:
                self._confirmations.pop(channel, None)

    async def _listen(self) -> None:
        backoff = 0.1
        while True:
            await self._connected.wait()
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (redis.RedisError, OSError) as error:
                log.warning(
                    "lost the Redis pub/sub connection (%s); ending live subscriptions", error
                )
                self._end_all(
                    SubscriptionLost("lost the connection to Redis; events may be missed", None)
                )
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            backoff = 0.1
            if message is not None:
                self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        channel = _text(message["channel"])
        if kind == "subscribe":
            for confirmed in self._confirmations.pop(channel, []):
                if not confirmed.done():
                    confirmed.set_result(None)
        elif kind == "message" and channel.startswith(self._prefix):
            try:
                event = decode(message["data"])
            except (ValueError, KeyError, TypeError) as error:
                log.warning("ignored a malformed event on %s: %s", channel, error)
                return
            self._deliver(channel.removeprefix(self._prefix), (event,))


def encode(recorded: RecordedEvent) -> str:
    """The wire format: ``{"seq", "type", "data", "private"}`` with seats as string keys."""
    event = recorded.event
    return json.dumps(
        {
            "seq": recorded.seq,
            "type": event.type,
            "data": dict(event.data),
            "private": {str(seat): dict(data) for seat, data in event.private.items()},
        }
    )


def decode(payload: bytes | str) -> RecordedEvent:
    fields = json.loads(payload)
    private = {int(seat): data for seat, data in fields["private"].items()}
    return RecordedEvent(int(fields["seq"]), Event(fields["type"], fields["data"], private))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
