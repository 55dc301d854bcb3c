"""The ``gameEvents`` subscription: a game's events as the token's seat may see them."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.graphql.common import (
    container_of,
    lang_of,
    token_of,
)
from api.graphql.play import (
    Event,
    offer_of,
)
from api.live import attending, follower_of, game_event_stream


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
        follower = await follower_of(container, game_id, token)
        async with attending(container, follower):
            stream = game_event_stream(container, game_id, follower.seat, max(0, after), follower.final_seq)
            async for event, _live, _seat in stream:
                yield Event(
                    seq=event["seq"],
                    type=event["type"],
                    data=event["data"],
                    game_type=follower.game_type,
                    next=offer_of(event["next"], follower.game_type, language),
                )
