"""Brokers carrying committed events to live subscribers, in process and across instances."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis

from api.bootstrap import build_container
from api.settings import Settings
from domain.engine import JSON, Event
from domain.model.match import RecordedEvent
from domain.ports.events import SubscriptionClosed, SubscriptionLost
from persistence.pubsub import InProcessBroker, RedisBroker, decode, encode
from persistence.subscription import Subscription
from tests.support.waiting import eventually_async

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(30)]


def recorded(seq: int, private: dict[int, dict[str, JSON]] | None = None) -> RecordedEvent:
    return RecordedEvent(seq, Event("tick", {"n": seq}, private or {}))


async def take(subscription: Subscription, count: int) -> list[int]:
    return [(await asyncio.wait_for(subscription.get(), 5)).seq for _ in range(count)]


@pytest.fixture
async def broker() -> AsyncIterator[InProcessBroker]:
    broker = InProcessBroker(gap_timeout=0.2)
    await broker.start()
    yield broker
    await broker.stop()


async def test_events_published_from_worker_threads_arrive_in_order(
    broker: InProcessBroker,
) -> None:
    async with broker.subscribe("g1") as events, broker.subscribe("g2") as elsewhere:
        assert broker.subscriber_count() == 2

        def worker() -> None:
            for seq in range(1, 201, 2):
                broker.publish("g1", [recorded(seq), recorded(seq + 1)])

        thread = threading.Thread(target=worker)
        thread.start()
        received = await take(events, 200)
        thread.join()

        assert received == list(range(1, 201))
        assert elsewhere.empty()
    assert broker.subscriber_count() == 0


async def test_every_subscriber_of_a_game_gets_every_event(broker: InProcessBroker) -> None:
    async with broker.subscribe("g") as first, broker.subscribe("g") as second:
        await asyncio.to_thread(broker.publish, "g", [recorded(1), recorded(2)])
        assert await take(first, 2) == await take(second, 2) == [1, 2]


async def test_commits_published_out_of_order_are_delivered_in_seq_order(
    broker: InProcessBroker,
) -> None:
    async with broker.subscribe("g", after=4) as events:
        for batch in ([recorded(7)], [recorded(5), recorded(6)], [recorded(3), recorded(8)]):
            await asyncio.to_thread(broker.publish, "g", batch)
        assert await take(events, 4) == [5, 6, 7, 8]
        assert events.last_seq == 8


async def test_a_gap_that_never_fills_ends_the_subscription_with_where_to_resume(
    broker: InProcessBroker,
) -> None:
    async with broker.subscribe("g", after=0) as events:
        broker.publish("g", [recorded(1), recorded(3)])
        assert await take(events, 1) == [1]
        with pytest.raises(SubscriptionLost) as lost:
            await asyncio.wait_for(events.get(), 5)
        assert lost.value.last_seq == 1


async def test_a_subscriber_that_falls_behind_is_told_after_its_queued_events() -> None:
    broker = InProcessBroker(max_pending=3)
    await broker.start()
    try:
        async with broker.subscribe("g") as events:
            broker.publish("g", [recorded(seq) for seq in range(1, 6)])
            await asyncio.sleep(0.05)
            assert await take(events, 5) == [1, 2, 3, 4, 5]
            with pytest.raises(SubscriptionLost, match="fell behind"):
                await events.get()
    finally:
        await broker.stop()


async def test_stopping_the_broker_ends_iteration(broker: InProcessBroker) -> None:
    async with broker.subscribe("g") as events:
        broker.publish("g", [recorded(1)])
        consumer = asyncio.create_task(_collect(events))
        await asyncio.sleep(0.05)
        await broker.stop()
        assert await asyncio.wait_for(consumer, 5) == [1]
        with pytest.raises(SubscriptionClosed):
            await events.get()


async def test_publishing_without_subscribers_or_before_start_is_harmless() -> None:
    broker = InProcessBroker()
    broker.publish("g", [recorded(1)])
    with pytest.raises(RuntimeError, match="not started"):
        async with broker.subscribe("g"):
            pass
    await broker.start()
    broker.publish("nobody-listens", [recorded(1)])
    await broker.ping()
    await broker.stop()


async def _collect(events: Subscription) -> list[int]:
    return [event.seq async for event in events]


def test_the_wire_format_keeps_private_data_per_seat() -> None:
    event = recorded(9, {0: {"bonus": 11}, 2: {"bonus": 12}})
    assert decode(encode(event)) == event


# -- Redis: two brokers stand for two service instances -------------------------------------------


@pytest.fixture
async def two_instances(
    redis_url: str, channel_prefix: str
) -> AsyncIterator[tuple[RedisBroker, RedisBroker]]:
    a = RedisBroker(redis_url, channel_prefix=channel_prefix)
    b = RedisBroker(redis_url, channel_prefix=channel_prefix)
    await a.start()
    await b.start()
    yield a, b
    await a.stop()
    await b.stop()


@pytest.mark.redis
async def test_events_published_on_one_instance_reach_subscribers_on_another_in_order(
    two_instances: tuple[RedisBroker, RedisBroker],
) -> None:
    a, b = two_instances
    async with b.subscribe("g1") as on_b, a.subscribe("g1") as on_a, b.subscribe("g2") as other:
        assert b.subscriber_count() == 2

        def worker() -> None:
            for seq in range(1, 101, 4):
                a.publish("g1", [recorded(s, {1: {"secret": s}}) for s in range(seq, seq + 4)])

        await asyncio.to_thread(worker)
        assert await take(on_b, 100) == list(range(1, 101))
        assert await take(on_a, 100) == list(range(1, 101))
        assert other.empty()
    assert b.subscriber_count() == 0


@pytest.mark.redis
async def test_private_data_survives_the_trip_through_redis(
    two_instances: tuple[RedisBroker, RedisBroker],
) -> None:
    a, b = two_instances
    async with b.subscribe("g") as events:
        await asyncio.to_thread(a.publish, "g", [recorded(1, {0: {"bonus": 10}})])
        event = await asyncio.wait_for(events.get(), 5)
    assert event == recorded(1, {0: {"bonus": 10}})
    assert event.for_viewer(0)["data"] == {"n": 1, "bonus": 10}
    assert event.for_viewer(1)["data"] == {"n": 1}


@pytest.mark.redis
async def test_an_instance_follows_every_game_with_one_standing_pattern_subscription(
    redis_url: str, channel_prefix: str
) -> None:
    """Per-game SUBSCRIBE confirmations queued behind message traffic and timed out when dozens of
    games started at once (issue 16); now many games subscribed at once need no Redis round trip."""
    name = f"tabletop-pat-{channel_prefix.split(':')[0][-12:]}"
    a = RedisBroker(redis_url, channel_prefix=channel_prefix)
    b = RedisBroker(redis_url, channel_prefix=channel_prefix, client_name=name)
    await a.start()
    await b.start()
    admin = redis.Redis.from_url(redis_url)
    try:
        games = [f"g{i}" for i in range(200)]
        async with contextlib.AsyncExitStack() as stack:
            subscriptions = [await stack.enter_async_context(b.subscribe(game)) for game in games]
            ours = [c for c in admin.client_list(_type="pubsub") if c["name"] == name]
            assert [(int(c["sub"]), int(c["psub"])) for c in ours] == [(0, 1)]
            for game in games:
                await asyncio.to_thread(a.publish, game, [recorded(1), recorded(2)])
            for subscription in subscriptions:
                assert await take(subscription, 2) == [1, 2]
    finally:
        admin.close()
        await a.stop()
        await b.stop()


async def test_subscribing_while_redis_is_unreachable_says_the_live_feed_is_lost() -> None:
    broker = RedisBroker("redis://127.0.0.1:1/0", subscribe_timeout=0.3)
    await broker.start()
    try:
        with pytest.raises(SubscriptionLost, match="Redis unreachable"):
            async with broker.subscribe("g", after=3):
                pass
    finally:
        await broker.stop()


async def test_publishing_to_an_unreachable_redis_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broker = RedisBroker("redis://127.0.0.1:1/0", publish_timeout=0.2)
    await broker.start()
    try:
        await asyncio.to_thread(broker.publish, "g", [recorded(1)])
        await eventually_async(lambda: _true(broker.publishing.dropped == 1), 10, "dropped")
        assert "could not publish 1 events to Redis" in caplog.text
        with pytest.raises(redis.ConnectionError):
            await broker.ping()
    finally:
        await broker.stop()


async def _true(value: bool) -> bool:
    return value


async def test_an_outage_never_holds_a_publisher_and_the_buffer_stays_bounded(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Commits publish while Redis does not answer: each publish returns without waiting for it
    (the publishing thread is stuck connecting), at most the buffer's capacity waits, the rest is
    dropped and said; every message is accounted for as dropped once Redis keeps failing."""
    broker = RedisBroker("redis://127.0.0.1:1/0", publish_timeout=0.5, publish_buffer=5)
    await broker.start()
    try:

        def commits() -> None:
            for seq in range(1, 21):
                broker.publish("g", [recorded(seq)])
                assert broker.publishing.waiting <= 5

        await asyncio.to_thread(commits)
        assert "Redis publish buffer full" in caplog.text
        await eventually_async(lambda: _true(broker.publishing.dropped == 20), 20, "all dropped")
        assert broker.publishing.sent == 0
    finally:
        await broker.stop()


