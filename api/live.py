"""The live event stream behind the GraphQL subscription: history first, then live, no gap, no duplicate."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool

from api.container import Container
from domain.match import RecordedEvent
from persistence.errors import SubscriptionLost

TERMINAL_EVENTS = frozenset({"game_over", "game_aborted"})
HISTORY_PAGE = 1000


async def game_event_stream(
    container: Container, game_id: str, seat: int | None, after: int, final_seq: int | None = None
) -> AsyncIterator[dict[str, Any]]:
    """Events of a game after ``after`` as ``seat`` sees them; ends after the game's last event.

    ``final_seq`` is the last sequence number of a game already over when the subscription began
    (None while it is in progress): a client that already has it gets an empty, completed stream.

    The live subscription opens before the history is read, so nothing published in between is
    lost, and it starts right after the last event read from history, so nothing comes twice.
    If the live feed loses its place (a gap that does not fill, a subscriber too slow), the
    stream re-subscribes and catches up from the database.
    """
    last = after
    while True:
        try:
            async with container.broker.subscribe(game_id) as live:
                async for event in _catch_up(container, game_id, last):
                    yield event.for_viewer(seat)
                    last = event.seq
                    if event.event.type in TERMINAL_EVENTS:
                        return
                if final_seq is not None and last >= final_seq:
                    return  # nothing more will come: the client already has the end
                while True:
                    event = await live.get()
                    if event.seq <= last:
                        continue
                    if event.seq > last + 1:
                        async for missed in _catch_up(container, game_id, last, event.seq - 1):
                            yield missed.for_viewer(seat)
                            last = missed.seq
                    yield event.for_viewer(seat)
                    last = event.seq
                    if event.event.type in TERMINAL_EVENTS:
                        return
                    # A commit wakes every subscriber with a burst of events that are all ready at
                    # once; without yielding, one subscriber would send its whole burst before the
                    # next sends anything, and the last subscriber's reveal would wait behind all.
                    await asyncio.sleep(0)
        except SubscriptionLost:
            continue


async def _catch_up(
    container: Container, game_id: str, after: int, until: int | None = None
) -> AsyncIterator[RecordedEvent]:
    """Stored events after ``after`` (up to ``until``), page by page."""
    while True:
        page: list[RecordedEvent] = await run_in_threadpool(
            container.service.history, game_id, after, HISTORY_PAGE
        )
        for event in page:
            if until is not None and event.seq > until:
                return
            yield event
            after = event.seq
        if len(page) < HISTORY_PAGE:
            return
