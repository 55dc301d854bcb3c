"""Table talk: post, read a page, mute a seat (host), hide a seat (for oneself)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from api.deps import ChatDep, LanguageDep, TokenDep
from api.edge.input_limits import INT32_MAX
from api.openapi.contract import problems
from api.rest.models.chat import ChatEntryPublic, ChatMessageCreate, ChatPagePublic, ChatSettingsPublic
from domain.services.chat import ChatService

router = APIRouter(prefix="/v1/games", tags=["chat"])

SeatPath = Annotated[int, Path(ge=0, le=64, description="A seat of the game.")]
READ_PROBLEMS = ("game_not_found",)


def chat_page(
    chat: ChatService, game_id: str, token: str | None, after: int, limit: int, lang: str
) -> ChatPagePublic:
    reader, page = chat.page(game_id, token, after, limit)
    return ChatPagePublic(
        entries=[ChatEntryPublic.of(entry, lang) for entry in page.entries],
        last_seq=page.last_seq,
        muted=sorted(page.muted),
        hidden=sorted(page.hidden),
        seat=reader.seat,
        can_write=reader.can_write and reader.seat not in page.muted,
    )


@router.get("/{game_id}/chat", operation_id="readChat", openapi_extra=problems(*READ_PROBLEMS))
def read_chat(
    game_id: str,
    chat: ChatDep,
    token: TokenDep,
    lang: LanguageDep,
    response: Response,
    after: Annotated[int, Query(ge=0, le=INT32_MAX, description="Entries after this chat `seq`.")] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> ChatPagePublic:
    """The game's chat after `after`, as the token's reader sees it (any reader of the game)."""
    response.headers["Content-Language"] = lang
    return chat_page(chat, game_id, token, after, limit, lang)


@router.post(
    "/{game_id}/chat",
    status_code=201,
    operation_id="postChatMessage",
    openapi_extra=problems(
        *READ_PROBLEMS, "forbidden", "invalid_chat_message", "chat_muted", "chat_full", "chat_rate_limited"
    ),
)
def post_chat_message(
    game_id: str,
    body: ChatMessageCreate,
    chat: ChatDep,
    token: TokenDep,
    lang: LanguageDep,
    response: Response,
) -> ChatEntryPublic:
    """Write in the game's chat (a seat's token): text, or a phrase each reader sees in its language."""
    entry = chat.post(game_id, token, body.text, body.phrase)
    response.headers["Location"] = f"{router.prefix}/{game_id}/chat?after={entry.seq - 1}&limit=1"
    return ChatEntryPublic.of(entry, lang)


@router.put(
    "/{game_id}/chat/mutes/{seat}",
    operation_id="muteChatSeat",
    openapi_extra=problems(*READ_PROBLEMS, "forbidden", "seat_not_found", "chat_full"),
)
def mute_seat(game_id: str, seat: SeatPath, chat: ChatDep, token: TokenDep) -> ChatSettingsPublic:
    """Mute a seat (host token): it can no longer write here. Everyone sees a `muted` entry."""
    return ChatSettingsPublic.of(chat.mute(game_id, token, seat, True))


@router.delete(
    "/{game_id}/chat/mutes/{seat}",
    operation_id="unmuteChatSeat",
    openapi_extra=problems(*READ_PROBLEMS, "forbidden", "seat_not_found", "chat_full"),
)
def unmute_seat(game_id: str, seat: SeatPath, chat: ChatDep, token: TokenDep) -> ChatSettingsPublic:
    """Let a muted seat write again (host token)."""
    return ChatSettingsPublic.of(chat.mute(game_id, token, seat, False))


@router.put(
    "/{game_id}/chat/hidden/{seat}",
    operation_id="hideChatSeat",
    openapi_extra=problems(*READ_PROBLEMS, "forbidden", "seat_not_found", "chat_full", "chat_rate_limited"),
)
def hide_seat(game_id: str, seat: SeatPath, chat: ChatDep, token: TokenDep) -> ChatSettingsPublic:
    """Hide a seat's messages, past and future, for the token's seat only."""
    return ChatSettingsPublic.of(chat.hide(game_id, token, seat, True))


@router.delete(
    "/{game_id}/chat/hidden/{seat}",
    operation_id="showChatSeat",
    openapi_extra=problems(*READ_PROBLEMS, "forbidden", "seat_not_found", "chat_full", "chat_rate_limited"),
)
def show_seat(game_id: str, seat: SeatPath, chat: ChatDep, token: TokenDep) -> ChatSettingsPublic:
    """Show a hidden seat's messages again (the token's seat)."""
    return ChatSettingsPublic.of(chat.hide(game_id, token, seat, False))
