"""Server-Sent Events: a game's events for clients that do not speak GraphQL (mobile, plain web).

The same stream as the ``gameEvents`` subscription (``api.live.game_events``): history after the client's last
event, then live, no gap, no duplicate, each event as the token's seat may see it with ``next``,
that seat's decision right after it. An ``EventSource`` reconnects by itself with
``Last-Event-ID`` (each event's ``id`` is its ``seq``); once the game is over and the client has
its last event, the answer is 204, which tells an ``EventSource`` to stop reconnecting.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response, StreamingResponse

from api.bootstrap import Container
from api.deps import ContainerDep, LanguageDep, TokenDep
from api.edge.input_limits import INT32_MAX
from api.live.chat import chat_reader, chat_stream, with_chat
from api.live.game_events import (
    EncodedEvents,
    FollowedEvent,
    Follower,
    attending,
    follower_of,
    game_event_stream,
)
from api.live.heartbeats import with_heartbeats
from api.openapi.contract import problems
from api.rest.models.chat import ChatEntryPublic
from api.rest.models.games import translated_decision
from api.rest.models.play import ChoicesPublic
from domain.catalog import GameCatalog
from domain.model.chat import ChatEntry, Reader

router = APIRouter(prefix="/v1/games", tags=["games"])

MEDIA_TYPE = "text/event-stream"
RETRY_MILLISECONDS = 2000
"""Sent first: how long an ``EventSource`` waits before it reconnects."""
HEARTBEAT = b": keep-alive\n\n"
ENCODED = EncodedEvents()
"""Per process: a live event is encoded once per (game, seq, seat, language) for every stream."""

STREAM_EXAMPLE = (
    "retry: 2000\n\n"
    "id: 7\nevent: choice_sealed\n"
    'data: {"seq":7,"type":"choice_sealed","game_type":"keythedral","data":{"seat":1,"sealed":[1],'
    '"waiting":[0]},"next":null}\n\n'
    ": keep-alive\n\n"
)
STREAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "An event stream (`text/event-stream`). Each event: `id` = its `seq`, `event` "
        "= its type, `data` = one line of JSON `{seq, type, game_type, data, next}` (a "
        "`StreamEvent`: one schema per game type, told apart by `game_type`) where `next` is a "
        "`ChoicesPublic` (the seat's decision right after the event, prompt in `lang`) or null. "
        "Comment lines (`: keep-alive`) come every `TABLETOP_STREAM_HEARTBEAT_SECONDS` while idle. "
        "The stream ends after `game_over` or `game_aborted`. With `chat=true` the game's chat "
        "comes too, as `event: chat` messages whose `data` is a `ChatEntryPublic`; every `id` is "
        "then `<event seq>.<chat seq>` (both positions, so `Last-Event-ID` resumes both) and the "
        "stream goes on after the game's end until the client leaves.",
        "content": {
            MEDIA_TYPE: {
                # One server-sent event (the fields of the text format); ``data`` is the JSON line.
                "schema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?$"},
                        "event": {"type": "string"},
                        "data": {
                            "type": "string",
                            "contentMediaType": "application/json",
                            "contentSchema": {
                                "anyOf": [
                                    {"$ref": "#/components/schemas/StreamEvent"},
                                    {"$ref": "#/components/schemas/ChatEntryPublic"},
                                ]
                            },
                            "description": "One line of JSON: a `StreamEvent` (narrowed by "
                            "`game_type`), or with `event: chat` a `ChatEntryPublic`.",
                        },
                        "retry": {"type": "integer"},
                    },
                },
                "example": STREAM_EXAMPLE,
            }
        },
    },
    204: {"description": "The game is over and the client already has its last event: stop."},
}

LastEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        pattern=r"^[0-9]{1,10}(\.[0-9]{1,10})?$",
        description="The `id` (= `seq`) of the last event received, sent by an `EventSource` when it "
        "reconnects: the stream resumes right after it. Takes precedence over `after` (and, as "
        "`<event seq>.<chat seq>` with `chat=true`, over `chat_after`).",
    ),
]
EventsAfter = Annotated[
    int, Query(ge=0, le=INT32_MAX, description="Start after this event (0: from the first).")
]


def resumed_at(after: int, chat_after: int, last_event_id: str | None) -> tuple[int, int]:
    """Where a stream starts: after ``after`` (and, with the chat, ``chat_after``) unless an
    ``EventSource`` reconnects with ``Last-Event-ID`` (``<event seq>`` or ``<event seq>.<chat seq>``)."""
    if last_event_id is None:
        return after, chat_after
    event_part, _, chat_part = last_event_id.partition(".")
    return min(int(event_part), INT32_MAX), min(int(chat_part), INT32_MAX) if chat_part else chat_after


def event_stream(frames: AsyncIterator[bytes], headers: dict[str, str] | None = None) -> StreamingResponse:
    """The stream's answer: Server-Sent Events that neither a cache nor a proxy's buffer holds back."""
    return StreamingResponse(
        frames,
        media_type=MEDIA_TYPE,
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", **(headers or {})},
    )


@router.get(
    "/{game_id}/stream",
    operation_id="streamEvents",
    response_class=StreamingResponse,
    responses=STREAM_RESPONSES,
    openapi_extra=problems("game_not_found", ("too_many_streams", 429), ("too_many_streams", 503)),
)
async def stream_events(
    game_id: str,
    container: ContainerDep,
    token: TokenDep,
    lang: LanguageDep,
    after: EventsAfter = 0,
    last_event_id: LastEventId = None,
    chat: Annotated[
        bool, Query(description="Also the game's chat, as `event: chat` messages (see `chat_after`).")
    ] = False,
    chat_after: Annotated[
        int, Query(ge=0, le=INT32_MAX, description="With `chat`: start after this chat `seq`.")
    ] = 0,
) -> Response:
    """The game's events as Server-Sent Events, as the token's seat may see them: history after
    `after` (or `Last-Event-ID`), then live; resumable, with heartbeats; ends with the game (with
    `chat=true`, the game's chat comes too and the stream goes on after the game)."""
    start, chat_start = resumed_at(after, chat_after, last_event_id)
    follower = await follower_of(container, game_id, token)
    reader = await chat_reader(container, game_id, token) if chat else None
    if follower.final_seq is not None and start >= follower.final_seq and reader is None:
        return Response(status_code=204)
    period = container.settings.stream_heartbeat_seconds
    talk = (reader, chat_start) if reader is not None else None
    return event_stream(_frames(container, follower, start, lang, period, talk), {"Content-Language": lang})


async def _frames(
    container: Container,
    follower: Follower,
    after: int,
    lang: str,
    period: float,
    talk: tuple[Reader, int] | None = None,
) -> AsyncIterator[bytes]:
    """The stream's bytes: the retry delay, then each event, a heartbeat whenever ``period``
    passes without one (``api.live.heartbeats``). With ``talk`` (the chat's
    reader and where it starts) the chat's entries come too, and each ``id`` holds both places."""
    yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    catalog = container.core.registry.catalog(follower.game_type)
    async with attending(container, follower):
        events: AsyncIterator[Any] = game_event_stream(
            container, follower.game_id, follower.seat, after, follower.final_seq
        )
        chat_last = 0
        if talk is not None:
            reader, chat_last = talk
            events = with_chat(events, chat_stream(container, follower.game_id, reader, chat_last))
        async with contextlib.aclosing(with_heartbeats(events, period)) as paced:
            async for item in paced:
                if item is None:
                    yield HEARTBEAT
                elif isinstance(item, ChatEntry):
                    chat_last = item.seq
                    yield _chat_frame(item, f"{after}.{chat_last}", lang)
                else:
                    shown, live, seat = item
                    after = shown["seq"]
                    if talk is not None:
                        yield _frame(shown, follower.game_type, catalog, lang, f"{after}.{chat_last}")
                    elif live:
                        key = (follower.game_id, shown["seq"], seat, lang)
                        yield ENCODED.get(key, partial(_frame, shown, follower.game_type, catalog, lang))
                    else:
                        yield _frame(shown, follower.game_type, catalog, lang)


def _chat_frame(entry: ChatEntry, event_id: str, lang: str) -> bytes:
    data = ChatEntryPublic.of(entry, lang).model_dump_json()
    return f"id: {event_id}\nevent: chat\ndata: {data}\n\n".encode()


def _frame(
    shown: FollowedEvent, game_type: str, catalog: GameCatalog | None, lang: str, event_id: str | None = None
) -> bytes:
    """One event as an SSE message; its ``data`` is one line of JSON (no newline can occur)."""
    offer = shown["next"]
    choices = (
        ChoicesPublic(
            game_type=game_type,
            version=offer["version"],
            decision_version=offer["decision_version"],
            decision=translated_decision(offer["decision"], catalog, lang),
            choices=offer["choices"],
        ).model_dump(mode="json")
        if offer is not None
        else None
    )
    body = {
        "seq": shown["seq"],
        "type": shown["type"],
        "game_type": game_type,
        "data": shown["data"],
        "next": choices,
    }
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return f"id: {event_id or shown['seq']}\nevent: {shown['type']}\ndata: {data}\n\n".encode()
