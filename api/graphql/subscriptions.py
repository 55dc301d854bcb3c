"""The ``gameEvents`` subscription: a game's events as the token's seat may see them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry import ID
from strawberry.types import Info

from api.container import Container
from api.graphql.common import (
    container_of,
    lang_of,
    token_of,
)
from api.graphql.play import (
    Event,
    offer_of,
)
from api.live import game_event_stream


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="A game's events as the token's seat may see them: history after `after`, "
        "then live (reveals the moment the last seat seals). Ends with the game. `next` is the "
        "seat's decision right after an event, its prompt in `lang` (else Accept-Language)."
    )
    async def game_events(
        self, info: Info, game_id: ID, after: int = 0, lang: str | None = None
    ) -> AsyncGenerator[Event, None]:
        container, token, language = container_of(info), token_of(info), lang_of(info, lang)
        match = await run_in_threadpool(container.service.load, game_id)
        seat = container.service.viewer(match, token).seat
        final_seq = match.last_seq if match.is_over else None
        metrics = container.metrics
        metrics.active_subscriptions.inc()
        present = (
            await run_in_threadpool(container.presence.connect, game_id, seat)
            if seat is not None and final_seq is None
            else None
        )
        try:
            async for event in game_event_stream(
                container, game_id, seat, max(0, after), final_seq
            ):
                yield Event(
                    seq=event["seq"],
                    type=event["type"],
                    data=event["data"],
                    game_type=match.game_type,
                    next=offer_of(event["next"], match.game_type, language),
                )
        finally:
            metrics.active_subscriptions.dec()
            if present is not None:
                await _disconnect(container, present)


async def _disconnect(container: Container, connection_id: str) -> None:
    """End a seat's presence, even while the subscription's task is being cancelled (a closed
    socket): shielded, so a second cancellation cannot leave the row behind until it expires."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.shield(run_in_threadpool(container.presence.disconnect, connection_id))
