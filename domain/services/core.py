"""What every use case shares: its ports, who is asking, and how a changed match is saved and
announced. The resource services (``lobby``, ``seats``, ``play``, ``reads``) and the services
beside them (chat, players, rematch, ...) all work through one ``ServiceCore``."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from domain.errors import Forbidden, SeatResigned, Unauthorized, VersionConflict
from domain.model.match import Match, MatchStatus, RecordedEvent
from domain.model.tokens import hash_token
from domain.ports.clock import Clock
from domain.ports.events import EventPublisher
from domain.ports.transactions import OneTransactionEach, Transactions
from domain.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from domain.registry import EngineRegistry
from domain.services.decisions import next_decision
from domain.services.outbox import enqueue_outbox

MAX_RETRIES = 5

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is asking: a seat, the host, or (neither) a spectator."""

    seat: int | None = None
    is_host: bool = False
    quit_seat: int | None = None
    """The token's seat when it resigned or forfeited: it then sees as a spectator (``seat`` is
    None), while a bot plays the seat on."""


TokenListener = Callable[[str], None]
"""Told the hash of every bearer token recognised as a seat's or a host's (the API's rate limiter
charges a request to its token only once the token is known to be real)."""

BotHook = Callable[[str, bool], None]
"""Called after each committed change to an in-progress game with bot seats, so they can play:
with the game id, and whether a person plays in it (their game goes first)."""

FinishedHook = Callable[[UnitOfWork, Match], None]
CommittedEndHook = Callable[[Match], None]
"""Told, after the commit, of a game whose end that commit recorded (e.g. to publish what a
``FinishedHook`` wrote with it)."""
"""Work that belongs in the transaction recording a game's end (e.g. ratings): called by ``save``
with the unit of work of that transaction, so it commits (or fails) with the final move."""


def retrying(attempt: Callable[[], T]) -> T:
    """``attempt`` again after a concurrent change (``VersionConflict``), at most ``MAX_RETRIES``
    times; the last conflict is raised."""
    for tried in range(MAX_RETRIES):
        try:
            return attempt()
        except VersionConflict:
            if tried == MAX_RETRIES - 1:
                raise
    raise AssertionError("unreachable")


class ServiceCore:
    def __init__(
        self,
        uow: UnitOfWorkFactory,
        registry: EngineRegistry,
        publisher: EventPublisher,
        clock: Clock,
        transactions: Transactions | None = None,
    ) -> None:
        self.uow = uow
        self.transactions: Transactions = transactions or OneTransactionEach(uow)
        """Where submits and bot turns are written (``persistence.group_commit`` batches them)."""
        self.registry = registry
        self.publisher = publisher
        self.clock = clock
        self.when_finished: list[FinishedHook] = []
        self.after_finished: list[CommittedEndHook] = []
        self.after_change: list[BotHook] = []
        self.token_listeners: list[TokenListener] = []

    def load(self, game_id: str) -> Match:
        with self.uow() as uow:
            return uow.games.get(game_id)

    # -- who is asking -----------------------------------------------------------------------------

    def viewer(self, match: Match, token: str | None) -> Viewer:
        """No token: a spectator. A token that is neither a seat's nor the host's: refused. A seat
        that resigned or forfeited sees as a spectator: its hand is no longer its player's."""
        if token is None:
            return Viewer()
        token_hash = hash_token(token)
        seat = match.seat_of_token_hash(token_hash)
        if seat is not None:
            self._recognised(token_hash)
            if match.seats[seat].has_quit:
                return Viewer(quit_seat=seat)
            return Viewer(seat=seat)
        if hmac.compare_digest(match.host_token_hash, token_hash):
            self._recognised(token_hash)
            return Viewer(is_host=True)
        raise Unauthorized("the bearer token does not belong to this game")

    def viewer_or_spectator(self, match: Match, token: str | None) -> Viewer:
        """As ``viewer``, but a token that no longer belongs to the game (a seat that just left)
        reads as a spectator."""
        try:
            return self.viewer(match, token)
        except Unauthorized:
            return Viewer()

    def require_seat(self, match: Match, token: str | None) -> int:
        if token is None:
            raise Unauthorized("a seat token is required (Authorization: Bearer <token>)")
        viewer = self.viewer(match, token)
        if viewer.quit_seat is not None:
            seat = viewer.quit_seat
            raise SeatResigned(
                "seat {seat} has {stand_in}; a bot plays it to the end",
                seat=seat,
                stand_in=match.seats[seat].stand_in,
            )
        if viewer.seat is None:
            raise Forbidden("only a seated player may do this; the host token is not a seat")
        return viewer.seat

    def require_host(self, match: Match, token: str | None) -> None:
        if token is None:
            raise Unauthorized("the host token is required (Authorization: Bearer <token>)")
        if not self.viewer(match, token).is_host:
            raise Forbidden("only the host token may do this")

    def _recognised(self, token_hash: str) -> None:
        for listener in self.token_listeners:
            listener(token_hash)

    # -- saving and announcing ---------------------------------------------------------------------

    def track(self, match: Match, acted: int | None = None) -> set[int]:
        """Bring the turn clocks up to date with the match's decision, before it is saved;
        returns the seats whose turn has just begun."""
        now = self.clock.now()
        if match.is_over:
            match.timing.stop_all(now)
            return set()
        humans = {s for s in match.awaited_seats() if not match.seats[s].plays_itself}
        return match.timing.track(humans, now, acted)

    def save(self, uow: UnitOfWork, match: Match, acted: int | None = None) -> None:
        """Track the clocks, store the match and its outbox, all in the caller's transaction."""
        turns_started = self.track(match, acted)
        uow.games.save(match)
        enqueue_outbox(uow, match, turns_started, self.clock.now())
        if match.status is MatchStatus.FINISHED and any(
            recorded.event.type == "game_over" for recorded in match.new_events
        ):
            for hook in self.when_finished:
                hook(uow, match)

    def change(
        self,
        game_id: str,
        change: Callable[[Match], Any],
        also: Callable[[UnitOfWork, Match, Any], None] | None = None,
    ) -> tuple[Any, int]:
        """Load, change, save and commit one match, retrying on a concurrent change;
        ``also`` writes whatever else belongs in the same transaction."""

        def once() -> tuple[Any, int]:
            with self.uow() as uow:
                match = uow.games.get(game_id, for_update=True)
                value = change(match)
                self.save(uow, match)
                if also is not None:
                    also(uow, match, value)
                uow.commit()
            self.committed(match)
            return value, match.version

        return retrying(once)

    def committed(self, match: Match) -> None:
        """After a commit: publish the new events and let the server's seats play."""
        ended = match.status is MatchStatus.FINISHED and any(
            recorded.event.type == "game_over" for recorded in match.new_events
        )
        if match.new_events:
            events = list(match.new_events)
            waiting = {
                seat.index: offer
                for seat in match.seats
                if seat.bot is None and (offer := next_decision(match, seat.index)) is not None
            }
            if waiting:
                last = events[-1]
                events[-1] = RecordedEvent(last.seq, last.event, waiting)
            self.publisher.publish(match.id, events)
            match.new_events.clear()
        if match.status is MatchStatus.IN_PROGRESS and any(s.plays_itself for s in match.seats):
            has_humans = any(not seat.plays_itself for seat in match.seats)
            for hook in self.after_change:
                hook(match.id, has_humans)
        if ended:
            for finished in self.after_finished:
                finished(match)
