"""The tournaments' storage: the aggregate with its round tables, found by id or by a table's game."""

from __future__ import annotations

import builtins
from datetime import datetime
from typing import Protocol

from domain.tournaments.tournament import Tournament


class TournamentRepository(Protocol):
    def add(self, tournament: Tournament) -> None: ...

    def get(self, tournament_id: str, for_update: bool = False) -> Tournament:
        """Raises TournamentNotFound. ``for_update``: the caller will save it (PostgreSQL: other
        writers queue on the row lock)."""
        ...

    def save(self, tournament: Tournament) -> None:
        """Store the changed aggregate, its new tables and newly recorded results; raises
        VersionConflict if another writer saved it since it was loaded, or added a table of the
        same round and number (the tables' key)."""
        ...

    def of_game(self, game_id: str) -> str | None:
        """The tournament whose round table this game is, if any."""
        ...

    def list_public(self, status: str | None, limit: int, offset: int) -> builtins.list[Tournament]:
        """Public tournaments, the next to start first, then the newest."""
        ...

    def claim_due(self, now: datetime) -> str | None:
        """One tournament with something due by ``now`` (its start, or its next round), locked
        for this transaction so no other instance takes it; None when nothing is due."""
        ...
