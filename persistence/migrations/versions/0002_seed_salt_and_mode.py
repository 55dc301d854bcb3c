"""Salted seed commitments and the seed mode (issue 10 item 3).

Games stored before keep no salt (their commitment is the unsalted ``sha256(seed)``) and are
marked ``host``: nobody can tell any more whether their host chose the seed, so joiners are warned.

Revision ID: 0002_seed_salt_and_mode
Revises: 0001_initial
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_seed_salt_and_mode"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_salt", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seed_mode", sa.String(16), nullable=False, server_default="host"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_mode")
        batch.drop_column("seed_salt")
