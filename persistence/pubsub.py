"""Brokers carrying committed events to live subscribers: in process, or across instances.

Each is the domain's ``EventBroker`` port (``domain.ports.events``). ``publish`` is called from worker
threads after a commit, so it only hands events over (to the loop, or to the thread that publishes
to Redis) and never waits or raises: the events are already durable and subscribers detect anything missed
by ``seq``.
``subscribe`` is for async code on the broker's loop::

    async with broker.subscribe(game_id, after=last_seen_seq) as events:
        async for event in events:  # or: event = await events.get()
            ...
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

import redis
import redis.asyncio as aioredis

from domain.engine import Event
from domain.model.match import RecordedEvent
from domain.ports.events import SubscriptionLost
from persistence import fast_json
from persistence.subscription import DEFAULT_GAP_TIMEOUT, DEFAULT_MAX_PENDING, Subscription

log = logging.getLogger(__name__)

DEFAULT_CHANNEL_PREFIX = "tabletop:game:"
DEFAULT_PUBLISH_BUFFER = 10_000
"""Messages waiting for Redis at most: beyond that a publish is dropped (subscribers see the gap
and catch up from the database), so an outage never holds the commits that publish."""
MAX_PIPELINE = 1_000
"""Messages per pipeline at most (one round trip each)."""


class BufferedPublisher:
    """Publishes to Redis from one thread of its own: ``put`` only appends to a bounded buffer
    and returns, and the thread sends everything waiting in one pipeline, one round trip, in the
    order it was put (so each game's events keep their ``seq`` order). The commits of a batch,
    answered together, publish together. While Redis is unreachable the thread retries with a
    growing pause; what it could not send and what does not fit in the buffer is dropped, logged and
    counted (``dropped``): the events are durable, and subscribers detect the gap and catch up from
    the database."""

    def __init__(self, client: redis.Redis, capacity: int = DEFAULT_PUBLISH_BUFFER) -> None:
        self._client = client
        self.capacity = capacity
        self._waiting: deque[tuple[str, str]] = deque()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closing = False
        self.dropped = 0
        """Messages never sent (buffer full, or Redis failed them)."""
        self.round_trips = 0
        """Pipelines sent: with ``sent``, how many messages shared a round trip."""
        self.sent = 0

    def put(self, messages: Sequence[tuple[str, str]], what: str) -> None:
        """Queue (channel, payload) messages; never blocks on Redis, never raises."""
        with self._changed:
            if self._closing:
                return
            if len(self._waiting) + len(messages) > self.capacity:
                self.dropped += len(messages)
                log.warning("Redis publish buffer full (%d waiting): dropped %s", len(self._waiting), what)
                return
            self._waiting.extend(messages)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._send, name="tabletop-redis-publisher", daemon=True
                )
                self._thread.start()
            self._changed.notify()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def close(self, timeout: float = 2.0) -> None:
        """Send what is waiting (within ``timeout``), then stop the thread."""
        with self._changed:
            self._closing = True
            self._changed.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _send(self) -> None:
        pause = 0.05
        while True:
            with self._changed:
                while not self._waiting and not self._closing:
                    self._changed.wait()
                if not self._waiting:
                    return
                taken = [self._waiting.popleft() for _ in range(min(MAX_PIPELINE, len(self._waiting)))]
            try:
                with self._client.pipeline(transaction=False) as pipe:
                    for channel, payload in taken:
                        pipe.publish(channel, payload)
                    pipe.execute()
            except redis.RedisError as error:
                # Logged before it is counted: whoever sees the count can read the log.
                log.warning("could not publish %d events to Redis: %s", len(taken), error)
                with self._changed:
                    self.dropped += len(taken)
                    closing = self._closing
                if closing:
                    return
                time.sleep(pause)
                pause = min(pause * 2, 1.0)
                continue
            pause = 0.05
            with self._changed:
                self.round_trips += 1
                self.sent += len(taken)


class _LocalSubscribers:
    """The subscriptions of this process by game; touched only on the loop thread."""

    def __init__(self, max_pending: int, gap_timeout: float) -> None:
        self._max_pending = max_pending
        self._gap_timeout = gap_timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._by_game: dict[str, set[Subscription]] = {}
        self._listener: asyncio.Task[None] | None = None

    async def _stop_listening(self) -> None:
        """Cancel the task that feeds this process, then end every local subscription."""
        if self._listener is not None:
            self._listener.cancel()
            with suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        self._end_all(None)

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

    def _deliver_encoded(self, game_id: str, payload: bytes | str) -> None:
        """Decode and deliver one event from the wire, unless nobody here follows its game."""
        if game_id not in self._by_game:
            return  # skip the decoding
        try:
            event = decode(payload)
        except (ValueError, KeyError, TypeError) as error:
            log.warning("ignored a malformed event of game %s: %s", game_id, error)
            return
        self._deliver(game_id, (event,))

    @asynccontextmanager
    async def _subscribe_once(
        self, game_id: str, after: int | None, ready: asyncio.Event, timeout: float, source: str
    ) -> AsyncIterator[Subscription]:
        """A subscription that is yielded once ``ready`` is set (the instance's link to the other
        processes is up); ``SubscriptionLost`` after ``timeout`` so the caller catches up from
        storage and tries again."""
        subscription, _ = self._add(game_id, after)
        try:
            if not ready.is_set():
                try:
                    await asyncio.wait_for(ready.wait(), timeout)
                except TimeoutError:
                    raise SubscriptionLost(
                        f"live events are unavailable ({source} unreachable); catching up from storage",
                        after,
                    ) from None
            yield subscription
        finally:
            self._remove(subscription)

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
    async def subscribe(self, game_id: str, after: int | None = None) -> AsyncIterator[Subscription]:
        subscription, _ = self._add(game_id, after)
        try:
            yield subscription
        finally:
            self._remove(subscription)


class RedisBroker(_LocalSubscribers):
    """Fan-out across service instances through Redis pub/sub, one channel per game.

    Each instance holds a single pattern subscription to every game's channel, made once when the
    listener connects (and again after a reconnection), and dispatches locally to the games that
    have subscribers here; other games' messages are dropped before decoding. A subscription per
    game made on demand looked cheaper, but under load its SUBSCRIBE confirmations queued behind
    message traffic on the shared connection and dozens of games starting at once timed out
    (issue 16); with one standing subscription a new subscriber waits for nothing but readiness.
    Every instance then receives every game's events: the price is one message per event per
    instance, which is small next to the request that produced it.
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
        publish_buffer: int = DEFAULT_PUBLISH_BUFFER,
    ) -> None:
        super().__init__(max_pending, gap_timeout)
        self._url = url
        self._prefix = channel_prefix
        self._subscribe_timeout = subscribe_timeout
        self.client_name = client_name
        # Short timeouts: the publishing thread notices an outage soon and drops instead of waiting.
        self._publisher = redis.Redis.from_url(
            url, socket_timeout=publish_timeout, socket_connect_timeout=publish_timeout
        )
        self.publishing = BufferedPublisher(self._publisher, publish_buffer)
        self._client: aioredis.Redis | None = None
        self._listening = asyncio.Event()

    def channel(self, game_id: str) -> str:
        return f"{self._prefix}{game_id}"

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._listening = asyncio.Event()
        self._client = aioredis.Redis.from_url(
            self._url, health_check_interval=30, client_name=self.client_name
        )
        self._listener = asyncio.create_task(self._listen(), name="tabletop-redis-listener")

    async def stop(self) -> None:
        await self._stop_listening()
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        await asyncio.to_thread(self.publishing.close)
        self._publisher.close()
        self.publishing = BufferedPublisher(self._publisher, self.publishing.capacity)  # a restart
        self._loop = None

    async def ping(self) -> None:
        """Readiness check: raises if Redis does not answer PING."""
        if self._client is None:
            raise RuntimeError("RedisBroker is not started; await start() first")
        await self._client.ping()

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        """Hands the events to the publishing thread (``BufferedPublisher``): never waits for
        Redis, never raises; everything published meanwhile shares one pipeline."""
        if not events:
            return
        channel = self.channel(game_id)
        self.publishing.put(
            [(channel, encode(event)) for event in events], f"{len(events)} events of game {game_id}"
        )

    @asynccontextmanager
    async def subscribe(self, game_id: str, after: int | None = None) -> AsyncIterator[Subscription]:
        """A live subscription, once the instance's pattern subscription is confirmed.

        Raises ``SubscriptionLost`` when Redis is unreachable for ``subscribe_timeout``: the
        caller catches up from the database and tries again.
        """
        async with self._subscribe_once(
            game_id, after, self._listening, self._subscribe_timeout, "Redis"
        ) as subscription:
            yield subscription

    async def _listen(self) -> None:
        """Hold the pattern subscription; after a lost connection, end the live subscriptions (their
        streams catch up from the database) and subscribe again with a growing pause."""
        assert self._client is not None
        backoff = 0.1
        while True:
            pubsub: Any = self._client.pubsub()
            try:
                await pubsub.psubscribe(f"{self._prefix}*")
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._dispatch(message)
                        backoff = 0.1
            except (redis.RedisError, OSError) as error:
                was_listening = self._listening.is_set()
                self._listening.clear()
                if was_listening:
                    log.warning("lost the Redis pub/sub connection (%s); live subscriptions catch up", error)
                    self._end_all(
                        SubscriptionLost("lost the connection to Redis; events may be missed", None)
                    )
            finally:
                with suppress(redis.RedisError, OSError, RuntimeError):
                    await pubsub.aclose()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "psubscribe":
            self._listening.set()
            return
        if kind != "pmessage":
            return
        self._deliver_encoded(_text(message["channel"]).removeprefix(self._prefix), message["data"])


def encode(recorded: RecordedEvent) -> str:
    """The wire format: ``{"seq", "type", "data", "private", "next"}`` with seats as string keys.
    orjson (``persistence.fast_json``): a 2 kB event with its ``next`` offers in 4 µs instead of
    21, read in 6 instead of 13 (bench/README.md); ``json`` reads what it writes and back."""
    event = recorded.event
    fields: dict[str, Any] = {
        "seq": recorded.seq,
        "type": event.type,
        "data": dict(event.data),
        "private": {str(seat): dict(data) for seat, data in event.private.items()},
    }
    if recorded.next_for:
        fields["next"] = {str(seat): dict(offer) for seat, offer in recorded.next_for.items()}
    return fast_json.dumps(fields)


def decode(payload: bytes | str) -> RecordedEvent:
    fields = fast_json.loads(payload)
    private = {int(seat): data for seat, data in fields["private"].items()}
    next_for = {int(seat): offer for seat, offer in fields.get("next", {}).items()}
    return RecordedEvent(int(fields["seq"]), Event(fields["type"], fields["data"], private), next_for)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
