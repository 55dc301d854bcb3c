"""Rematch links between games.

Revision ID: 0009_rematch
Revises: 0008_webhooks
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_rematch"
down_revision: str | None = "0008_webhooks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch_of", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("rematch_id", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_id")
        batch.drop_column("rematch_of")
