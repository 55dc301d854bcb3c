"""The notices' storage: players' push subscriptions and e-mail addresses, and the outbox of
notice deliveries with their leases (``domain.model.notices``)."""

from __future__ import annotations

import builtins
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Protocol

from domain.model.notices import ClaimedNotice, EmailContact, NewNoticeDelivery, PushSubscription, Target


class NoticeRepository(Protocol):
    # -- push subscriptions ------------------------------------------------------------------------

    def add_subscription(self, subscription: PushSubscription) -> None:
        """Store it; a subscription of the same push endpoint (the same browser) is replaced."""
        ...

    def subscriptions_of(self, player_id: str) -> builtins.list[PushSubscription]:
        """Oldest first."""
        ...

    def remove_subscription(self, subscription_id: str) -> None:
        """Gone, with its undelivered notices."""
        ...

    # -- e-mail ------------------------------------------------------------------------------------

    def set_email(self, contact: EmailContact) -> None:
        """The player's address (replacing any earlier one)."""
        ...

    def email_of(self, player_id: str) -> EmailContact | None: ...

    def set_email_enabled(self, player_id: str, enabled: bool) -> None: ...

    def remove_email(self, player_id: str) -> None: ...

    # -- the outbox --------------------------------------------------------------------------------

    def targets_for(self, player_ids: Collection[str]) -> builtins.list[Target]:
        """Where the notices of these players go on the channels this server sends on (none when
        it sends none): each push subscription, and each address whose notices are on."""
        ...

    def enqueue(self, deliveries: builtins.list[NewNoticeDelivery], now: datetime) -> None: ...

    def claim(self, now: datetime, lease: timedelta, owner: str) -> ClaimedNotice | None:
        """Lease the next due delivery (nobody else sends it until the lease ends); None when
        nothing is due. A delivery whose target is gone (unsubscribed, e-mail turned off) is
        dropped instead."""
        ...

    def record(
        self,
        delivery_id: int,
        owner: str,
        sent: bool,
        next_attempt_at: datetime | None,
        error: str | None,
        now: datetime,
    ) -> bool:
        """One attempt under our lease (False if the lease was lost): sent; or to try again at
        ``next_attempt_at``; or (None) given up."""
        ...
