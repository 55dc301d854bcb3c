"""The ``gameEvents`` subscription: a game's events as the token's seat may see them."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from functools import partial

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.graphql.common import (
    container_of,
    lang_of,
    token_of,
)
from api.graphql.fanout import LiveEvent, Route, direct_next
from api.graphql.play import Event, event_of, offer_of
from api.live.game_events import FollowedEvent, attending, follower_of, game_event_stream
from domain.catalog import GameCatalog


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
        catalog = container.core.registry.catalog(follower.game_type)
        direct, route = direct_next(), Route()
        async with attending(container, follower):
            stream = game_event_stream(container, game_id, follower.seat, max(0, after), follower.final_seq)
            async for event, live, seat in stream:
                build = partial(_event, event, follower.game_type, catalog, language)
                if not live:
                    yield build()
                    continue
                # The same for every follower of this game seeing it as ``seat`` in ``language``:
                # executed and encoded by the first of them (api.graphql.fanout); the others, once
                # their route is known, write those bytes with their own id straight to their socket.
                group = (game_id, event["seq"], seat, language)
                shared = route.shared(group) if direct is not None else None
                if shared is None:
                    yield LiveEvent(group, build, route)  # type: ignore[misc]
                else:
                    await direct.send(shared)  # type: ignore[union-attr]


def _event(shown: FollowedEvent, game_type: str, catalog: GameCatalog | None, language: str) -> Event:
    return event_of(shown, game_type, offer_of(shown["next"], game_type, catalog, language))
