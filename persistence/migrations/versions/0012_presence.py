"""Presence: one row per open live subscription of a seat, kept alive by its instance.

Revision ID: 0012_presence
Revises: 0011_decision_versions_and_lobby
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_presence"
down_revision: str | None = "0011_decision_versions_and_lobby"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("instance", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_presence_game_expiry", "presence", ["game_id", "expires_at"])
    op.create_index("ix_presence_instance", "presence", ["instance"])


def downgrade() -> None:
    op.drop_index("ix_presence_instance", table_name="presence")
    op.drop_index("ix_presence_game_expiry", table_name="presence")
    op.drop_table("presence")
