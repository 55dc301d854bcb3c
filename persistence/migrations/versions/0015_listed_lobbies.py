"""The lobby lists what a player can really join (issue 19 item 4): who created a game (a player
identity; only such lobbies are listed) and from which client address (hashed; bounds its open
listed games), the clock's mode as a column to filter by, and the identities a host blocked.
Existing rows: no creator (their lobbies are no longer listed), the clock mode read from the
stored timing, nobody blocked.

Revision ID: 0015_listed_lobbies
Revises: 0014_chat
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_listed_lobbies"
down_revision: str | None = "0014_chat"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("creator_address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("clock_mode", sa.String(16), nullable=False, server_default="none"))
        batch.add_column(sa.Column("blocked", sa.JSON(), nullable=True))
        batch.create_index("ix_games_creator_status", ["creator_id", "status"])
        batch.create_index("ix_games_creator_address_status", ["creator_address", "status"])
    games = sa.table(
        "games", sa.column("id", sa.String), sa.column("timing", sa.JSON), sa.column("clock_mode", sa.String)
    )
    connection = op.get_bind()
    for game_id, timing in connection.execute(sa.select(games.c.id, games.c.timing)).all():
        mode = ((timing or {}).get("settings") or {}).get("mode", "none")
        if mode != "none":
            connection.execute(games.update().where(games.c.id == game_id).values(clock_mode=mode))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_creator_address_status")
        batch.drop_index("ix_games_creator_status")
        batch.drop_column("blocked")
        batch.drop_column("clock_mode")
        batch.drop_column("creator_address")
        batch.drop_column("creator_id")
