"""Chat mutes and hides name people, not seat numbers (issue 31 item 4): in a lobby the seats move
up when one leaves, so a mute followed a number to whoever took it next. A row now names a person
as ``domain.model.chat.person`` does (``player:<id>``, ``address:<hash>``, else ``token:<hash>``).
Existing rows are carried over to the people who hold those seats now.

Revision ID: 0018_chat_people
Revises: 0017_tournaments
Create Date: 2026-11-28
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0018_chat_people"
down_revision: str | None = "0017_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _people(seat: dict[str, Any]) -> list[str]:
    found = [f"player:{seat['player_id']}"] if seat.get("player_id") else []
    found += [f"address:{seat['address_hash']}"] if seat.get("address_hash") else []
    if not found and seat.get("token_hash") and seat.get("bot") is None:
        found = [f"token:{seat['token_hash']}"]
    return found


def _seats(connection: sa.Connection, games: set[str]) -> dict[str, list[dict[str, Any]]]:
    """Each game's stored seats (JSON text on SQLite, a JSON value on PostgreSQL)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for game_id in games:
        stored = connection.execute(
            sa.text("SELECT seats FROM games WHERE id = :id"), {"id": game_id}
        ).scalar()
        found[game_id] = json.loads(stored) if isinstance(stored, str) else (stored or [])
    return found


def upgrade() -> None:
    connection = op.get_bind()
    mutes = connection.execute(sa.text("SELECT game_id, seat FROM chat_mutes")).all()
    hides = connection.execute(sa.text("SELECT game_id, seat, target FROM chat_hides")).all()
    seats = _seats(connection, {game_id for game_id, *_ in [*mutes, *hides]})

    def people(game_id: str, index: int) -> list[str]:
        held = seats.get(game_id, [])
        return _people(held[index]) if 0 <= index < len(held) else []

    op.drop_table("chat_hides")
    op.drop_table("chat_mutes")
    muted = op.create_table(
        "chat_mutes",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("person", sa.String(96), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "person"),
    )
    hidden = op.create_table(
        "chat_hides",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("hider", sa.String(96), nullable=False),
        sa.Column("target", sa.String(96), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "hider", "target"),
    )
    muted_rows = {(g, p) for g, seat in mutes for p in people(g, seat)}
    hidden_rows = {
        (g, h, t) for g, seat, target in hides for h in people(g, seat) for t in people(g, target) if h != t
    }
    if muted_rows:
        op.bulk_insert(muted, [{"game_id": g, "person": p} for g, p in sorted(muted_rows)])
    if hidden_rows:
        op.bulk_insert(hidden, [{"game_id": g, "hider": h, "target": t} for g, h, t in sorted(hidden_rows)])


def downgrade() -> None:
    """Back to seat numbers: the people's seats now (a person no longer seated is dropped)."""
    connection = op.get_bind()
    mutes = connection.execute(sa.text("SELECT game_id, person FROM chat_mutes")).all()
    hides = connection.execute(sa.text("SELECT game_id, hider, target FROM chat_hides")).all()
    seats = _seats(connection, {game_id for game_id, *_ in [*mutes, *hides]})

    def indices(game_id: str, person: str) -> list[int]:
        return [i for i, seat in enumerate(seats.get(game_id, [])) if person in _people(seat)]

    op.drop_table("chat_hides")
    op.drop_table("chat_mutes")
    muted = op.create_table(
        "chat_mutes",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    hidden = op.create_table(
        "chat_hides",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("target", sa.Integer(), autoincrement=False, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat", "target"),
    )
    muted_rows = {(g, i) for g, p in mutes for i in indices(g, p)}
    hidden_rows = {(g, i, j) for g, h, t in hides for i in indices(g, h) for j in indices(g, t) if i != j}
    if muted_rows:
        op.bulk_insert(muted, [{"game_id": g, "seat": i} for g, i in sorted(muted_rows)])
    if hidden_rows:
        op.bulk_insert(hidden, [{"game_id": g, "seat": i, "target": j} for g, i, j in sorted(hidden_rows)])
