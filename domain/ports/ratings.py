"""The ratings' storage: ratings per subject and game type, their history and the seats' results."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from domain.model.ratings import Finishing, Rating, RatingChange, SeatResult


class RatingRepository(Protocol):
    def ratings(self, game_type: str, subjects: Sequence[str]) -> dict[str, Rating]:
        """The stored ratings of these subjects (absent ones have none yet)."""
        ...

    def record(self, changes: Sequence[RatingChange], results: Sequence[SeatResult]) -> None:
        """Store the new ratings, their history rows and the seats' results, in the caller's
        transaction; a game's change for a subject is stored at most once."""
        ...

    def rated_together(self, a: str, b: str, game_type: str, since: datetime) -> int:
        """Rated games of this type both subjects played since ``since``."""
        ...

    def finishing(self, player_ids: Sequence[str]) -> dict[str, Finishing]: ...

    def leaderboard(
        self, game_type: str, min_games: int, limit: int, after: tuple[bool, float, str] | None
    ) -> builtins.list[Rating]:
        """Established ratings first, then by display value, best first (subject breaks ties),
        after the cursor ``after`` (established, display, subject)."""
        ...

    def history(self, subject: str, game_type: str | None, limit: int) -> builtins.list[RatingChange]:
        """The subject's changes, newest first."""
        ...

    def results(self, player_id: str, limit: int) -> builtins.list[SeatResult]:
        """The player's finished games, newest first."""
        ...

    def of_subject(self, subject: str) -> builtins.list[Rating]:
        """Every game type's rating of the subject."""
        ...

    def player_names(self, player_ids: Sequence[str]) -> dict[str, str]:
        """The names of these player identities (unknown ids are left out)."""
        ...

    def game_rated(self, game_id: str) -> bool | None:
        """Whether the finished game was rated, as decided at its end (None: no results stored)."""
        ...


class RatedUnitOfWork(Protocol):
    @property
    def ratings(self) -> RatingRepository: ...
