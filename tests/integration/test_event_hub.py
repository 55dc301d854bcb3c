"""The worker processes' event hub (``--workers N`` on SQLite): a frame published by one worker's
broker reaches the subscribers of every worker, in order; a worker that loses the hub ends its live
subscriptions (their streams catch up from storage) and a subscription waits for the hub."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from domain.engine import Event
from domain.model.match import RecordedEvent
from domain.ports.events import SubscriptionLost
from persistence.event_hub import EventHub, HubBroker

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(30)]


def recorded(seq: int) -> RecordedEvent:
    return RecordedEvent(seq, Event("tick", {"n": seq}, {}))


@pytest.fixture
async def hub(tmp_path: Path) -> AsyncIterator[EventHub]:
    hub = EventHub(str(tmp_path / "hub.sock"))
    await hub.start()
    yield hub
    await hub.stop()


async def started(path: str, subscribe_timeout: float = 5.0) -> HubBroker:
    broker = HubBroker(path, subscribe_timeout=subscribe_timeout)
    await broker.start()
    return broker


async def test_events_published_by_one_worker_reach_the_subscribers_of_every_worker(
    hub: EventHub,
) -> None:
    one, two = await started(hub.path), await started(hub.path)
    try:
        async with one.subscribe("g") as here, two.subscribe("g") as there, two.subscribe("x") as other:

            def worker() -> None:  # publish is called from worker threads after a commit
                for seq in range(1, 101):
                    one.publish("g", [recorded(seq)])

            thread = threading.Thread(target=worker)
            thread.start()
            for subscription in (here, there):
                seqs = [(await asyncio.wait_for(subscription.get(), 5)).seq for _ in range(100)]
                assert seqs == list(range(1, 101))
            thread.join()
            assert other.empty()
    finally:
        await one.stop()
        await two.stop()


async def test_losing_the_hub_ends_live_subscriptions_so_they_catch_up(hub: EventHub) -> None:
    broker = await started(hub.path)
    try:
        async with broker.subscribe("g") as events:
            await hub.stop()
            with pytest.raises(SubscriptionLost):
                await asyncio.wait_for(events.get(), 5)
    finally:
        await broker.stop()


async def test_a_subscription_without_a_hub_is_refused_after_its_timeout(tmp_path: Path) -> None:
    broker = await started(str(tmp_path / "nobody.sock"), subscribe_timeout=0.3)
    try:
        with pytest.raises(SubscriptionLost):
            async with broker.subscribe("g", after=7):
                pass
    finally:
        await broker.stop()
