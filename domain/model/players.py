"""A player identity: optional, kept across games, known by a token stored only as a hash."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Player:
    """An optional identity across games; its token is stored only as a hash."""

    id: str
    name: str
    token_hash: str
    created_at: datetime
