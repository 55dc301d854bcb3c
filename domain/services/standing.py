"""Standing: leaderboards and player profiles, read from the ratings and results stored at each
game's end, and the hook that writes them (``record_end``; the rating rules are in
``domain.model.ratings``)."""

from __future__ import annotations

import base64
import json
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from domain.errors import GameTypeNotFound, InvalidRequest, PlayerNotFound, UnknownGameType
from domain.model.match import Match, MatchStatus
from domain.model.ratings import (
    BOT_PREFIX,
    PAIR_LIMIT,
    PAIR_WINDOW,
    Finishing,
    Rating,
    RatingChange,
    SeatResult,
    outcome_of,
    ranks,
    rate,
    subject_of,
    why_unrated,
)
from domain.ports.ratings import RatedUnitOfWork, RatingRepository
from domain.ports.unit_of_work import UnitOfWork
from domain.services.core import ServiceCore

HISTORY_LIMIT = 200
TOURNAMENT_RATED_KEPT = 10_000
RECENT_LIMIT = 20


@dataclass(frozen=True, slots=True)
class Standing:
    """A leaderboard line: who (a player, or a bot level), their rating and their place."""

    rank: int
    rating: Rating
    name: str
    finishing: Finishing | None = None
    """A player's finishing rate (None for a bot level)."""

    @property
    def established(self) -> bool:
        return self.rating.established

    @property
    def kind(self) -> str:
        return "bot" if self.rating.subject.startswith(BOT_PREFIX) else "player"


@dataclass(frozen=True, slots=True)
class Leaderboard:
    game_type: str
    entries: list[Standing]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class TableSeat:
    """A seat's standing as the table shows it: its rating in the game's type (None: an
    anonymous seat, or no rated game yet) and, for a player, the finishing rate."""

    seat: int
    name: str
    subject: str | None
    rating: Rating | None
    finishing: Finishing | None


@dataclass(frozen=True, slots=True)
class Profile:
    player_id: str
    name: str
    ratings: list[Rating]
    history: list[RatingChange]
    recent: list[SeatResult]
    finishing: Finishing


class StandingService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self._tournament_rated: OrderedDict[str, bool | None] = OrderedDict()
        """Per game: its tournament's ``rated`` (None: not a tournament's game)."""
        self._tournament_rated_lock = threading.Lock()
        core.when_finished.append(self.game_finished)

    def game_finished(self, uow: UnitOfWork, match: Match) -> None:
        """In the transaction that records the end: ratings and results (``record_end``); a
        round game of a tournament that is not rated is recorded unrated."""
        unrated = uow.tournaments.rated_of_game(match.id) is False
        record_end(uow, match, self.core.clock.now(), unrated_tournament=unrated)

    def leaderboard(
        self, game_type: str, min_games: int, limit: int, cursor: str | None = None
    ) -> Leaderboard:
        """Best display rating first; ``cursor`` continues after the last line of a page."""
        try:
            self.core.registry.get(game_type)
        except UnknownGameType as error:
            raise GameTypeNotFound.saying(error.detail) from None
        after, offset = _decode(cursor) if cursor else (None, 0)
        with self.core.uow() as uow:
            found = uow.ratings.leaderboard(game_type, min_games, limit + 1, after)
            page = found[:limit]
            names = uow.ratings.player_names([r.subject for r in page])
            people = [r.subject for r in page if not r.subject.startswith(BOT_PREFIX)]
            finishing = uow.ratings.finishing(people) if people else {}
        entries = [
            Standing(
                offset + i + 1,
                rating,
                names.get(rating.subject, rating.subject),
                None if rating.subject.startswith(BOT_PREFIX) else finishing.get(rating.subject, Finishing()),
            )
            for i, rating in enumerate(page)
        ]
        next_cursor = None
        if len(found) > limit and page:
            last = page[-1]
            next_cursor = _encode(last.established, last.display, last.subject, offset + len(page))
        return Leaderboard(game_type, entries, next_cursor)

    def profile(self, player_id: str, game_type: str | None = None) -> Profile:
        with self.core.uow() as uow:
            name = uow.ratings.player_names([player_id]).get(player_id)
            if name is None:
                raise PlayerNotFound("no player with id {player!q}", player=player_id)
            return Profile(
                player_id,
                name,
                uow.ratings.of_subject(player_id),
                uow.ratings.history(player_id, game_type, HISTORY_LIMIT),
                uow.ratings.results(player_id, RECENT_LIMIT),
                uow.ratings.finishing([player_id]).get(player_id, Finishing()),
            )

    def finishing(self, player_ids: list[str]) -> dict[str, Finishing]:
        """Finishing rates of several players at once (a lobby's or a table's seats)."""
        if not player_ids:
            return {}
        with self.core.uow() as uow:
            return uow.ratings.finishing(player_ids)

    def table(self, game_id: str) -> list[TableSeat]:
        """Every seat's rating in the game's type and each player's finishing rate: what the
        table shows next to the names (public, as leaderboards are)."""
        match = self.core.load(game_id)
        subjects = [subject_of(seat) for seat in match.seats]
        people = [seat.player_id for seat in match.seats if seat.bot is None and seat.player_id]
        with self.core.uow() as uow:
            known = uow.ratings.ratings(match.game_type, [s for s in subjects if s])
            finishing = uow.ratings.finishing(people) if people else {}
        return [
            TableSeat(
                seat.index,
                seat.name,
                subject,
                known.get(subject) if subject else None,
                finishing.get(seat.player_id, Finishing()) if seat.bot is None and seat.player_id else None,
            )
            for seat, subject in zip(match.seats, subjects, strict=True)
        ]

    def rated_at_end(self, match: Match) -> bool | None:
        """For a finished game, whether its end rated it (the pair limit is only known then)."""
        if match.status is not MatchStatus.FINISHED:
            return None
        with self.core.uow() as uow:
            return uow.ratings.game_rated(match.id)

    def rating_facts(self, match: Match) -> tuple[bool | None, bool]:
        """What a game's ``unrated_reasons`` need beyond the match: ``rated_at_end`` and whether
        it is a round game of a tournament that is not rated. The latter never changes (a round's
        games are created with its tables), so it is kept per process: reading a game in
        progress costs no query for it after the first."""
        finished = match.status is MatchStatus.FINISHED
        with self._tournament_rated_lock:
            cached = match.id in self._tournament_rated
            known = self._tournament_rated.get(match.id)
        if cached and not finished:
            return None, known is False
        with self.core.uow() as uow:
            at_end = uow.ratings.game_rated(match.id) if finished else None
            if not cached:
                known = uow.tournaments.rated_of_game(match.id)
        if not cached:
            with self._tournament_rated_lock:
                self._tournament_rated[match.id] = known
                if len(self._tournament_rated) > TOURNAMENT_RATED_KEPT:
                    self._tournament_rated.popitem(last=False)
        return at_end, known is False

    def ratings_of(self, game_type: str, subjects: list[str]) -> dict[str, Rating]:
        if not subjects:
            return {}
        with self.core.uow() as uow:
            return uow.ratings.ratings(game_type, subjects)


