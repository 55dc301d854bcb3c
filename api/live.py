"""The live event stream behind the GraphQL subscription: history first, then live, no gap, no duplicate."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool

from api.container import Container
from domain.match import RecordedEvent

TERMINAL_EVENTS = frozenset({"game_over", "game_aborted"})
HISTORY_PAGE = 1000


async def game_event_stream(
    container: Container, game_id: str, seat: int | None, after: int
) -> AsyncIterator[dict[str, Any]]:
    """Events of a game after ``after`` as ``seat`` sees them; ends after the game's last event.

    The live subscription opens before the history is read, so nothing published in between is
    lost; anything at or below the last sequence already sent is dropped, and a jump in sequence
    numbers (a message lost between instances) is filled from the database.
    """
    service = container.service
    async with container.broker.subscribe(game_id) as queue:
        last = after
        while True:
            backlog: list[RecordedEvent] = await run_in_threadpool(
                service.history, game_id, last, HISTORY_PAGE
            )
            for event in backlog:
                yield event.for_viewer(seat)
                last = event.seq
                if event.event.type in TERMINAL_EVENTS:
                    return
            if len(backlog) < HISTORY_PAGE:
                break
        while True:
            event = await queue.get()
            if event.seq <= last:
                continue
            if event.seq > last + 1:
                missing = await run_in_threadpool(
                    service.history, game_id, last, event.seq - last - 1
                )
                for gap_event in missing:
                    yield gap_event.for_viewer(seat)
                    last = gap_event.seq
            yield event.for_viewer(seat)
            last = event.seq
            if event.event.type in TERMINAL_EVENTS:
                return
