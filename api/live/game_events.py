"""The live event stream behind the GraphQL subscription and the SSE stream: history first, then
live, no gap, no duplicate; each live event encoded once per viewer, whoever else follows it."""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Hashable
from dataclasses import dataclass
from functools import partial

from starlette.concurrency import run_in_threadpool

from api.bootstrap import Container
from api.live import history
from domain.model.match import Offer, RecordedEvent, ShownEvent, quits
from domain.ports.events import SubscriptionLost

TERMINAL_EVENTS = frozenset({"game_over", "game_aborted"})
HISTORY_PAGE = 1000
RESUBSCRIBE_PAUSE = 0.05
"""Seconds between a lost live feed and the next subscription attempt (after a catch-up)."""


@dataclass(frozen=True, slots=True)
class Follower:
    """Who follows a game and from where: the viewer's seat (None: a spectator or the host) and,
    for a game already over when following began, its last ``seq``."""

    game_id: str
    game_type: str
    seat: int | None
    final_seq: int | None


async def follower_of(container: Container, game_id: str, token: str | None) -> Follower:
    """The token's viewer of a game, refused as any read of the game is (unknown game, foreign token)."""
    match = await run_in_threadpool(container.core.load, game_id)
    seat = container.core.viewer(match, token).seat
    return Follower(game_id, match.game_type, seat, match.last_seq if match.is_over else None)


@contextlib.asynccontextmanager
async def attending(container: Container, follower: Follower) -> AsyncIterator[None]:
    """While the body runs: one more open subscription, and the seat shown as present (a seat
    following a game in progress)."""
    container.metrics.active_subscriptions.inc()
    try:
        present = (
            await run_in_threadpool(container.presence.connect, follower.game_id, follower.seat)
            if follower.seat is not None and follower.final_seq is None
            else None
        )
        try:
            yield
        finally:
            if present is not None:
                await _disconnect(container, present)
    finally:
        container.metrics.active_subscriptions.dec()


async def _disconnect(container: Container, connection_id: str) -> None:
    """End a seat's presence, even while the stream's task is being cancelled (a closed socket or
    HTTP connection): shielded, so a second cancellation cannot leave the row behind until it expires."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.shield(run_in_threadpool(container.presence.disconnect, connection_id))


class EncodedEvents:
    """Live events already encoded, by (game, seq, viewer's seat, language, format): the bytes
    that every follower in that group receives, made by the first of them to get there.

    A commit wakes every follower of its game at once; without this each one would turn the same
    event into the same bytes again. Only live events are kept (their ``next`` comes from the commit
    and never changes); the least recently used entries go first."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._encoded: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, key: Hashable, encode: Callable[[], bytes]) -> bytes:
        found = self._encoded.get(key)
        if found is not None:
            self._encoded.move_to_end(key)
            return found
        made = self._encoded[key] = encode()
        if len(self._encoded) > self._size:
            self._encoded.popitem(last=False)
        return made

    def __len__(self) -> int:
        return len(self._encoded)


async def game_event_stream(
    container: Container, game_id: str, seat: int | None, after: int, final_seq: int | None = None
) -> AsyncGenerator[tuple[FollowedEvent, bool, int | None], None]:
    """Events of a game after ``after`` as ``seat`` sees them; ends after the game's last event.

    ``final_seq`` is the last sequence number of a game already over when the subscription began
    (None while it is in progress): a client that already has it gets an empty, completed stream.

    The live subscription opens before the history is read, so nothing published in between is
    lost, and it starts right after the last event read from history, so nothing comes twice.
    If the live feed loses its place (a gap that does not fill, a subscriber too slow, the broker's
    connection lost), the stream catches up from the database and subscribes again; while Redis
    is down that amounts to polling the database every few seconds.

    Each event shown to a seat has ``next``: what that seat must decide right after it (decision,
    legal choices, version), or None. Live events carry it from the commit that made them; the
    last event read from storage gets it from the game's current state when nothing newer exists.

    Yields each shown event with ``True`` when it came live from a commit (the same for every
    follower of this seat: see ``EncodedEvents``), ``False`` when it was read from storage, and
    the seat it was shown as (None once the seat left: a resigned seat watches as a spectator).
    """
    last = after
    while True:
        try:
            async with container.broker.subscribe(game_id) as live:
                async for event, shown in _stored(container, game_id, seat, last):
                    yield shown, False, seat
                    last, seat = event.seq, _still_seated(event, seat)
                    if event.event.type in TERMINAL_EVENTS:
                        return
                if final_seq is not None and last >= final_seq:
                    return  # nothing more will come: the client already has the end
                while True:
                    event = await live.get()
                    if event.seq <= last:
                        continue
                    if event.seq > last + 1:
                        async for missed, shown in _stored(container, game_id, seat, last, event.seq - 1):
                            yield shown, False, seat
                            last, seat = missed.seq, _still_seated(missed, seat)
                    seat = _still_seated(event, seat)
                    yield _shown(event, seat), True, seat
                    last = event.seq
                    if event.event.type in TERMINAL_EVENTS:
                        return
                    # A commit wakes every subscriber with a burst of events that are all ready at
                    # once; without yielding, one subscriber would send its whole burst before the
                    # next sends anything, and the last subscriber's reveal would wait behind all.
                    await asyncio.sleep(0)
        except SubscriptionLost:
            # The live feed lost its place or is unavailable (Redis down): hand over what is
            # stored, pause briefly so an outage is not a busy loop, then subscribe again.
            async for event, shown in _stored(container, game_id, seat, last):
                yield shown, False, seat
                last, seat = event.seq, _still_seated(event, seat)
                if event.event.type in TERMINAL_EVENTS:
                    return
            await asyncio.sleep(RESUBSCRIBE_PAUSE)


def _still_seated(event: RecordedEvent, seat: int | None) -> int | None:
    """Who sees ``event``: a seat that resigned or forfeited sees it, and all that follows, as a
    spectator."""
    return None if quits(event.event, seat) else seat


class FollowedEvent(ShownEvent):
    """An event as a follower's seat sees it, with what that seat must decide right after it."""

    next: Offer | None


def _shown(event: RecordedEvent, seat: int | None) -> FollowedEvent:
    shown = event.for_viewer(seat)
    offer = event.next_for.get(seat) if seat is not None else None
    return FollowedEvent(seq=shown["seq"], type=shown["type"], data=shown["data"], next=offer)


async def _stored(
    container: Container, game_id: str, seat: int | None, after: int, until: int | None = None
) -> AsyncIterator[tuple[RecordedEvent, FollowedEvent]]:
    """Stored events after ``after`` (up to ``until``) as ``seat`` sees them. Held back by one, so
    that the last one, when it is the game's latest, can carry the seat's current decision."""
    held: RecordedEvent | None = None
    async for event in _catch_up(container, game_id, after, until):
        if held is not None:
            seat = _still_seated(held, seat)
            yield held, _shown(held, seat)
        held = event
    if held is None:
        return
    seat = _still_seated(held, seat)
    shown = _shown(held, seat)
    if seat is not None and until is None and held.event.type not in TERMINAL_EVENTS:
        latest, offer = await run_in_threadpool(container.play.next_after, game_id, seat)
        if latest == held.seq:
            shown["next"] = offer
    yield held, shown


def _catch_up(
    container: Container, game_id: str, after: int, until: int | None = None
) -> AsyncIterator[RecordedEvent]:
    """Stored events after ``after`` (up to ``until``), page by page."""
    return history.stored(partial(container.reads.history, game_id), after, HISTORY_PAGE, until)
