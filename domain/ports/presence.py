"""The live connections' storage, shared by every instance."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from domain.model.presence import Connection


class PresenceRepository(Protocol):
    def add(self, connection: Connection) -> None: ...

    def remove(self, connection_id: str) -> None: ...

    def remove_instance(self, instance: str) -> None: ...

    def connected_seats(self, game_id: str, now: datetime) -> frozenset[int]:
        """Seats of the game with a connection that has not expired by ``now``."""
        ...

    def extend(self, instance: str, until: datetime) -> None:
        """Every connection of ``instance`` now expires at ``until``."""
        ...

    def purge_expired(self, now: datetime) -> None: ...
