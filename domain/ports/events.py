"""Live events: what carries committed events to the subscribers of a game."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from domain.model.match import RecordedEvent


class EventPublisher(Protocol):
    """Fans committed events out to live subscribers (in process, or across instances)."""

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None: ...


class SubscriptionLost(Exception):
    """A live subscriber may have missed events (it fell behind, a gap never filled, or the broker
    lost its link to the other processes). Reload history after ``last_seq`` and subscribe again."""

    def __init__(self, message: str, last_seq: int | None) -> None:
        super().__init__(message)
        self.last_seq = last_seq


class SubscriptionClosed(Exception):
    """The broker stopped; no more events will come on this subscription."""


class LiveEvents(Protocol):
    """One subscriber's events of a channel, in ``seq`` order and none twice."""

    async def get(self) -> RecordedEvent:
        """The next event; ``SubscriptionLost`` when some may be missing, ``SubscriptionClosed``
        once the broker stopped."""
        ...


class EventBroker(EventPublisher, Protocol):
    """Carries committed events to live subscribers: in this process, to the other worker
    processes, to other instances. ``publish`` is called from any thread after a commit and never
    raises (the events are durable; a subscriber notices a gap by ``seq``); the rest runs on the
    event loop, between ``start`` and ``stop``."""

    async def start(self) -> None: ...

    async def stop(self) -> None:
        """Ends every subscription (``SubscriptionClosed``)."""
        ...

    async def ping(self) -> None:
        """Raises unless published events reach the other instances now (readiness)."""
        ...

    def subscribe(self, game_id: str, after: int | None = None) -> AbstractAsyncContextManager[LiveEvents]:
        """The events published on ``game_id`` (a game, or a game's chat channel) from now on, or
        every one after ``after`` when given; ``SubscriptionLost`` if the link to the other
        processes is not up in time."""
        ...
