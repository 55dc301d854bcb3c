"""The games' storage: the match aggregate, its events and what is listed or looked up by game."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from domain.engine import Document
from domain.model.idempotency import Remembered
from domain.model.lobby import GameSummary, LobbyCursor, LobbyFilter
from domain.model.match import AppliedChoices, Match, RecordedEvent


@dataclass(frozen=True, slots=True)
class BotGame:
    """An in-progress game with a bot seat, and whether a person plays in it too."""

    id: str
    has_humans: bool


class GameRepository(Protocol):
    def add(self, match: Match) -> None:
        """Store a new match and its pending events."""
        ...

    def get(self, game_id: str, for_update: bool = False) -> Match:
        """Load the current state (never a replay); raises GameNotFound. ``for_update``: the
        caller will save it, so other writers may wait for this transaction instead of racing."""
        ...

    def save(self, match: Match) -> None:
        """Store a changed match and its new events; raises VersionConflict if another
        writer changed it since it was loaded."""
        ...

    def list(
        self, where: LobbyFilter, limit: int, after: LobbyCursor | None = None
    ) -> builtins.list[GameSummary]:
        """Public games matching ``where``, newest first (``id`` breaks ties), after ``after``."""
        ...

    def count(self, where: LobbyFilter) -> int:
        """How many public games match ``where``."""
        ...

    def events(self, game_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]: ...

    def bot_games_in_progress(self, after: str, limit: int) -> builtins.list[BotGame]:
        """In-progress games with a bot seat, by id after ``after`` (keyset pages)."""
        ...

    def count_bot_only_in_progress(self) -> int:
        """In-progress games whose every seat the server plays (``Match.served``: bots, stand-ins,
        people whose last decision lapsed)."""
        ...

    def count_open_listed(self, creator_id: str, creator_address: str | None) -> tuple[int, int]:
        """Listed lobbies not yet started or aborted: of this player, and of this address hash
        (0 when None); counted so that concurrent creates see each other."""
        ...

    def count_by_status(self) -> dict[str, int]: ...

    def idempotent_result(self, game_id: str, key: str) -> Remembered | None: ...

    def applied_choices(self, game_id: str) -> builtins.list[AppliedChoices]:
        """Every decision's applied choices, in order (what a replay re-applies)."""
        ...

    def claim_due(self, now: datetime, lobby_created_before: datetime | None) -> str | None:
        """One game with a deadline due by ``now`` (or a lobby created before the cutoff),
        locked for this transaction so no other instance takes it; None when nothing is due."""
        ...

    def remember_result(
        self, game_id: str, key: str, result: Document, fingerprint: str | None = None
    ) -> None: ...

    def created_for_key(self, key_hash: str) -> Remembered | None:
        """What a create with this (hashed) idempotency key remembered, if one was made."""
        ...

    def remember_create(self, key_hash: str, game_id: str, result: Document, fingerprint: str) -> None:
        """Raises VersionConflict when a concurrent create took the key first."""
        ...
