"""GraphQL table talk: read the chat, post, mute (host), hide (for oneself), and follow it live."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Annotated

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.edge.input_limits import INT32_MAX
from api.graphql.common import Problem, attempt, container_of, in_range, lang_of, token_of
from api.live.chat import chat_reader, chat_stream
from api.rest.models.chat import ChatEntryPublic, ChatMessageCreate, ChatSettingsPublic
from api.rest.routers.chat import chat_page


@strawberry.type(description="One line of a game's chat (its `seq` is the chat's own).")
class ChatEntry:
    seq: int
    kind: str = strawberry.field(
        description="message; muted/unmuted (by the host, about target); hidden/shown (seat hid "
        "target for itself: only that seat sees these)."
    )
    seat: int | None
    target: int | None
    text: str | None = strawberry.field(
        description="Plain text, never HTML; a phrase's text in the reader's language."
    )
    phrase: str | None
    created_at: datetime


@strawberry.type
class ChatSettings:
    muted: list[int]
    hidden: list[int]


@strawberry.type
class ChatPage:
    entries: list[ChatEntry]
    last_seq: int
    muted: list[int]
    hidden: list[int]
    seat: int | None
    can_write: bool


ChatPageResult = Annotated[ChatPage | Problem, strawberry.union("ChatPageResult")]
ChatEntryResult = Annotated[ChatEntry | Problem, strawberry.union("ChatEntryResult")]
ChatSettingsResult = Annotated[ChatSettings | Problem, strawberry.union("ChatSettingsResult")]


def entry_of(public: ChatEntryPublic) -> ChatEntry:
    return ChatEntry(**public.model_dump())


@strawberry.type
class ChatQuery:
    @strawberry.field(description="A game's chat after `after`, as the token's reader sees it.")
    async def chat(
        self, info: Info, game_id: ID, after: int = 0, limit: int = 100, lang: str | None = None
    ) -> ChatPageResult:
        chat, token, language = container_of(info).chat, token_of(info), lang_of(info, lang)

        def read() -> ChatPage:
            start = in_range("after", after, 0, INT32_MAX)
            page = chat_page(chat, game_id, token, start, in_range("limit", limit, 1, 500), language)
            values = page.model_dump(exclude={"entries"})
            return ChatPage(**values, entries=[entry_of(e) for e in page.entries])

        return await attempt(read)


@strawberry.type
class ChatMutation:
    @strawberry.mutation(
        description="Write in a game's chat (a seat's token): `text`, or a `phrase` code "
        "(hello, good_luck, your_turn, thinking, one_moment, well_played, oops, thanks, "
        "good_game, bye) that each reader sees in its language."
    )
    async def post_chat_message(
        self,
        info: Info,
        game_id: ID,
        text: str | None = None,
        phrase: str | None = None,
        lang: str | None = None,
    ) -> ChatEntryResult:
        chat, token, language = container_of(info).chat, token_of(info), lang_of(info, lang)

        def post() -> ChatEntry:
            body = ChatMessageCreate(text=text, phrase=phrase)
            return entry_of(ChatEntryPublic.of(chat.post(game_id, token, body.text, body.phrase), language))

        return await attempt(post)

    @strawberry.mutation(description="Mute (or, muted: false, unmute) a seat in the chat: host token.")
    async def mute_chat_seat(
        self, info: Info, game_id: ID, seat: int, muted: bool = True
    ) -> ChatSettingsResult:
        chat, token = container_of(info).chat, token_of(info)

        def mute() -> ChatSettings:
            public = ChatSettingsPublic.of(chat.mute(game_id, token, seat, muted))
            return ChatSettings(**public.model_dump())

        return await attempt(mute)

    @strawberry.mutation(
        description="Hide (or, hidden: false, show again) a seat's messages for the token's seat only."
    )
    async def hide_chat_seat(
        self, info: Info, game_id: ID, seat: int, hidden: bool = True
    ) -> ChatSettingsResult:
        chat, token = container_of(info).chat, token_of(info)

        def hide() -> ChatSettings:
            public = ChatSettingsPublic.of(chat.hide(game_id, token, seat, hidden))
            return ChatSettings(**public.model_dump())

        return await attempt(hide)


@strawberry.type
class ChatSubscription:
    @strawberry.subscription(
        description="A game's chat as the token's reader sees it: entries after `after` (the "
        "chat's own `seq`), then live, no gap, no duplicate. It does not end with the game."
    )
    async def chat_messages(
        self, info: Info, game_id: ID, after: int = 0, lang: str | None = None
    ) -> AsyncGenerator[ChatEntry, None]:
        container, language = container_of(info), lang_of(info, lang)
        reader = await chat_reader(container, game_id, token_of(info))
        async for entry in chat_stream(container, game_id, reader, max(0, after)):
            yield entry_of(ChatEntryPublic.of(entry, language))
