"""The webhook outbox: which deliveries one committed game change causes.

Decided inside the transaction of the change (``enqueue_outbox`` runs before the commit), so a
committed change always has its deliveries and a rolled-back one never does. Payloads go through
the same per-viewer view as every other path: a player's endpoint gets what that player's seat
may see, a host's endpoint what a spectator may see.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from domain.engine import Document
from domain.model.match import Match
from domain.model.takebacks import TAKEBACK_EVENT_TYPES
from domain.model.webhooks import Endpoint, NewDelivery

EVENT_FILTERS: dict[str, frozenset[str]] = {
    "game_started": frozenset({"game_started"}),
    "game_over": frozenset({"game_over"}),
    "reveal": frozenset({"reveal"}),
    "takeback": TAKEBACK_EVENT_TYPES,
}


def deliveries_for(match: Match, endpoints: Sequence[Endpoint], turns_started: set[int]) -> list[NewDelivery]:
    """What one committed change sends: the new events, then "your turn" notices, in order."""
    found: list[NewDelivery] = []
    for endpoint in endpoints:
        if endpoint.status != "active":
            continue
        viewers: list[int | None]
        if endpoint.game_id is not None:
            viewers = [None]  # a host's endpoint sees what a spectator sees
        else:
            viewers = [s.index for s in match.seats if s.player_id == endpoint.player_id]
        for viewer in viewers:
            for recorded in match.new_events:
                if _wants_event(endpoint.filters, recorded.event.type):
                    found.append(
                        _delivery(
                            endpoint,
                            match,
                            recorded.event.type,
                            {"type": "event", "seat": viewer, "event": recorded.for_viewer(viewer)},
                        )
                    )
            if viewer is not None and viewer in turns_started and "your_turn" in endpoint.filters:
                clock = match.timing.seats[viewer]
                found.append(
                    _delivery(
                        endpoint,
                        match,
                        "your_turn",
                        {
                            "type": "your_turn",
                            "seat": viewer,
                            "version": match.version,
                            "decision_version": match.decision_version_for(viewer),
                            "since": clock.since.isoformat() if clock.since else None,
                            "deadline": clock.deadline.isoformat() if clock.deadline else None,
                        },
                    )
                )
    return found


def _wants_event(filters: Sequence[str], event_type: str) -> bool:
    return "all" in filters or any(event_type in EVENT_FILTERS.get(f, ()) for f in filters)


def _delivery(endpoint: Endpoint, match: Match, kind: str, payload: Document) -> NewDelivery:
    return NewDelivery(
        message_id=f"msg_{uuid.uuid4().hex}",
        endpoint_id=endpoint.id,
        game_id=match.id,
        kind=kind,
        payload={"game_id": match.id, "game_type": match.game_type, **payload},
    )
