"""Webhook data: endpoints, deliveries and attempts, as plain values shared by ports and use cases."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from domain.engine import Document, Stored

FILTERS = ("your_turn", "game_started", "game_over", "reveal", "takeback", "tournament_round_ready", "all")
"""``all``: every event the owner's seat (or a spectator, for a host) may see, and every notice;
``takeback``: a take-back asked, answered, cancelled or done (``domain.model.takebacks``);
``tournament_round_ready``: a player's game in a tournament's new round is ready (a player's
endpoint only)."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    id: str
    url: str
    secret: str
    filters: tuple[str, ...]
    created_at: datetime
    player_id: str | None = None
    game_id: str | None = None
    status: str = "active"


@dataclass(frozen=True, slots=True)
class NewDelivery:
    message_id: str
    endpoint_id: str
    game_id: str
    kind: str
    payload: Document


@dataclass(frozen=True, slots=True)
class Attempt:
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: float


@dataclass(frozen=True, slots=True)
class Delivery:
    """A delivery as its owner may list it."""

    message_id: str
    endpoint_id: str
    game_id: str
    kind: str
    payload: Stored
    status: str  # pending, delivered, failed
    attempts: int
    next_attempt_at: datetime | None
    created_at: datetime
    delivered_at: datetime | None
    history: list[Attempt] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ClaimedDelivery:
    """A delivery leased to one sender: nobody else sends it until the lease ends."""

    id: int
    message_id: str
    endpoint_id: str
    url: str
    secret: str
    body: str
    attempts: int
    created_at: datetime
