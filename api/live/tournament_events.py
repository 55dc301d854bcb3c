"""A tournament's live events, behind its SSE stream and the ``tournamentEvents`` subscription:
the stored events after the client's last one first, then live from the broker's
``tournament:{id}`` channel, no gap, nothing twice, until the tournament's last event.

A tournament's events are public (as its standings are): every follower sees the same ones, so
each live event is encoded once for all of them (``api.live.game_events.EncodedEvents``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from functools import partial

from starlette.concurrency import run_in_threadpool

from api.bootstrap import Container
from api.live import history
from domain.model.match import RecordedEvent
from domain.ports.events import SubscriptionLost
from domain.services.tournaments import tournament_channel
from domain.tournaments.tournament import TournamentStatus

TERMINAL_EVENTS = frozenset({"tournament_finished", "tournament_cancelled"})
HISTORY_PAGE = 1000
RESUBSCRIBE_PAUSE = 0.05


@dataclass(frozen=True, slots=True)
class TournamentFollower:
    """A tournament being followed and, when it was already over as following began, its last
    ``seq`` (None while it runs or takes registrations)."""

    tournament_id: str
    final_seq: int | None


async def tournament_follower(container: Container, tournament_id: str) -> TournamentFollower:
    """Refused as a read of the tournament is (``tournament_not_found``)."""
    tournament = await run_in_threadpool(container.tournaments.get, tournament_id)
    over = tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    return TournamentFollower(tournament.id, tournament.version if over else None)


async def tournament_event_stream(
    container: Container, tournament_id: str, after: int, final_seq: int | None = None
) -> AsyncGenerator[tuple[RecordedEvent, bool], None]:
    """Events of a tournament after ``after``, each with ``True`` when it came live; ends after
    its last event (``tournament_finished`` or ``tournament_cancelled``).

    The live subscription opens before the stored events are read and starts right after the
    last of them, so nothing published in between is lost and nothing comes twice; a gap in the
    live feed is filled from storage, and a lost feed (the broker's link down) is caught up from
    storage before subscribing again."""
    channel = tournament_channel(tournament_id)
    last = after
    while True:
        try:
            async with container.broker.subscribe(channel) as live:
                async for event in _stored(container, tournament_id, last):
                    yield event, False
                    last = event.seq
                    if event.event.type in TERMINAL_EVENTS:
                        return
                if final_seq is not None and last >= final_seq:
                    return
                while True:
                    event = await live.get()
                    if event.seq <= last:
                        continue
                    if event.seq > last + 1:
                        async for missed in _stored(container, tournament_id, last, event.seq - 1):
                            yield missed, False
                            last = missed.seq
                    yield event, True
                    last = event.seq
                    if event.event.type in TERMINAL_EVENTS:
                        return
                    await asyncio.sleep(0)
        except SubscriptionLost:
            async for event in _stored(container, tournament_id, last):
                yield event, False
                last = event.seq
                if event.event.type in TERMINAL_EVENTS:
                    return
            await asyncio.sleep(RESUBSCRIBE_PAUSE)


def _stored(
    container: Container, tournament_id: str, after: int, until: int | None = None
) -> AsyncIterator[RecordedEvent]:
    return history.stored(partial(container.tournaments.events, tournament_id), after, HISTORY_PAGE, until)