@pytest.mark.redis
async def test_events_published_meanwhile_share_one_pipeline_in_order(
    two_instances: tuple[RedisBroker, RedisBroker],
) -> None:
    """What the commits of a batch publish while the publishing thread is busy goes to Redis in
    one round trip, each game's events in their order."""
    a, b = two_instances
    async with b.subscribe("g1") as first, b.subscribe("g2") as second:
        before, sent = a.publishing.round_trips, a.publishing.sent

        def batch() -> None:
            # Holding the publisher's lock stands for a thread busy with the previous pipeline.
            with a.publishing._changed:
                for seq in range(1, 51):
                    a.publish("g1", [recorded(seq)])
                    a.publish("g2", [recorded(seq)])

        await asyncio.to_thread(batch)
        assert await take(first, 50) == list(range(1, 51))
        assert await take(second, 50) == list(range(1, 51))
        await eventually_async(lambda: _true(a.publishing.sent - sent == 100), 10, "counted")
        assert a.publishing.round_trips - before == 1
        assert a.publishing.dropped == 0


@pytest.mark.redis
async def test_a_reachable_redis_answers_the_readiness_ping(
    two_instances: tuple[RedisBroker, RedisBroker],
) -> None:
    await two_instances[0].ping()


@pytest.mark.redis
async def test_a_lost_redis_connection_ends_subscriptions_and_the_next_one_recovers(
    redis_url: str, channel_prefix: str
) -> None:
    name = f"tabletop-it-{channel_prefix.split(':')[0][-12:]}"
    a = RedisBroker(redis_url, channel_prefix=channel_prefix)
    b = RedisBroker(redis_url, channel_prefix=channel_prefix, client_name=name)
    await a.start()
    await b.start()
    admin = redis.Redis.from_url(redis_url)
    try:
        async with b.subscribe("g") as events:
            ours = [c["id"] for c in admin.client_list(_type="pubsub") if c["name"] == name]
            assert len(ours) == 1
            admin.client_kill_filter(_id=ours[0])
            with pytest.raises(SubscriptionLost, match="lost the connection to Redis"):
                await asyncio.wait_for(events.get(), 5)

        async with b.subscribe("g", after=6) as resumed:
            await asyncio.to_thread(a.publish, "g", [recorded(7), recorded(8)])
            assert await take(resumed, 2) == [7, 8]
    finally:
        admin.close()
        await a.stop()
        await b.stop()