def _encode(established: bool, display: float, subject: str, offset: int) -> str:
    raw = json.dumps([established, display, subject, offset]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


MAX_CURSOR_OFFSET = 2**31 - 1
MAX_SUBJECT_LENGTH = 72
"""``player:``-less ids and ``bot:<level>``: what a leaderboard line's subject can be."""
_SUBJECT_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:.")


def _decode(cursor: str) -> tuple[tuple[bool, float, str], int]:
    """The position a cursor of ``_encode`` names; anything else (whatever a client forges: a
    number JSON reads as infinity, NUL or a lone surrogate, a bool or fraction for the offset)
    is ``InvalidRequest``, before the database sees any of it."""
    refused = InvalidRequest("the cursor is not one this service returned")
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        found = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")).decode("utf-8"))
    except (ValueError, TypeError, UnicodeError) as error:
        raise refused from error
    if not (isinstance(found, list) and len(found) == 4):
        raise refused
    established, display, subject, offset = found
    if (
        type(established) is not bool
        or type(display) not in (int, float)
        or not math.isfinite(display)
        or type(subject) is not str
        or not 0 < len(subject) <= MAX_SUBJECT_LENGTH
        or not set(subject) <= _SUBJECT_CHARACTERS
        or type(offset) is not int
        or not 0 < offset <= MAX_CURSOR_OFFSET
    ):
        raise refused
    return (established, float(display), subject), offset


def record_end(
    uow: RatedUnitOfWork, match: Match, at: datetime, unrated_tournament: bool = False
) -> list[RatingChange]:
    """In the transaction that records ``match``'s end: its seats' results and, when it is rated,
    every subject's new rating. Returns the rating changes (none if unrated).
    ``unrated_tournament``: a round game of a tournament that is not rated (never rated)."""
    seat_ranks = ranks(match)
    entries = [
        (seat.index, subject, seat_ranks[seat.index])
        for seat in match.seats
        if (subject := subject_of(seat)) is not None
    ]
    rated = not unrated_tournament and not why_unrated(match) and not _farmed(uow.ratings, match, at)
    changes: list[RatingChange] = []
    if rated:
        known = uow.ratings.ratings(match.game_type, [subject for _, subject, _ in entries])
        changes = rate(match.id, match.game_type, entries, known, at)
    results = [
        SeatResult(
            seat.player_id,
            match.id,
            match.game_type,
            seat.index,
            seat_ranks[seat.index],
            outcome_of(seat),
            rated,
            at,
        )
        for seat in match.seats
        if seat.bot is None and seat.player_id is not None
    ]
    uow.ratings.record(changes, results)
    return changes


def _farmed(ratings: RatingRepository, match: Match, at: datetime) -> bool:
    people = sorted({seat.player_id for seat in match.seats if seat.bot is None and seat.player_id})
    since = at - PAIR_WINDOW
    return any(
        ratings.rated_together(a, b, match.game_type, since) >= PAIR_LIMIT
        for i, a in enumerate(people)
        for b in people[i + 1 :]
    )
