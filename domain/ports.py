"""Ports: what the use cases need from the outside world. Adapters live in ``persistence/``."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Protocol, Self

from domain.engine import JSON
from domain.match import Match, RecordedEvent


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: str
    game_type: str
    status: str
    players: int
    version: int
    created_at: datetime


class GameRepository(Protocol):
    def add(self, match: Match) -> None:
        """Store a new match and its pending events."""
        ...

    def get(self, game_id: str) -> Match:
        """Load the current state (never a replay); raises GameNotFound."""
        ...

    def save(self, match: Match) -> None:
        """Store a changed match and its new events; raises VersionConflict if another
        writer changed it since it was loaded."""
        ...

    def list(
        self, status: str | None, game_type: str | None, limit: int, offset: int
    ) -> builtins.list[GameSummary]:
        ...

    def events(self, game_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]:
        ...

    def count_by_status(self) -> dict[str, int]:
        ...

    def idempotent_result(self, game_id: str, key: str) -> dict[str, JSON] | None:
        ...

    def remember_result(self, game_id: str, key: str, result: dict[str, JSON]) -> None:
        ...


class UnitOfWork(Protocol):
    """A transaction: rolled back on exit unless ``commit`` was called."""

    games: GameRepository

    def __enter__(self) -> Self:
        ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        ...

    def commit(self) -> None:
        ...


class UnitOfWorkFactory(Protocol):
    def __call__(self) -> UnitOfWork:
        ...


class EventPublisher(Protocol):
    """Fans committed events out to live subscribers (in process, or across instances)."""

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        ...


class Clock(Protocol):
    def now(self) -> datetime:
        ...
