"""A game's chat, live: stored entries after the reader's last, then live ones, no gap, no
duplicate, as that reader sees them (its hidden seats left out, others' hides never shown).

It follows the chat's own channel on the broker (``domain.model.chat.chat_channel``), the way
``api.live.game_events`` follows the game's: the same brokers, the same sequence checks (a gap that does not
fill, a slow reader or a lost broker makes it catch up from storage and subscribe again). Unlike a
game's events, the chat has no last entry: the stream runs until the reader leaves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from functools import partial
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from api.bootstrap import Container
from api.live import history
from domain.model.chat import HIDDEN, SHOWN, ChatEntry, ChatState, Reader, chat_channel
from domain.ports.events import SubscriptionLost

PAGE = 500
T = TypeVar("T")
RESUBSCRIBE_PAUSE = 0.05


async def chat_reader(container: Container, game_id: str, token: str | None) -> Reader:
    """The token's reader, refused as any read of the game is (unknown game, foreign token)."""
    reader, _ = await run_in_threadpool(container.chat.follow, game_id, token)
    return reader


class _Filter:
    """What a reader sees: its hidden seats as they stand when the stream (re)starts, then as its
    own ``hidden`` / ``shown`` entries after that point change them."""

    def __init__(self, reader: Reader, state: ChatState) -> None:
        self.reader = reader
        self.hidden = set(state.hidden)
        self.since = state.last_seq

    def shows(self, entry: ChatEntry) -> bool:
        if entry.seq > self.since and entry.seat == self.reader.seat and entry.target is not None:
            if entry.kind == HIDDEN:
                self.hidden.add(entry.target)
            elif entry.kind == SHOWN:
                self.hidden.discard(entry.target)
        return entry.visible_to(self.reader.seat, frozenset(self.hidden))


async def chat_stream(
    container: Container, game_id: str, reader: Reader, after: int
) -> AsyncGenerator[ChatEntry, None]:
    """The chat's entries after ``after`` that ``reader`` sees: history, then live."""
    last = after
    while True:
        try:
            async with container.broker.subscribe(chat_channel(game_id)) as live:
                state = await run_in_threadpool(container.chat.state, game_id, reader)
                seen = _Filter(reader, state)
                async for entry in _stored(container, game_id, last):
                    last = entry.seq
                    if seen.shows(entry):
                        yield entry
                while True:
                    event = await live.get()
                    if event.seq <= last:
                        continue
                    if event.seq > last + 1:
                        async for missed in _stored(container, game_id, last, event.seq - 1):
                            last = missed.seq
                            if seen.shows(missed):
                                yield missed
                    entry = ChatEntry.of_event(game_id, event)
                    last = entry.seq
                    if seen.shows(entry):
                        yield entry
        except SubscriptionLost:
            await asyncio.sleep(RESUBSCRIBE_PAUSE)  # then catch up from storage, and listen again


def _stored(
    container: Container, game_id: str, after: int, until: int | None = None
) -> AsyncIterator[ChatEntry]:
    return history.stored(partial(container.chat.entries, game_id), after, PAGE, until)


async def with_chat(
    events: AsyncIterator[T], chat: AsyncIterator[ChatEntry]
) -> AsyncGenerator[T | ChatEntry, None]:
    """A game's events and its chat entries as they come, each source in its own order; the chat
    goes on after the game's events end (people say "good game" after the last move)."""
    reading: dict[asyncio.Future[Any], AsyncIterator[Any]] = {}

    def read(source: AsyncIterator[Any]) -> None:
        reading[asyncio.ensure_future(anext(source))] = source

    read(events)
    read(chat)
    try:
        while reading:
            done, _ = await asyncio.wait(reading, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                source = reading.pop(task)
                try:
                    item = task.result()
                except StopAsyncIteration:
                    continue
                yield item
                read(source)
    finally:
        for task in reading:
            task.cancel()  # each read ends its stream as it unwinds (it is running)
