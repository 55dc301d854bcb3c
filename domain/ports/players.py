"""The player identities' storage, and the seats each one holds."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from domain.model.players import Player


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    game_id: str
    seat: int
    joined_at: datetime


class PlayerRepository(Protocol):
    def add(self, player: Player) -> None: ...

    def by_token_hash(self, token_hash: str) -> Player | None: ...

    def link_seat(self, player_id: str, game_id: str, seat: int, joined_at: datetime) -> None:
        """Record that the player holds this seat (in the same transaction as the join)."""
        ...

    def seats_of(self, player_id: str, limit: int, offset: int) -> builtins.list[PlayerSeat]:
        """The player's seats, most recently joined first."""
        ...
