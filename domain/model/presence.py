"""Who is connected: one open live subscription of a seat, held by the instance that serves it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Connection:
    """One open live subscription of a seat, owned by the instance serving it until it expires."""

    id: str
    game_id: str
    seat: int
    instance: str
    expires_at: datetime
