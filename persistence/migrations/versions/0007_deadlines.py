"""The next deadline of each game (turn clocks), indexed for the instances that fire them.

Revision ID: 0007_deadlines
Revises: 0006_players_and_clocks
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_deadlines"
down_revision: str | None = "0006_players_and_clocks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("next_deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_games_next_deadline", "games", ["next_deadline"])


def downgrade() -> None:
    op.drop_index("ix_games_next_deadline", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("next_deadline")
