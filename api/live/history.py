"""Stored events read page by page, off the event loop: how a live stream (a game's events, a
tournament's, a game's chat) catches up from storage before and between live events."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from typing import Protocol, TypeVar

from starlette.concurrency import run_in_threadpool


class Sequenced(Protocol):
    @property
    def seq(self) -> int: ...


S = TypeVar("S", bound=Sequenced)


async def stored(
    read: Callable[[int, int], Sequence[S]], after: int, page: int, until: int | None = None
) -> AsyncIterator[S]:
    """What ``read(after, page)`` returns after ``after`` (up to ``until``), ``page`` at a time."""
    while True:
        found = await run_in_threadpool(read, after, page)
        for item in found:
            if until is not None and item.seq > until:
                return
            yield item
            after = item.seq
        if len(found) < page:
            return
