"""The SQL presence repository: one row per open subscription, kept alive by its instance."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from domain.model.presence import Connection
from persistence.mapping import as_utc
from persistence.tables import presence


class SqlPresenceRepository:
    """``domain.ports.presence.PresenceRepository`` on the unit of work's session."""

    def __init__(self, session: Session, before_write: Callable[[], None]) -> None:
        self.session = session
        self._before_write = before_write

    def add(self, connection: Connection) -> None:
        self._before_write()
        self.session.execute(
            insert(presence).values(
                id=connection.id,
                game_id=connection.game_id,
                seat=connection.seat,
                instance=connection.instance,
                expires_at=as_utc(connection.expires_at),
            )
        )

    def remove(self, connection_id: str) -> None:
        self._before_write()
        self.session.execute(delete(presence).where(presence.c.id == connection_id))

    def remove_instance(self, instance: str) -> None:
        self._before_write()
        self.session.execute(delete(presence).where(presence.c.instance == instance))

    def connected_seats(self, game_id: str, now: datetime) -> frozenset[int]:
        rows = self.session.execute(
            select(presence.c.seat)
            .where(presence.c.game_id == game_id, presence.c.expires_at > as_utc(now))
            .distinct()
        )
        return frozenset(seat for (seat,) in rows)

    def extend(self, instance: str, until: datetime) -> None:
        self._before_write()
        self.session.execute(
            update(presence).where(presence.c.instance == instance).values(expires_at=as_utc(until))
        )

    def purge_expired(self, now: datetime) -> None:
        self._before_write()
        self.session.execute(delete(presence).where(presence.c.expires_at <= as_utc(now)))
