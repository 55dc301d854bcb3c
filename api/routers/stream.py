"""Server-Sent Events: a game's events for clients that do not speak GraphQL (mobile, plain web).

The same stream as the ``gameEvents`` subscription (``api.live``): history after the client's last
event, then live, no gap, no duplicate, each event as the token's seat may see it with ``next``,
that seat's decision right after it. An ``EventSource`` reconnects by itself with
``Last-Event-ID`` (each event's ``id`` is its ``seq``); once the game is over and the client has
its last event, the answer is 204, which tells an ``EventSource`` to stop reconnecting.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response, StreamingResponse

from api.container import Container
from api.deps import ContainerDep, LanguageDep, TokenDep
from api.live import EncodedEvents, Follower, attending, follower_of, game_event_stream
from api.openapi_contract import problems
from api.schemas.games import translated_decision
from api.schemas.play import ChoicesPublic
from api.validation import INT32_MAX

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
    'data: {"seq":7,"type":"choice_sealed","data":{"seat":1},"next":null}\n\n'
    ": keep-alive\n\n"
)
STREAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "An event stream (`text/event-stream`). Each event: `id` = its `seq`, `event` "
        "= its type, `data` = one line of JSON `{seq, type, data, next}` where `next` is a "
        "`ChoicesPublic` (the seat's decision right after the event, prompt in `lang`) or null. "
        "Comment lines (`: keep-alive`) come every `TABLETOP_STREAM_HEARTBEAT_SECONDS` while idle. "
        "The stream ends after `game_over` or `game_aborted`.",
        "content": {
            MEDIA_TYPE: {
                # One server-sent event (the fields of the text format); ``data`` is the JSON line.
                "schema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "pattern": "^[0-9]+$"},
                        "event": {"type": "string"},
                        "data": {"type": "string"},
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
        pattern=r"^[0-9]{1,10}$",
        description="The `id` (= `seq`) of the last event received, sent by an `EventSource` when it "
        "reconnects: the stream resumes right after it. Takes precedence over `after`.",
    ),
]


@router.get(
    "/{game_id}/stream",
    operation_id="streamEvents",
    response_class=StreamingResponse,
    responses=STREAM_RESPONSES,
    openapi_extra=problems("game_not_found"),
)
async def stream_events(
    game_id: str,
    container: ContainerDep,
    token: TokenDep,
    lang: LanguageDep,
    after: Annotated[
        int, Query(ge=0, le=INT32_MAX, description="Start after this event (0: from the first).")
    ] = 0,
    last_event_id: LastEventId = None,
) -> Response:
    """The game's events as Server-Sent Events, as the token's seat may see them: history after
    `after` (or `Last-Event-ID`), then live; resumable, with heartbeats; ends with the game."""
    start = min(int(last_event_id), INT32_MAX) if last_event_id is not None else after
    follower = await follower_of(container, game_id, token)
    if follower.final_seq is not None and start >= follower.final_seq:
        return Response(status_code=204)
    period = container.settings.stream_heartbeat_seconds
    return StreamingResponse(
        _frames(container, follower, start, lang, period),
        media_type=MEDIA_TYPE,
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Content-Language": lang},
    )


async def _frames(
    container: Container, follower: Follower, after: int, lang: str, period: float
) -> AsyncIterator[bytes]:
    """The stream's bytes: the retry delay, then each event, a heartbeat whenever ``period``
    passes without one. Waiting for the next event is never cancelled by a heartbeat (that would
    close the event stream): the same pending read is awaited again."""
    yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    async with attending(container, follower):
        events = game_event_stream(container, follower.game_id, follower.seat, after, follower.final_seq)
        pending: asyncio.Task[tuple[dict[str, Any], bool, int | None]] | None = None
        try:
            while True:
                if pending is None:
                    pending = asyncio.ensure_future(anext(events))
                done, _ = await asyncio.wait({pending}, timeout=period)
                if not done:
                    yield HEARTBEAT
                    continue
                try:
                    shown, live, seat = pending.result()
                except StopAsyncIteration:
                    return
                pending = None
                if live:
                    key = (follower.game_id, shown["seq"], seat, lang)
                    yield ENCODED.get(key, partial(_frame, shown, follower.game_type, lang))
                else:
                    yield _frame(shown, follower.game_type, lang)
        finally:
            if pending is not None:
                pending.cancel()  # the read ends the event stream as it unwinds (it is running)
            else:
                await events.aclose()


def _frame(shown: dict[str, Any], game_type: str, lang: str) -> bytes:
    """One event as an SSE message; its ``data`` is one line of JSON (no newline can occur)."""
    offer = shown["next"]
    choices = (
        ChoicesPublic(
            version=offer["version"],
            decision_version=offer["decision_version"],
            decision=translated_decision(offer["decision"], game_type, lang),
            choices=offer["choices"],
        ).model_dump(mode="json")
        if offer is not None
        else None
    )
    body = {"seq": shown["seq"], "type": shown["type"], "data": shown["data"], "next": choices}
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return f"id: {shown['seq']}\nevent: {shown['type']}\ndata: {data}\n\n".encode()
