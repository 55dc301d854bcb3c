"""Bot and human seat counts per game, so bot work resumes for every game after a restart and
games of bots only can be counted (issue 10 items 9 and 10). Existing rows are counted from their
seats.

Revision ID: 0005_bot_seat_counts
Revises: 0004_idempotent_create_and_join
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_bot_seat_counts"
down_revision: str | None = "0004_idempotent_create_and_join"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bot_seats", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("human_seats", sa.Integer(), nullable=False, server_default="0"))
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("seats", sa.JSON),
        sa.column("bot_seats", sa.Integer),
        sa.column("human_seats", sa.Integer),
    )
    connection = op.get_bind()
    for game_id, seats in connection.execute(sa.select(games.c.id, games.c.seats)).all():
        bots = sum(1 for seat in seats or [] if seat.get("bot"))
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(bot_seats=bots, human_seats=len(seats or []) - bots)
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("human_seats")
        batch.drop_column("bot_seats")
