"""The tournaments' storage: the aggregate with its round tables, found by id or by a table's game."""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Protocol

from domain.engine import Document
from domain.model.idempotency import Remembered
from domain.model.match import RecordedEvent
from domain.tournaments.tournament import Tournament


class TournamentRepository(Protocol):
    def add(self, tournament: Tournament) -> None: ...

    def get(self, tournament_id: str, for_update: bool = False) -> Tournament:
        """Raises TournamentNotFound. ``for_update``: the caller will save it (PostgreSQL: other
        writers queue on the row lock)."""
        ...

    def save(self, tournament: Tournament) -> None:
        """Store the changed aggregate, its new tables, newly recorded results and new events
        (``Tournament.numbered_events``, left in ``new_events`` for the caller to publish); raises
        VersionConflict if another writer saved it since it was loaded, or added a table of the
        same round and number (the tables' key)."""
        ...

    def of_game(self, game_id: str) -> str | None:
        """The tournament whose round table this game is, if any."""
        ...

    def rated_of_game(self, game_id: str) -> bool | None:
        """Whether the tournament whose round table this game is, is rated (None: no tournament's)."""
        ...

    def list_public(self, status: str | None, limit: int, offset: int) -> builtins.list[Tournament]:
        """Public tournaments, the next to start first, then the newest."""
        ...

    def claim_due(self, now: datetime) -> str | None:
        """One tournament with something due by ``now`` (its start, or its next round), locked
        for this transaction so no other instance takes it; None when nothing is due."""
        ...

    def events(self, tournament_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]:
        """Stored events with ``seq`` > ``after``, oldest first, at most ``limit``."""
        ...

    def remember_create(self, key_hash: str, tournament_id: str, result: Document, fingerprint: str) -> None:
        """A create made with an idempotency key; raises VersionConflict when a concurrent create
        with the same key got there first."""
        ...

    def created_for_key(self, key_hash: str) -> Remembered | None: ...
