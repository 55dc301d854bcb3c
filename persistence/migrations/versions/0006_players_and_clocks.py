"""Players and their seats; the per-seat turn timing of each game.

Revision ID: 0006_players_and_clocks
Revises: 0005_bot_seat_counts
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_players_and_clocks"
down_revision: str | None = "0005_bot_seat_counts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("timing", sa.JSON(), nullable=True))
    op.create_table(
        "players",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_table(
        "player_seats",
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "game_id", "seat"),
    )
    op.create_index("ix_player_seats_player_joined", "player_seats", ["player_id", "joined_at"])


def downgrade() -> None:
    op.drop_index("ix_player_seats_player_joined", table_name="player_seats")
    op.drop_table("player_seats")
    op.drop_table("players")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("timing")
