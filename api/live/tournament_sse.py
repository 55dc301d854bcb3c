"""A tournament's events as Server-Sent Events, for its lobby, standings and pairings pages.

History after the client's last event (``after`` or ``Last-Event-ID``), then live, no gap, no
duplicate (``api.live.tournament_events``); ``id`` is each event's ``seq``, ``event`` its type,
``data`` one line of JSON (a ``TournamentEvent``); keep-alive comments while idle. It ends after
``tournament_finished`` or ``tournament_cancelled``; once the tournament is over and the client
has its last event, the answer is 204 (an ``EventSource`` stops reconnecting). Counted with the
game streams and websockets against the same caps (``api.edge.middleware.STREAM_PATH``)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response, StreamingResponse

from api.bootstrap import Container
from api.deps import ContainerDep
from api.live.game_events import EncodedEvents
from api.live.heartbeats import with_heartbeats
from api.live.sse import (
    HEARTBEAT,
    MEDIA_TYPE,
    RETRY_MILLISECONDS,
    EventsAfter,
    LastEventId,
    event_stream,
    resumed_at,
)
from api.live.tournament_events import TournamentFollower, tournament_event_stream, tournament_follower
from api.openapi.contract import problems
from api.rest.models.tournament_events import EVENT_TYPES, event_body
from domain.model.match import RecordedEvent

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"])

ENCODED = EncodedEvents()
"""Per process: a live event is encoded once per (tournament, seq) for every follower."""

SCHEMAS = "#/components/schemas/"
STREAM_EXAMPLE = (
    "retry: 2000\n\n"
    "id: 12\nevent: round_started\n"
    'data: {"seq":12,"type":"round_started","tournament_id":"3b1d0c7e5a2f4e0b9c8d7a6b5c4d3e2f",'
    '"data":{"round":2,"tables":[["62cffe19492b40b0ac51f5a3fd4619a7","a41f0c2b9d8e4f7a8b6c5d4e3f2a1b0c"]],'
    '"byes":[],"games":["7f45cbf378cd4603930a96c6041f05c2"]}}\n\n'
    ": keep-alive\n\n"
)
EVENT_SCHEMA: dict[str, Any] = {
    "oneOf": [{"$ref": SCHEMAS + name} for name in EVENT_TYPES.values()],
    "discriminator": {
        "propertyName": "type",
        "mapping": {kind: SCHEMAS + name for kind, name in EVENT_TYPES.items()},
    },
}
STREAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "An event stream (`text/event-stream`). Each event: `id` = its `seq`, `event` "
        "= its type, `data` = one line of JSON `{seq, type, tournament_id, data}` whose `data` is "
        "typed by `type` (" + ", ".join(f"`{k}`: `{v}`" for k, v in EVENT_TYPES.items()) + "). "
        "Comment lines (`: keep-alive`) come every `TABLETOP_STREAM_HEARTBEAT_SECONDS` while idle. "
        "The stream ends after `tournament_finished` or `tournament_cancelled`.",
        "content": {
            MEDIA_TYPE: {
                "schema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "pattern": "^[0-9]+$"},
                        "event": {"type": "string", "enum": list(EVENT_TYPES)},
                        "data": {
                            "type": "string",
                            "contentMediaType": "application/json",
                            "contentSchema": EVENT_SCHEMA,
                            "description": "One line of JSON: the event, its schema named by `type`.",
                        },
                        "retry": {"type": "integer"},
                    },
                },
                "example": STREAM_EXAMPLE,
            }
        },
    },
    204: {"description": "The tournament is over and the client already has its last event: stop."},
}


@router.get(
    "/{tournament_id}/stream",
    operation_id="streamTournamentEvents",
    response_class=StreamingResponse,
    responses=STREAM_RESPONSES,
    openapi_extra=problems("tournament_not_found", ("too_many_streams", 429), ("too_many_streams", 503)),
)
async def stream_tournament_events(
    tournament_id: str,
    container: ContainerDep,
    after: EventsAfter = 0,
    last_event_id: LastEventId = None,
) -> Response:
    """The tournament's events as Server-Sent Events (public, as its standings are): history
    after `after` (or `Last-Event-ID`), then live; resumable, with heartbeats; ends with the
    tournament."""
    start, _ = resumed_at(after, 0, last_event_id)
    follower = await tournament_follower(container, tournament_id)
    if follower.final_seq is not None and start >= follower.final_seq:
        return Response(status_code=204)
    period = container.settings.stream_heartbeat_seconds
    return event_stream(_frames(container, follower, start, period))


async def _frames(
    container: Container, follower: TournamentFollower, after: int, period: float
) -> AsyncIterator[bytes]:
    """The retry delay, then each event, a heartbeat whenever ``period`` passes without one
    (``api.live.heartbeats``)."""
    yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
    container.metrics.active_subscriptions.inc()
    events = tournament_event_stream(container, follower.tournament_id, after, follower.final_seq)
    try:
        async with contextlib.aclosing(with_heartbeats(events, period)) as paced:
            async for item in paced:
                if item is None:
                    yield HEARTBEAT
                    continue
                event, live = item
                frame = partial(_frame, follower.tournament_id, event)
                yield ENCODED.get((follower.tournament_id, event.seq), frame) if live else frame()
    finally:
        container.metrics.active_subscriptions.dec()


def _frame(tournament_id: str, event: RecordedEvent) -> bytes:
    data = json.dumps(event_body(tournament_id, event), ensure_ascii=False, separators=(",", ":"))
    return f"id: {event.seq}\nevent: {event.event.type}\ndata: {data}\n\n".encode()
