"""The webhook outbox written with each change: ``domain.model.outbox`` decides the deliveries,
this writes them in the change's own transaction, so they commit with it or not at all; the
players' notices (``domain.services.notice_outbox``) go in the same transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from domain.engine import Document
from domain.model.match import Match
from domain.model.outbox import deliveries_for
from domain.model.webhooks import NewDelivery
from domain.ports.unit_of_work import UnitOfWork
from domain.services.notice_outbox import enqueue_notices
from domain.tournaments.tournament import RoundSeat

ROUND_READY = "tournament_round_ready"


def enqueue_outbox(
    uow: UnitOfWork, match: Match, turns_started: set[int], now: datetime, opening: str | None = None
) -> None:
    """Write the change's deliveries and notices in the change's own transaction; ``opening``
    names the notice of a game just made for its players (``domain.services.notices``)."""
    enqueue_notices(uow, match, turns_started, now, opening)
    if not match.new_events and not turns_started:
        return
    players = {s.player_id for s in match.seats if s.player_id is not None}
    endpoints = uow.webhooks.endpoints_for_game(match.id, sorted(players))
    if endpoints:
        deliveries = deliveries_for(match, endpoints, turns_started)
        if deliveries:
            uow.webhooks.enqueue(deliveries, now)


def enqueue_round_ready(uow: UnitOfWork, seats: Sequence[RoundSeat], now: datetime) -> None:
    """A tournament's new round: one ``tournament_round_ready`` delivery per seated player and
    active endpoint of that player that asks for it (``tournament_round_ready`` or ``all``),
    written in the transaction that creates the round, so exactly once however many instances
    pair it and whatever crash interrupts them."""
    found: list[NewDelivery] = []
    for seat in seats:
        for endpoint in uow.webhooks.endpoints_of(seat.player_id, None):
            if endpoint.status == "active" and ({ROUND_READY, "all"} & set(endpoint.filters)):
                found.append(
                    NewDelivery(
                        message_id=f"msg_{uuid.uuid4().hex}",
                        endpoint_id=endpoint.id,
                        game_id=seat.game_id,
                        kind=ROUND_READY,
                        payload=round_ready_payload(seat),
                    )
                )
    if found:
        uow.webhooks.enqueue(found, now)


def round_ready_payload(seat: RoundSeat) -> Document:
    return {
        "type": ROUND_READY,
        "tournament_id": seat.tournament_id,
        "tournament_name": seat.tournament_name,
        "round": seat.round,
        "table": seat.table,
        "game_id": seat.game_id,
        "game_type": seat.game_type,
        "seat": seat.seat,
        "player_id": seat.player_id,
        "seat_token_path": f"/v1/players/me/games/{seat.game_id}/seats/{seat.seat}/token",
    }
