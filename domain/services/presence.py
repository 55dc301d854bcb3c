"""Which seats are connected now: an open live subscription by the seat's own token.

Presence is shared by every instance through storage, not held in one process's memory: each
open subscription is a row owned by the instance that serves it, with an expiry. Every instance
extends its own rows now and then (a heartbeat) and purges everybody's expired ones, so the rows
of an instance that crashed vanish within one time-to-live, and a seat subscribed on instance A
reads as connected on instance B. Presence is not part of a game's state: it changes no version
and records no event; a view shows only whether each seat is connected, nothing else.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from domain.model.presence import Connection
from domain.services.core import ServiceCore


class PresenceService:
    def __init__(self, core: ServiceCore, instance: str, ttl: timedelta) -> None:
        self.core = core
        self.instance = instance
        """This instance's id: it owns (and keeps alive) the connections it registered."""
        self.ttl = ttl

    def connect(self, game_id: str, seat: int) -> str:
        """Register an open subscription of ``seat``; the id to pass to ``disconnect``."""
        connection = Connection(
            id=uuid.uuid4().hex,
            game_id=game_id,
            seat=seat,
            instance=self.instance,
            expires_at=self.core.clock.now() + self.ttl,
        )
        with self.core.uow() as uow:
            uow.presence.add(connection)
            uow.commit()
        return connection.id

    def disconnect(self, connection_id: str) -> None:
        with self.core.uow() as uow:
            uow.presence.remove(connection_id)
            uow.commit()

    def connected(self, game_id: str) -> frozenset[int]:
        """The seats of a game with at least one unexpired subscription."""
        with self.core.uow() as uow:
            return uow.presence.connected_seats(game_id, self.core.clock.now())

    def heartbeat(self) -> None:
        """Keep this instance's connections alive for another ``ttl``; drop everyone's expired."""
        now = self.core.clock.now()
        with self.core.uow() as uow:
            uow.presence.extend(self.instance, now + self.ttl)
            uow.presence.purge_expired(now)
            uow.commit()

    def leave(self) -> None:
        """This instance stops (cleanly): its connections end now, not at their expiry."""
        with self.core.uow() as uow:
            uow.presence.remove_instance(self.instance)
            uow.commit()
