"""Keep-alives for a stream that may stay idle (the game's and the tournament's SSE streams):
its items, and a mark whenever a period passes without one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, TypeVar

T = TypeVar("T")


async def with_heartbeats(events: AsyncIterator[T], period: float) -> AsyncGenerator[T | None, None]:
    """Each of ``events``, and None whenever ``period`` passes without one. Waiting for the next
    event is never cancelled by a heartbeat (that would close the event stream): the same pending
    read is awaited again. Closed, it cancels a pending read (which ends the events as it unwinds:
    it is running) or else closes the events. Close it (``contextlib.aclosing``) where it is read."""
    pending: asyncio.Task[Any] | None = None
    try:
        while True:
            if pending is None:
                pending = asyncio.ensure_future(anext(events))
            done, _ = await asyncio.wait({pending}, timeout=period)
            if not done:
                yield None
                continue
            try:
                item = pending.result()
            except StopAsyncIteration:
                return
            pending = None
            yield item
    finally:
        if pending is not None:
            pending.cancel()
        elif isinstance(events, AsyncGenerator):
            await events.aclose()
