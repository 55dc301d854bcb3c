"""Established ratings (issue 31 item 5): a rating counts its rated games with an established
opponent (``anchored``) and says whether it is established, which the leaderboard ranks first
(``domain.model.ratings``). A bot level's rating is established from the start; a player's stored
before this revision starts with no such games.

Revision ID: 0019_established_ratings
Revises: 0018_chat_people
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_established_ratings"
down_revision: str | None = "0018_chat_people"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("anchored", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("established", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.drop_index("ix_ratings_board")
        batch.create_index("ix_ratings_board", ["game_type", "established", "display", "subject"])
    op.execute(
        sa.text("UPDATE ratings SET established = :yes WHERE subject LIKE 'bot:%'").bindparams(yes=True)
    )


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.drop_index("ix_ratings_board")
        batch.create_index("ix_ratings_board", ["game_type", "display", "subject"])
        batch.drop_column("established")
        batch.drop_column("anchored")
