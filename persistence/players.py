"""The SQL player repository: identities and the seats they hold."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from domain.model.players import Player
from domain.ports.players import PlayerSeat
from persistence.mapping import as_utc
from persistence.tables import player_seats, players


class SqlPlayerRepository:
    """``domain.ports.players.PlayerRepository`` on the unit of work's session."""

    def __init__(self, session: Session, before_write: Callable[[], None]) -> None:
        self.session = session
        self._before_write = before_write

    def add(self, player: Player) -> None:
        self._before_write()
        self.session.execute(
            insert(players).values(
                id=player.id,
                name=player.name,
                token_hash=player.token_hash,
                created_at=as_utc(player.created_at),
            )
        )

    def by_token_hash(self, token_hash: str) -> Player | None:
        row = (
            self.session.execute(select(players).where(players.c.token_hash == token_hash)).mappings().first()
        )
        if row is None:
            return None
        return Player(row["id"], row["name"], row["token_hash"], as_utc(row["created_at"]))

    def link_seat(self, player_id: str, game_id: str, seat: int, joined_at: datetime) -> None:
        self._before_write()
        self.session.execute(
            insert(player_seats).values(
                player_id=player_id, game_id=game_id, seat=seat, joined_at=as_utc(joined_at)
            )
        )

    def seats_of(self, player_id: str, limit: int, offset: int) -> builtins.list[PlayerSeat]:
        rows = self.session.execute(
            select(player_seats)
            .where(player_seats.c.player_id == player_id)
            .order_by(player_seats.c.joined_at.desc(), player_seats.c.game_id, player_seats.c.seat)
            .limit(limit)
            .offset(offset)
        ).mappings()
        return [PlayerSeat(r["game_id"], r["seat"], as_utc(r["joined_at"])) for r in rows]
