"""The SQL notice repository: push subscriptions, e-mail addresses and the notices' outbox.

Senders lease one delivery at a time as the webhook sender does (``persistence.outbox``): on
PostgreSQL the candidate row is locked with ``FOR UPDATE SKIP LOCKED`` while the lease is
written, so two instances never take the same notice; a sender that dies loses its lease when it
runs out. A delivery whose target is gone (the browser unsubscribed, the e-mail turned off) is
dropped when it comes due.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Collection, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from domain.model.notices import (
    CHANNELS,
    ClaimedNotice,
    EmailContact,
    NewNoticeDelivery,
    PushSubscription,
    Target,
)
from persistence import outbox
from persistence.mapping import as_utc
from persistence.tables import notice_deliveries, notice_emails, push_subscriptions


class SqlNoticeRepository:
    """``domain.ports.notices.NoticeRepository`` on the unit of work's session; ``channels``
    are those this server sends on (no target is found on another)."""

    def __init__(
        self, session: Session, before_write: Callable[[], None], channels: frozenset[str] = frozenset()
    ) -> None:
        self.session = session
        self._before_write = before_write
        self.channels = channels

    # -- push subscriptions ------------------------------------------------------------------------

    def add_subscription(self, subscription: PushSubscription) -> None:
        self._before_write()
        old = self.session.execute(
            select(push_subscriptions.c.id).where(push_subscriptions.c.endpoint == subscription.endpoint)
        ).scalar_one_or_none()
        if old is not None:
            self.remove_subscription(old)
        self.session.execute(
            insert(push_subscriptions).values(
                id=subscription.id,
                player_id=subscription.player_id,
                endpoint=subscription.endpoint,
                p256dh=subscription.p256dh,
                auth=subscription.auth,
                language=subscription.language,
                created_at=as_utc(subscription.created_at),
            )
        )

    def subscriptions_of(self, player_id: str) -> builtins.list[PushSubscription]:
        rows = self.session.execute(
            select(push_subscriptions)
            .where(push_subscriptions.c.player_id == player_id)
            .order_by(push_subscriptions.c.created_at, push_subscriptions.c.id)
        ).mappings()
        return [_subscription(row) for row in rows]

    def remove_subscription(self, subscription_id: str) -> None:
        self._before_write()
        self.session.execute(delete(push_subscriptions).where(push_subscriptions.c.id == subscription_id))
        self._drop_deliveries("push", subscription_id)

    # -- e-mail ------------------------------------------------------------------------------------

    def set_email(self, contact: EmailContact) -> None:
        self._before_write()
        self.session.execute(delete(notice_emails).where(notice_emails.c.player_id == contact.player_id))
        self.session.execute(
            insert(notice_emails).values(
                player_id=contact.player_id,
                email=contact.email,
                language=contact.language,
                enabled=contact.enabled,
                opt_out_key=contact.opt_out_key,
                created_at=as_utc(contact.created_at),
            )
        )

    def email_of(self, player_id: str) -> EmailContact | None:
        row = (
            self.session.execute(select(notice_emails).where(notice_emails.c.player_id == player_id))
            .mappings()
            .first()
        )
        return _contact(row) if row is not None else None

    def set_email_enabled(self, player_id: str, enabled: bool) -> None:
        self._before_write()
        self.session.execute(
            update(notice_emails).where(notice_emails.c.player_id == player_id).values(enabled=enabled)
        )
        if not enabled:
            self._drop_deliveries("email", player_id)

    def remove_email(self, player_id: str) -> None:
        self._before_write()
        self.session.execute(delete(notice_emails).where(notice_emails.c.player_id == player_id))
        self._drop_deliveries("email", player_id)

    def _drop_deliveries(self, channel: str, target_id: str) -> None:
        """The pending deliveries to a target that is gone (an unsubscribed browser, an e-mail
        address removed or turned off) are never sent."""
        self.session.execute(
            update(notice_deliveries)
            .where(
                notice_deliveries.c.channel == channel,
                notice_deliveries.c.target_id == target_id,
                notice_deliveries.c.status == "pending",
            )
            .values(status="dropped", lease_until=None, lease_owner=None)
        )

    # -- the outbox --------------------------------------------------------------------------------

    def targets_for(self, player_ids: Collection[str]) -> builtins.list[Target]:
        if not self.channels or not player_ids:
            return []
        players = sorted(set(player_ids))
        found: list[Target] = []
        if "push" in self.channels:
            rows = self.session.execute(
                select(push_subscriptions.c.id, push_subscriptions.c.player_id, push_subscriptions.c.language)
                .where(push_subscriptions.c.player_id.in_(players))
                .order_by(push_subscriptions.c.created_at, push_subscriptions.c.id)
            )
            found += [Target(player, "push", sid, language) for sid, player, language in rows]
        if "email" in self.channels:
            rows = self.session.execute(
                select(notice_emails.c.player_id, notice_emails.c.language).where(
                    notice_emails.c.player_id.in_(players), notice_emails.c.enabled.is_(True)
                )
            )
            found += [Target(player, "email", player, language) for player, language in rows]
        return found

    def enqueue(self, deliveries: builtins.list[NewNoticeDelivery], now: datetime) -> None:
        self._before_write()
        self.session.execute(
            insert(notice_deliveries),
            [
                {
                    "channel": d.target.channel,
                    "target_id": d.target.target_id,
                    "player_id": d.notice.player_id,
                    "kind": d.notice.kind,
                    "game_id": d.notice.game_id,
                    "seat": d.notice.seat,
                    "language": d.target.language,
                    **outbox.new_row(d.payload, now),
                    "last_error": None,
                    "sent_at": None,
                }
                for d in deliveries
            ],
        )

    def claim(self, now: datetime, lease: timedelta, owner: str) -> ClaimedNotice | None:
        self._before_write()
        d = notice_deliveries
        sent_here = d.c.channel.in_([c for c in CHANNELS if c in self.channels])
        row = outbox.next_due(self.session, d, as_utc(now), sent_here)
        if row is None:
            return None
        subscription: PushSubscription | None = None
        contact: EmailContact | None = None
        if row["channel"] == "push":
            found = (
                self.session.execute(
                    select(push_subscriptions).where(push_subscriptions.c.id == row["target_id"])
                )
                .mappings()
                .first()
            )
            subscription = _subscription(found) if found is not None else None
        else:
            contact = self.email_of(row["target_id"])
            if contact is not None and not contact.enabled:
                contact = None
        if subscription is None and contact is None:
            outbox.settle(self.session, d, row["id"], "dropped")
            return None
        outbox.lease(self.session, d, row["id"], now + lease, owner)
        return ClaimedNotice(
            id=row["id"],
            channel=row["channel"],
            target_id=row["target_id"],
            player_id=row["player_id"],
            kind=row["kind"],
            game_id=row["game_id"],
            seat=row["seat"],
            language=row["language"],
            payload=json.loads(row["body"]),
            attempts=row["attempts"],
            created_at=as_utc(row["created_at"]),
            subscription=subscription,
            email=contact,
        )

    def record(
        self,
        delivery_id: int,
        owner: str,
        sent: bool,
        next_attempt_at: datetime | None,
        error: str | None,
        now: datetime,
    ) -> bool:
        self._before_write()
        done = {"status": "sent", "sent_at": as_utc(now)} if sent else None
        last_error = error[:255] if error else None
        result = self.session.execute(
            outbox.attempt_recorded(
                notice_deliveries, delivery_id, owner, done, next_attempt_at, last_error=last_error
            )
        )
        return bool(result.rowcount)  # type: ignore[attr-defined]


def _subscription(row: Mapping[Any, Any]) -> PushSubscription:
    return PushSubscription(
        id=row["id"],
        player_id=row["player_id"],
        endpoint=row["endpoint"],
        p256dh=row["p256dh"],
        auth=row["auth"],
        language=row["language"],
        created_at=as_utc(row["created_at"]),
    )


def _contact(row: Mapping[Any, Any]) -> EmailContact:
    return EmailContact(
        player_id=row["player_id"],
        email=row["email"],
        language=row["language"],
        enabled=bool(row["enabled"]),
        opt_out_key=row["opt_out_key"],
        created_at=as_utc(row["created_at"]),
    )