def test_the_wire_format_reads_what_json_wrote_and_json_reads_it() -> None:
    """Instances of two releases meet on one Redis during an upgrade: ``json`` wrote the events
    before orjson did, and each must read the other's."""
    event = recorded(9, {0: {"bonus": 11}, 2: {"name": "Zoë ✓"}})
    assert decode(json.dumps(json.loads(encode(event)))) == event
    assert json.loads(encode(event))["private"]["2"] == {"name": "Zoë ✓"}


@pytest.mark.redis
async def test_deployments_with_their_own_channel_prefix_share_a_redis_without_meeting(
    redis_url: str, channel_prefix: str, tmp_path: Path
) -> None:
    """``TABLETOP_REDIS_CHANNEL_PREFIX`` reaches the broker, and a broker listens only to its own
    prefix: two deployments on one Redis (pub/sub ignores the db number) never receive each
    other's events, even for the same game id."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'prefix.db'}",
        redis_url=redis_url,
        redis_channel_prefix=channel_prefix,
    )
    container = build_container(settings)
    assert isinstance(container.broker, RedisBroker)
    assert container.broker.channel("g") == f"{channel_prefix}g"
    ours, theirs = container.broker, RedisBroker(redis_url, channel_prefix=f"other-{channel_prefix}")
    await ours.start()
    await theirs.start()
    try:
        async with ours.subscribe("g") as mine, theirs.subscribe("g") as others:
            await asyncio.to_thread(ours.publish, "g", [recorded(1, {})])
            assert (await asyncio.wait_for(mine.get(), 5)).seq == 1
            # Each broker gets its messages in the order they were published: had ours' 1 reached
            # theirs, it would be the first event there.
            await asyncio.to_thread(theirs.publish, "g", [recorded(7, {})])
            assert (await asyncio.wait_for(others.get(), 5)).seq == 7
            # Had theirs' 7 reached ours, it would wait there for 2 to 6 and follow them at once.
            await asyncio.to_thread(ours.publish, "g", [recorded(seq, {}) for seq in range(2, 7)])
            assert await take(mine, 5) == [2, 3, 4, 5, 6]
            assert mine.empty()
    finally:
        await ours.stop()
        await theirs.stop()
