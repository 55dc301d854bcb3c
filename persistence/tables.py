"""The schema, as SQLModel table classes. They never leave ``persistence/``: see ``mapping``.

JSON columns use the plain ``JSON`` type (``json`` on PostgreSQL, text on SQLite) rather than
``JSONB``: we never query inside them, and ``json`` keeps the engine's key order and skips the
parse on every write of the hot ``games`` row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Index, Integer, MetaData, String
from sqlmodel import Field, SQLModel

metadata: MetaData = SQLModel.metadata
"""The metadata Alembic migrations are checked against."""

GAME_ID_LENGTH = 64


def _json(nullable: bool = False) -> Any:
    return Field(sa_column=Column(JSON(none_as_null=True), nullable=nullable))


def _timestamp() -> Any:
    return Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class GameRow(SQLModel, table=True):
    """One match: its current state in a single row, so loading never replays history."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_created_at", "created_at"),)

    id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), primary_key=True))
    game_type: str = Field(sa_column=Column(String(64), nullable=False))
    options: dict[str, Any] = _json()
    seed: str = Field(sa_column=Column(String(128), nullable=False))
    seed_commitment: str = Field(sa_column=Column(String(128), nullable=False))
    host_token_hash: str = Field(sa_column=Column(String(128), nullable=False))
    status: str = Field(sa_column=Column(String(32), nullable=False, index=True))
    seats: list[dict[str, Any]] = _json()
    version: int = Field(sa_column=Column(Integer, nullable=False))
    state: dict[str, Any] | None = _json(nullable=True)
    sealed: dict[str, Any] = _json()
    last_seq: int = Field(sa_column=Column(Integer, nullable=False))
    result: dict[str, Any] | None = _json(nullable=True)
    created_at: datetime = _timestamp()
    updated_at: datetime = _timestamp()


class GameEventRow(SQLModel, table=True):
    """An append-only history entry; ``private`` maps a seat (as a string) to its secret data."""

    __tablename__ = "game_events"

    game_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH),
            ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        )
    )
    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    type: str = Field(sa_column=Column(String(64), nullable=False))
    data: dict[str, Any] = _json()
    private: dict[str, Any] = _json()


class IdempotencyRow(SQLModel, table=True):
    """The first response to a retried submit, keyed by ``"<seat>:<client key>"``."""

    __tablename__ = "idempotency"

    game_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH),
            ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        )
    )
    key: str = Field(sa_column=Column(String(255), primary_key=True))
    response: dict[str, Any] = _json()
    created_at: datetime = _timestamp()


games = GameRow.__table__  # type: ignore[attr-defined]
game_events = GameEventRow.__table__  # type: ignore[attr-defined]
idempotency = IdempotencyRow.__table__  # type: ignore[attr-defined]
