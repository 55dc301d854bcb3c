"""Ratings (current, history) and players' game results.

Revision ID: 0013_ratings
Revises: 0012_presence
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_ratings"
down_revision: str | None = "0012_presence"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _game_id() -> sa.Column[str]:
    return sa.Column("game_id", sa.String(64), nullable=False)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("game_type", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("display", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("subject", "game_type"),
    )
    op.create_index("ix_ratings_board", "ratings", ["game_type", "display", "subject"])
    op.create_table(
        "rating_changes",
        _game_id(),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("game_type", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("games_before", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "subject"),
    )
    op.create_index("ix_rating_changes_subject_at", "rating_changes", ["subject", "at"])
    op.create_table(
        "game_results",
        _game_id(),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("game_type", sa.String(64), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("ix_game_results_player_at", "game_results", ["player_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_game_results_player_at", table_name="game_results")
    op.drop_table("game_results")
    op.drop_index("ix_rating_changes_subject_at", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
