"""The lobby's page of games: filters, an opaque keyset cursor, and what each summary says.

Pages are keyset pages (newest first, ``id`` breaking ties): a game created or finished while a
client pages never shifts the next page, and a deep page costs what the first one does."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from datetime import datetime

from domain.errors import InvalidRequest

STATUSES = ("lobby", "in_progress", "finished", "aborted")
CURSOR_PATTERN = "^[A-Za-z0-9_-]{1,512}$"
"""Every cursor ``LobbyCursor.encode`` issues: URL-safe base64 without padding (for the schemas)."""


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    name: str
    bot: str | None = None


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


@dataclass(frozen=True, slots=True)
class LobbyFilter:
    status: str | None = None
    game_type: str | None = None
    joinable: bool | None = None
    """True: lobbies with a free seat; False: every other game; None: both."""

    def __post_init__(self) -> None:
        if self.status is not None and self.status not in STATUSES:
            raise InvalidRequest(f"status must be one of {', '.join(STATUSES)}, got \"{self.status}\"")


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
            raise InvalidRequest("cursor is not one this API issued: pass next_cursor back") from None


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
