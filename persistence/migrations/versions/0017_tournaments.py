"""Tournaments (issue 30): the tournament row (columns for what is queried, a document for the
rest) and its round tables, whose key (tournament, round, number) and unique game id let a round
be created once only, however many instances try.

Revision ID: 0017_tournaments
Revises: 0016_takebacks
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_tournaments"
down_revision: str | None = "0016_takebacks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_type", sa.String(64), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("next_action_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("host_token_hash", sa.String(128), nullable=False),
        sa.Column("document", sa.JSON(), nullable=False),
    )
    op.create_index("ix_tournaments_next_action_at", "tournaments", ["next_action_at"])
    op.create_index("ix_tournaments_listed", "tournaments", ["private", "status", "created_at"])
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id",
            sa.String(64),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=True),
    )
    op.create_index("ux_tournament_tables_game", "tournament_tables", ["game_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_tournament_tables_game", "tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournaments_listed", "tournaments")
    op.drop_index("ix_tournaments_next_action_at", "tournaments")
    op.drop_table("tournaments")
