"""The webhook outbox written with each change: ``domain.model.outbox`` decides the deliveries,
this writes them in the change's own transaction, so they commit with it or not at all."""

from __future__ import annotations

from datetime import datetime

from domain.model.match import Match
from domain.model.outbox import deliveries_for
from domain.ports.unit_of_work import UnitOfWork


def enqueue_outbox(uow: UnitOfWork, match: Match, turns_started: set[int], now: datetime) -> None:
    """Write the change's deliveries in the change's own transaction."""
    if not match.new_events and not turns_started:
        return
    players = {s.player_id for s in match.seats if s.player_id is not None}
    endpoints = uow.webhooks.endpoints_for_game(match.id, sorted(players))
    if endpoints:
        deliveries = deliveries_for(match, endpoints, turns_started)
        if deliveries:
            uow.webhooks.enqueue(deliveries, now)
