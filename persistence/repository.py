"""The SQL game repository: one row per match holds its current state, events are appended.

Cost per request is bounded whatever the game's length: ``get`` is one ``SELECT`` by primary key
(history is never replayed), ``save`` one guarded ``UPDATE`` plus one bulk ``INSERT`` of the new
events. Statements are SQLAlchemy Core executed through the session, which keeps them inside the
unit of work's transaction without the ORM's identity-map bookkeeping.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import bindparam, exists, func, insert, select, update
from sqlalchemy.orm import Session

from domain.engine import JSON
from domain.errors import GameNotFound, VersionConflict
from domain.match import Match, RecordedEvent
from domain.ports import GameSummary
from domain.registry import EngineRegistry
from persistence.mapping import (
    changed_game_values,
    event_from_row,
    event_values,
    game_values,
    match_from_row,
    summary_from_row,
)
from persistence.tables import game_events, games, idempotency

_SUMMARY_COLUMNS = (
    games.c.id,
    games.c.game_type,
    games.c.status,
    games.c.seats,
    games.c.version,
    games.c.created_at,
)


# Built once: SQLAlchemy memoises the cache key of a statement object, so reusing these spares the
# construction and key generation that a fresh statement costs on every request.
_GET_GAME = select(games).where(games.c.id == bindparam("game_id"))
_SAVE_GAME = update(games).where(
    games.c.id == bindparam("match_id"), games.c.version == bindparam("loaded_version")
)

_APPEND_EVENTS = insert(game_events)
_EVENTS_AFTER = (
    select(game_events)
    .where(game_events.c.game_id == bindparam("game_id"), game_events.c.seq > bindparam("after"))
    .order_by(game_events.c.seq)
    .limit(bindparam("limit"))
)
_GAME_EXISTS = select(exists().where(games.c.id == bindparam("game_id")))
_GET_RESULT = select(idempotency.c.response).where(
    idempotency.c.game_id == bindparam("game_id"), idempotency.c.key == bindparam("key")
)
_REMEMBER_RESULT = insert(idempotency)


class SqlGameRepository:
    """``domain.ports.GameRepository`` on a SQLAlchemy session (SQLite or PostgreSQL)."""

    def __init__(
        self, session: Session, registry: EngineRegistry, before_write: Callable[[], None] | None = None
    ) -> None:
        self.session = session
        self.registry = registry
        self._before_write = before_write or _nothing

    def add(self, match: Match) -> None:
        self._before_write()
        self.session.execute(insert(games).values(game_values(match, _now())))
        self._append_events(match)

    def get(self, game_id: str) -> Match:
        row = self.session.execute(_GET_GAME, {"game_id": game_id}).mappings().first()
        if row is None:
            raise GameNotFound(f"no game with id '{game_id}'")
        return match_from_row(row, self.registry)

    def save(self, match: Match) -> None:
        """Write the match only if nobody else did since it was loaded (optimistic locking)."""
        self._before_write()
        result = self.session.execute(
            _SAVE_GAME,
            {
                **changed_game_values(match, _now()),
                "match_id": match.id,
                "loaded_version": match.loaded_version,
            },
        )
        if result.rowcount == 0:  # type: ignore[attr-defined]
            raise VersionConflict(
                f"game {match.id} changed since it was loaded at version {match.loaded_version}; "
                "reload and retry"
            )
        self._append_events(match)

    def list(
        self, status: str | None, game_type: str | None, limit: int, offset: int
    ) -> builtins.list[GameSummary]:
        """Newest first; ``id`` breaks ties so pages stay stable."""
        query = select(*_SUMMARY_COLUMNS)
        if status is not None:
            query = query.where(games.c.status == status)
        if game_type is not None:
            query = query.where(games.c.game_type == game_type)
        query = query.order_by(games.c.created_at.desc(), games.c.id.desc())
        rows = self.session.execute(query.limit(limit).offset(offset)).mappings()
        return [summary_from_row(row) for row in rows]

    def events(self, game_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]:
        """Events with ``seq > after`` in order; the existence check only runs on an empty page."""
        rows = self.session.execute(
            _EVENTS_AFTER, {"game_id": game_id, "after": after, "limit": limit}
        ).mappings()
        found = [event_from_row(row) for row in rows]
        if not found and not self._exists(game_id):
            raise GameNotFound(f"no game with id '{game_id}'")
        return found

    def count_by_status(self) -> dict[str, int]:
        """Games per status (only statuses that occur), served by the status index."""
        rows = self.session.execute(
            select(games.c.status, func.count()).group_by(games.c.status)
        ).all()
        return {status: count for status, count in rows}

    def idempotent_result(self, game_id: str, key: str) -> dict[str, JSON] | None:
        response: dict[str, JSON] | None = self.session.execute(
            _GET_RESULT, {"game_id": game_id, "key": key}
        ).scalar_one_or_none()
        return response

    def remember_result(self, game_id: str, key: str, result: dict[str, JSON]) -> None:
        self._before_write()
        self.session.execute(
            _REMEMBER_RESULT, {"game_id": game_id, "key": key, "response": result, "created_at": _now()}
        )

    def _append_events(self, match: Match) -> None:
        """One executemany for however many events a change produced."""
        if match.new_events:
            self.session.execute(_APPEND_EVENTS, [event_values(match.id, e) for e in match.new_events])

    def _exists(self, game_id: str) -> bool:
        return bool(self.session.execute(_GAME_EXISTS, {"game_id": game_id}).scalar())


def _nothing() -> None:
    return None


def _now() -> datetime:
    return datetime.now(UTC)
