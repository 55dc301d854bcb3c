"""Hand-written fakes of our ports, for service tests without I/O."""

from __future__ import annotations

import builtins
import copy
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Self

from domain.engine import JSON
from domain.errors import GameNotFound, VersionConflict
from domain.match import Match, RecordedEvent
from domain.ports import GameSummary


class FakeRepository:
    def __init__(self) -> None:
        self.rows: dict[str, tuple[Match, str]] = {}
        self.stored_events: dict[str, list[RecordedEvent]] = {}
        self.results: dict[tuple[str, str], dict[str, JSON]] = {}

    def add(self, match: Match) -> None:
        self._store(match)

    def get(self, game_id: str) -> Match:
        try:
            match, state = self.rows[game_id]
        except KeyError:
            raise GameNotFound(f"no game {game_id}") from None
        loaded = copy.copy(match)
        loaded.seats = copy.deepcopy(match.seats)
        loaded.sealed = copy.deepcopy(match.sealed)
        loaded.state = match.engine.load(json.loads(state)) if state else None
        loaded.loaded_version = match.version
        loaded.new_events = []
        return loaded

    def save(self, match: Match) -> None:
        current, _ = self.rows[match.id]
        if current.version != match.loaded_version:
            raise VersionConflict(f"game {match.id} changed meanwhile")
        self._store(match)

    def _store(self, match: Match) -> None:
        state = json.dumps(match.engine.dump(match.state)) if match.state is not None else ""
        stored = copy.copy(match)
        stored.seats = copy.deepcopy(match.seats)
        stored.sealed = copy.deepcopy(match.sealed)
        stored.state = None
        stored.new_events = []
        self.rows[match.id] = (stored, state)
        self.stored_events.setdefault(match.id, []).extend(match.new_events)

    def list(
        self, status: str | None, game_type: str | None, limit: int, offset: int
    ) -> builtins.list[GameSummary]:
        matches = [m for m, _ in self.rows.values()]
        found = [
            GameSummary(m.id, m.game_type, m.status.value, len(m.seats), m.version, m.created_at)
            for m in matches
            if (status is None or m.status.value == status)
            and (game_type is None or m.game_type == game_type)
        ]
        return found[offset : offset + limit]

    def events(self, game_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]:
        if game_id not in self.rows:
            raise GameNotFound(f"no game {game_id}")
        return [e for e in self.stored_events.get(game_id, []) if e.seq > after][:limit]

    def count_by_status(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for match, _ in self.rows.values():
            counts[match.status.value] = counts.get(match.status.value, 0) + 1
        return counts

    def idempotent_result(self, game_id: str, key: str) -> dict[str, JSON] | None:
        return self.results.get((game_id, key))

    def remember_result(self, game_id: str, key: str, result: dict[str, JSON]) -> None:
        self.results[(game_id, key)] = result


class FakeUnitOfWork:
    """Commits by swapping in a copy of the repository, so an uncommitted change vanishes."""

    def __init__(self, store: FakeRepository) -> None:
        self.store = store
        self.committed = False

    def __enter__(self) -> Self:
        self.games = copy.deepcopy(self.store)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.committed:
            self.store.__dict__.update(self.games.__dict__)

    def commit(self) -> None:
        self.committed = True


class FakePublisher:
    def __init__(self) -> None:
        self.published: list[tuple[str, list[RecordedEvent]]] = []

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        self.published.append((game_id, list(events)))


class FixedClock:
    def now(self) -> datetime:
        return datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
