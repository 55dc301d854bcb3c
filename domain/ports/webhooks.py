"""The webhooks' storage: endpoints and the outbox of deliveries with their attempts."""

from __future__ import annotations

import builtins
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Protocol

from domain.model.webhooks import Attempt, ClaimedDelivery, Delivery, Endpoint, NewDelivery


class WebhookRepository(Protocol):
    def add_endpoint(self, endpoint: Endpoint) -> None: ...

    def get_endpoint(self, endpoint_id: str) -> Endpoint | None: ...

    def endpoints_of(self, player_id: str | None, game_id: str | None) -> builtins.list[Endpoint]:
        """A player's endpoints, or a game's (host) endpoints; deleted ones are left out."""
        ...

    def endpoints_for_game(self, game_id: str, player_ids: builtins.list[str]) -> builtins.list[Endpoint]:
        """The active endpoints interested in a game: its host's and its players'."""
        ...

    def set_status(self, endpoint_id: str, status: str, now: datetime | None) -> None:
        """active / failing / deleted; back to active re-queues its failed deliveries at ``now``."""
        ...

    def enqueue(self, deliveries: builtins.list[NewDelivery], now: datetime) -> None: ...

    def deliveries_of(self, endpoint_id: str, limit: int) -> builtins.list[Delivery]:
        """Newest first, each with its attempts."""
        ...

    def claim(
        self, now: datetime, lease: timedelta, owner: str, skip_endpoints: Collection[str] = ()
    ) -> ClaimedDelivery | None:
        """Lease the next due delivery whose earlier deliveries (same endpoint and game) are all
        done, so each endpoint gets a game's deliveries in order, and whose endpoint is not in
        ``skip_endpoints`` (those the caller is busy with); None when nothing is due."""
        ...

    def record_attempt(
        self,
        delivery_id: int,
        owner: str,
        attempt: Attempt,
        delivered: bool,
        next_attempt_at: datetime | None,
    ) -> bool:
        """Record one try under our lease (False if the lease was lost). ``next_attempt_at`` None
        after a failure: give up, the delivery fails and its endpoint is marked failing."""
        ...
