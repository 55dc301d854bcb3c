"""The lobby's page of games: filters, an opaque keyset cursor, and what each summary says.

Pages are keyset pages (newest first, ``id`` breaking ties): a game created or finished while a
client pages never shifts the next page, and a deep page costs what the first one does.

What is listed at all: public games, and among lobbies only those a player identity created
(``Match.listed``): an anonymous create costs a script nothing, so its lobby is reachable by its
link only and cannot crowd out the games people can really join."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from datetime import datetime

from domain.engine import GameEngine
from domain.errors import InvalidRequest, Range
from domain.model.clocks import CLOCK_MODES, ClockSettings, Timing
from domain.model.match import Match, MatchStatus, Seat
from domain.model.ratings import why_unrated

STATUSES = ("lobby", "in_progress", "finished", "aborted")
CURSOR_PATTERN = "^WyI[A-Za-z0-9_-]{44,509}$"
"""The form of every cursor ``LobbyCursor.encode`` issues (for the schemas): URL-safe base64
without padding of a JSON array that opens with a string (``["``: ``WyI``) and holds a full
timestamp and an id, so at least 47 characters. ``0``, an empty or a short value is refused by the
schema; a value of this form this service did not issue is refused 422 ``invalid_request``."""


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    name: str
    bot: str | None = None
    player_id: str | None = None
    """Read to tell whether the game can be rated; never shown in the lobby."""


@dataclass(frozen=True, slots=True)
class Creator:
    """Who created a listed game, with their reputation for finishing games (BGA's)."""

    id: str
    name: str
    finished_games: int = 0
    """Games of theirs that ended (finished, resigned or timed out)."""
    finishing_rate: float | None = None
    """Share of those they played to the end; None before their first."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: str
    game_type: str
    status: str
    players: int
    version: int
    created_at: datetime
    seed_mode: str = "server"
    max_players: int = 0
    seats: tuple[SeatSummary, ...] = ()
    updated_at: datetime | None = None
    awaiting: tuple[int, ...] = ()
    """The seats the game waits for now (whose turn it is); empty unless in progress."""
    clock: ClockSettings = field(default_factory=ClockSettings)
    creator_id: str | None = None
    creator: Creator | None = None
    age_seconds: int = 0
    """Since its creation, when the page was read."""
    unrated_reasons: tuple[str, ...] = ()
    """Why the game will not be rated (``domain.model.ratings.why_unrated``); in a lobby with a free
    seat, "fewer_than_two_identities" is left out (it goes away as players sit down)."""

    @property
    def open_seats(self) -> int:
        return max(0, self.max_players - self.players) if self.status == "lobby" else 0


def unrated_reasons(summary: GameSummary, engine: GameEngine[object]) -> tuple[str, ...]:
    """The rating rules (``why_unrated``) applied to a listed game, before anyone joins."""
    seats = [Seat(s.seat, s.name, "", s.bot, player_id=s.player_id) for s in summary.seats]
    as_listed = Match(
        id=summary.id,
        engine=engine,
        options={},
        seed="",
        seed_commitment="",
        host_token_hash="",
        created_at=summary.created_at,
        seed_mode=summary.seed_mode,
        status=MatchStatus(summary.status),
        seats=seats,
        timing=Timing(summary.clock),
    )
    reasons = why_unrated(as_listed)
    if summary.open_seats:
        reasons = [r for r in reasons if r != "fewer_than_two_identities"]
    return tuple(reasons)


MAX_FILTER_SEATS = 64
"""No game type seats more (the filters' bound)."""


@dataclass(frozen=True, slots=True)
class LobbyFilter:
    status: str | None = None
    game_type: str | None = None
    joinable: bool | None = None
    """True: lobbies with a free seat; False: every other game; None: both."""
    open_seats: int | None = None
    """Lobbies with at least this many free seats."""
    players: int | None = None
    """Games for exactly this many players (their seat count with the game's options)."""
    clock: str | None = None
    """One of ``CLOCK_MODES``: "none" lists the games without a turn clock."""

    def __post_init__(self) -> None:
        if self.status is not None and self.status not in STATUSES:
            raise InvalidRequest(
                "{field} must be one of {allowed}, got {got!j}",
                field="status",
                allowed=STATUSES,
                got=self.status,
            )
        if self.clock is not None and self.clock not in CLOCK_MODES:
            raise InvalidRequest(
                "{field} must be one of {allowed}, got {got!j}",
                field="clock",
                allowed=CLOCK_MODES,
                got=self.clock,
            )
        for name in ("open_seats", "players"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= MAX_FILTER_SEATS:
                raise InvalidRequest(
                    "{field} must be {bounds:to}, got {got}",
                    field=name,
                    bounds=Range(1, MAX_FILTER_SEATS),
                    got=value,
                )


@dataclass(frozen=True, slots=True)
class LobbyCursor:
    """Where the next page starts: after the game created at ``created_at`` with ``id``."""

    created_at: datetime
    id: str

    def encode(self) -> str:
        raw = json.dumps([self.created_at.isoformat(), self.id]).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def decode(cls, cursor: str) -> LobbyCursor:
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
            moment, game_id = json.loads(raw)
            created_at = datetime.fromisoformat(moment)
            if created_at.tzinfo is None or not _plain_id(game_id):
                raise ValueError("not a cursor we issue")
            return cls(created_at, game_id)
        except (binascii.Error, ValueError, TypeError, UnicodeDecodeError):
            raise InvalidRequest(
                "cursor is not one this API issued: pass {field} back", field="next_cursor"
            ) from None


def _plain_id(value: object) -> bool:
    """Game ids are short printable ASCII: anything else never reaches a query."""
    return isinstance(value, str) and 0 < len(value) <= 64 and value.isascii() and value.isprintable()


@dataclass(frozen=True, slots=True)
class GamePage:
    items: list[GameSummary] = field(default_factory=list)
    total: int = 0
    """Games matching the filter, across all pages."""
    next_cursor: str | None = None
    """Pass as ``cursor`` for the next page; None on the last page."""
