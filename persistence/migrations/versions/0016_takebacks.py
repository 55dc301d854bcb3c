"""Take-backs (issue 30 item 5): a game's take-back bookkeeping (allowed, the decisions that may
still be taken back, the open request) in one JSON column, and a take-back's entry in the
choices log naming the decisions it took back, so a replay skips them. Existing games: no
take-backs.

Revision ID: 0016_takebacks
Revises: 0015_listed_lobbies
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_takebacks"
down_revision: str | None = "0015_listed_lobbies"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("takebacks", sa.JSON(), nullable=True))
    with op.batch_alter_table("game_choices") as batch:
        batch.add_column(sa.Column("undoes", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_choices") as batch:
        batch.drop_column("undoes")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takebacks")
