"""Private games joined by invite code (issue 10 item 11).

Revision ID: 0003_private_lobbies
Revises: 0002_seed_salt_and_mode
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_private_lobbies"
down_revision: str | None = "0002_seed_salt_and_mode"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("invite_code_hash", sa.String(128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("invite_code_hash")
        batch.drop_column("private")
