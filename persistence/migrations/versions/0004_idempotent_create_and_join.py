"""Idempotency keys remember the request's fingerprint; creates remember their key (issue 10 item 12).

Revision ID: 0004_idempotent_create_and_join
Revises: 0003_private_lobbies
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_idempotent_create_and_join"
down_revision: str | None = "0003_private_lobbies"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("idempotency") as batch:
        batch.add_column(sa.Column("fingerprint", sa.String(64), nullable=True))
    op.create_table(
        "create_requests",
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("key_hash"),
    )


def downgrade() -> None:
    op.drop_table("create_requests")
    with op.batch_alter_table("idempotency") as batch:
        batch.drop_column("fingerprint")
