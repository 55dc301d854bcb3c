"""Tournaments' stored events and idempotent creates (issue 30): each event a tournament records
(``seq`` = the aggregate's version after it), written in the transaction of the change, so a
tournament's SSE stream and ``tournamentEvents`` subscription resume from storage with no gap;
and the creates made with an ``Idempotency-Key`` (the key's hash, the body's fingerprint, the
answer's nonce), as ``create_requests`` does for games.

Revision ID: 0020_tournament_events
Revises: 0019_established_ratings
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020_tournament_events"
down_revision: str | None = "0019_established_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_events",
        sa.Column(
            "tournament_id",
            sa.String(64),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_create_requests",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column(
            "tournament_id",
            sa.String(64),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_create_requests")
    op.drop_table("tournament_events")
