"""The choices each decision applied: with the revealed seed, they replay a game.

Revision ID: 0010_game_choices
Revises: 0009_rematch
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_game_choices"
down_revision: str | None = "0009_rematch"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_choices",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "version"),
    )


def downgrade() -> None:
    op.drop_table("game_choices")
