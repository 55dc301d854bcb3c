"""Per-seat concurrency tokens and the lobby's page (issue 12): the version at which the current
decision was put and at which each seat sealed (a seat's ``decision_version``), and per game its
seat limit and the seats it waits for, so the lobby lists and filters joinable games without
loading states. Existing rows: a decision counts as put at the game's current version, the limit
and awaited seats are computed once from the stored game.

Revision ID: 0011_decision_versions_and_lobby
Revises: 0010_game_choices
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0011_decision_versions_and_lobby"
down_revision: str | None = "0010_game_choices"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("decision_version", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("sealed_versions", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("max_players", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("awaited_seats", sa.JSON(), nullable=True))
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("game_type", sa.String),
        sa.column("options", sa.JSON),
        sa.column("status", sa.String),
        sa.column("seats", sa.JSON),
        sa.column("sealed", sa.JSON),
        sa.column("state", sa.JSON),
        sa.column("version", sa.Integer),
        sa.column("decision_version", sa.Integer),
        sa.column("max_players", sa.Integer),
        sa.column("awaited_seats", sa.JSON),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(
            games.c.id,
            games.c.game_type,
            games.c.options,
            games.c.status,
            games.c.seats,
            games.c.sealed,
            games.c.state,
        )
    ).all()
    for row in rows:
        limit, awaited = _lobby_facts(row)
        connection.execute(
            games.update()
            .where(games.c.id == row.id)
            .values(decision_version=games.c.version, max_players=limit, awaited_seats=awaited)
        )


def _lobby_facts(row: Any) -> tuple[int, list[int]]:
    """The seat limit and awaited seats of a stored game, from its engine when it is known."""
    from domain.registry import default_registry

    seats = len(row.seats or [])
    registry = default_registry()
    if row.game_type not in {engine.meta.slug for engine in registry}:
        return seats, []
    engine = registry.get(row.game_type)
    limit = engine.meta.max_players_for(dict(row.options or {}))
    if row.status != "in_progress" or row.state is None:
        return limit, []
    decision = engine.decision(engine.load(row.state))
    sealed = {int(seat) for seat in (row.sealed or {})}
    awaited = [] if decision is None else [s for s in decision.seats if s not in sealed]
    return limit, awaited


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("awaited_seats")
        batch.drop_column("max_players")
        batch.drop_column("sealed_versions")
        batch.drop_column("decision_version")
