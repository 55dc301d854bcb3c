"""The notices one change causes, written in the change's own transaction (see
``domain.services.notices`` for the players' side and ``persistence.outbound.notice_sender`` for
the sending)."""

from __future__ import annotations

from datetime import datetime

from domain.engine import Document
from domain.model.match import Match
from domain.model.notices import NewNoticeDelivery, Notice
from domain.ports.unit_of_work import UnitOfWork


def notices_for(match: Match, turns_started: set[int], opening: str | None = None) -> list[Notice]:
    """What one change tells the players of ``match``: "your turn" to each seat whose turn began,
    "game over" to each person when it ended; ``opening`` (``rematch_offered``,
    ``tournament_round``) to each person's seat of a game that was just made for them, instead of
    "your turn"."""
    found: list[Notice] = []
    people = [s for s in match.seats if s.player_id is not None and s.bot is None]
    if opening is not None:
        for seat in people:
            if opening == "rematch_offered" and seat.confirmed:
                continue
            assert seat.player_id is not None
            found.append(Notice(seat.player_id, opening, match.id, seat.index, match.game_type))
        return found
    for seat in people:
        assert seat.player_id is not None
        if seat.index in turns_started and not seat.plays_itself:
            found.append(Notice(seat.player_id, "your_turn", match.id, seat.index, match.game_type))
    if any(recorded.event.type == "game_over" for recorded in match.new_events):
        for seat in people:
            assert seat.player_id is not None
            found.append(Notice(seat.player_id, "game_over", match.id, seat.index, match.game_type))
    return found


def enqueue_notices(
    uow: UnitOfWork, match: Match, turns_started: set[int], now: datetime, opening: str | None = None
) -> None:
    """Write the change's notices in the change's own transaction: one delivery per target (each
    push subscription, the e-mail address) of each player whose seat has no open page now (for a
    rematch, the seat's page of the finished game)."""
    notices = notices_for(match, turns_started, opening)
    if not notices:
        return
    targets = uow.notices.targets_for(sorted({n.player_id for n in notices}))
    if not targets:
        return
    watched = match.rematch_of if opening == "rematch_offered" and match.rematch_of else match.id
    open_pages = uow.presence.connected_seats(watched, now)
    deliveries = [
        NewNoticeDelivery(target, notice, _payload(notice))
        for notice in notices
        if notice.seat not in open_pages
        for target in targets
        if target.player_id == notice.player_id
    ]
    if deliveries:
        uow.notices.enqueue(deliveries, now)


def _payload(notice: Notice) -> Document:
    return {
        "kind": notice.kind,
        "game_id": notice.game_id,
        "game_type": notice.game_type,
        "seat": notice.seat,
    }
