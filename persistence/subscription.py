"""One live subscriber's stream of a game's events, in ``seq`` order, on the event loop.

Events can reach a broker out of order: two commits in quick succession are published by two
worker threads, and the later one may get there first. Each subscription therefore delivers by
``seq``: it holds early arrivals until the gap fills, drops what it already has, and gives up
(``SubscriptionLost``) when a gap stays open or the subscriber falls too far behind, rather than
silently skipping events. Everything here runs on the loop thread only, so it needs no locks.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable

from domain.model.match import RecordedEvent
from domain.ports.events import SubscriptionClosed, SubscriptionLost

DEFAULT_MAX_PENDING = 1_000
DEFAULT_GAP_TIMEOUT = 2.0


class Subscription:
    """Async iterator (and queue-like ``get``) of one game's events for one subscriber.

    Pass ``after`` (the last ``seq`` the subscriber already has, e.g. from history) to get every
    later event and nothing twice; without it, delivery starts at the first event that arrives.
    """

    def __init__(
        self,
        game_id: str,
        loop: asyncio.AbstractEventLoop,
        after: int | None = None,
        max_pending: int = DEFAULT_MAX_PENDING,
        gap_timeout: float = DEFAULT_GAP_TIMEOUT,
    ) -> None:
        self.game_id = game_id
        self._loop = loop
        self._next_seq = after + 1 if after is not None else None
        self._ready: deque[RecordedEvent] = deque()
        self._early: dict[int, RecordedEvent] = {}
        self._max_pending = max_pending
        self._gap_timeout = gap_timeout
        self._gap_timer: asyncio.TimerHandle | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._ended = False
        self._error: SubscriptionLost | None = None

    @property
    def last_seq(self) -> int | None:
        """The ``seq`` of the last event handed over (or queued for handing over)."""
        return self._next_seq - 1 if self._next_seq is not None else None

    @property
    def ended(self) -> bool:
        return self._ended

    def qsize(self) -> int:
        return len(self._ready)

    def empty(self) -> bool:
        return not self._ready

    # -- producer side (broker, loop thread) ------------------------------------------------------

    def offer(self, events: Iterable[RecordedEvent]) -> None:
        if self._ended:
            return
        for event in events:
            if self._next_seq is None:
                self._next_seq = event.seq
            if event.seq >= self._next_seq:
                self._early[event.seq] = event
        while self._next_seq is not None and self._next_seq in self._early:
            self._ready.append(self._early.pop(self._next_seq))
            self._next_seq += 1
        if len(self._ready) + len(self._early) > self._max_pending:
            self.end(
                SubscriptionLost(
                    f"subscriber of game {self.game_id} fell behind; reload events after {self.last_seq}",
                    self.last_seq,
                )
            )
            return
        self._watch_gap()
        self._wake()

    def end(self, error: SubscriptionLost | None = None) -> None:
        """Stop delivery; queued events are still handed over, then ``error`` (or the end)."""
        if self._ended:
            return
        self._ended = True
        self._error = error
        self._early.clear()
        if self._gap_timer is not None:
            self._gap_timer.cancel()
            self._gap_timer = None
        self._wake()

    def _watch_gap(self) -> None:
        if not self._early:
            if self._gap_timer is not None:
                self._gap_timer.cancel()
                self._gap_timer = None
        elif self._gap_timer is None:
            self._gap_timer = self._loop.call_later(self._gap_timeout, self._gap_expired)

    def _gap_expired(self) -> None:
        self._gap_timer = None
        if self._early and not self._ended:
            self.end(
                SubscriptionLost(
                    f"events of game {self.game_id} after {self.last_seq} never arrived; reload "
                    f"events after {self.last_seq}",
                    self.last_seq,
                )
            )

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    # -- consumer side ----------------------------------------------------------------------------

    async def get(self) -> RecordedEvent:
        """The next event; raises ``SubscriptionLost`` or ``SubscriptionClosed`` once it ended."""
        while not self._ready:
            if self._ended:
                if self._error is not None:
                    raise self._error
                raise SubscriptionClosed(f"the broker stopped; no more events of {self.game_id}")
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._ready.popleft()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> RecordedEvent:
        try:
            return await self.get()
        except SubscriptionClosed:
            raise StopAsyncIteration from None
