"""A hand-written fake of ``domain.ports.notices.NoticeRepository`` for service tests."""

from __future__ import annotations

import builtins
import dataclasses
from collections.abc import Collection
from datetime import datetime, timedelta

from domain.model.notices import ClaimedNotice, EmailContact, NewNoticeDelivery, PushSubscription, Target


@dataclasses.dataclass
class FakeNoticeDelivery:
    id: int
    new: NewNoticeDelivery
    status: str = "pending"
    attempts: int = 0


class FakeNoticeRepository:
    def __init__(self, channels: frozenset[str] = frozenset({"push", "email"})) -> None:
        self.channels = channels
        self.subscriptions: dict[str, PushSubscription] = {}
        self.emails: dict[str, EmailContact] = {}
        self.deliveries: list[FakeNoticeDelivery] = []

    def add_subscription(self, subscription: PushSubscription) -> None:
        for old in [s for s in self.subscriptions.values() if s.endpoint == subscription.endpoint]:
            self.remove_subscription(old.id)
        self.subscriptions[subscription.id] = subscription

    def subscriptions_of(self, player_id: str) -> builtins.list[PushSubscription]:
        return sorted(  # stable: in the order stored at one moment
            (s for s in self.subscriptions.values() if s.player_id == player_id), key=lambda s: s.created_at
        )

    def remove_subscription(self, subscription_id: str) -> None:
        self.subscriptions.pop(subscription_id, None)
        self._drop("push", subscription_id)

    def set_email(self, contact: EmailContact) -> None:
        self.emails[contact.player_id] = contact

    def email_of(self, player_id: str) -> EmailContact | None:
        return self.emails.get(player_id)

    def set_email_enabled(self, player_id: str, enabled: bool) -> None:
        if player_id in self.emails:
            self.emails[player_id] = dataclasses.replace(self.emails[player_id], enabled=enabled)
        if not enabled:
            self._drop("email", player_id)

    def remove_email(self, player_id: str) -> None:
        self.emails.pop(player_id, None)
        self._drop("email", player_id)

    def _drop(self, channel: str, target_id: str) -> None:
        for d in self.deliveries:
            if (
                d.new.target.channel == channel
                and d.new.target.target_id == target_id
                and d.status == "pending"
            ):
                d.status = "dropped"

    def targets_for(self, player_ids: Collection[str]) -> builtins.list[Target]:
        found: list[Target] = []
        if "push" in self.channels:
            for player in sorted(set(player_ids)):
                found += [Target(player, "push", s.id, s.language) for s in self.subscriptions_of(player)]
        if "email" in self.channels:
            found += [
                Target(c.player_id, "email", c.player_id, c.language)
                for c in self.emails.values()
                if c.player_id in player_ids and c.enabled
            ]
        return found

    def enqueue(self, deliveries: builtins.list[NewNoticeDelivery], now: datetime) -> None:
        for new in deliveries:
            self.deliveries.append(FakeNoticeDelivery(len(self.deliveries) + 1, new))

    def claim(self, now: datetime, lease: timedelta, owner: str) -> ClaimedNotice | None:
        """The oldest pending delivery (the fake has one sender: no leases)."""
        for d in self.deliveries:
            if d.status != "pending":
                continue
            target, notice = d.new.target, d.new.notice
            subscription = self.subscriptions.get(target.target_id) if target.channel == "push" else None
            contact = self.emails.get(target.target_id) if target.channel == "email" else None
            return ClaimedNotice(
                d.id,
                target.channel,
                target.target_id,
                notice.player_id,
                notice.kind,
                notice.game_id,
                notice.seat,
                target.language,
                d.new.payload,
                d.attempts,
                now,
                subscription,
                contact,
            )
        return None

    def record(
        self,
        delivery_id: int,
        owner: str,
        sent: bool,
        next_attempt_at: datetime | None,
        error: str | None,
        now: datetime,
    ) -> bool:
        d = self.deliveries[delivery_id - 1]
        if d.status != "pending":
            return False
        d.attempts += 1
        if sent:
            d.status = "sent"
        elif next_attempt_at is None:
            d.status = "failed"
        return True
