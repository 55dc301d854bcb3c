"""The SQL webhook repository: endpoints, the delivery outbox, leases and attempts.

A delivery's body is stored as the exact text that is signed and sent, so every retry sends the
same bytes under the same ``webhook-id``. Senders lease one row at a time: on PostgreSQL the
candidate row is locked with ``FOR UPDATE SKIP LOCKED`` while the lease is written, so two
instances never take the same delivery; a sender that dies loses its lease when it runs out.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Collection, Mapping
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, exists, insert, or_, select, update
from sqlalchemy.orm import Session, aliased

from domain.model.webhooks import Attempt, ClaimedDelivery, Delivery, Endpoint, NewDelivery
from persistence import outbox
from persistence.driver_sql import DriverStatement
from persistence.mapping import as_utc
from persistence.tables import webhook_attempts, webhook_deliveries, webhook_endpoints
from persistence.webhook_targets import KnownWithoutTargets

_earlier = aliased(webhook_deliveries)


def _active_endpoints_where(interested: ColumnElement[bool]) -> Select[Any]:
    return (
        select(webhook_endpoints)
        .where(interested, webhook_endpoints.c.status == "active")
        .order_by(webhook_endpoints.c.created_at, webhook_endpoints.c.id)
    )


@cache
def _endpoints_for_game(players: int) -> DriverStatement:
    """The endpoints of a game and of its ``players`` players' identities: run on every move, so
    compiled once for each number of players."""
    interested = webhook_endpoints.c.game_id == bindparam("game_id")
    if players:
        names = [bindparam(f"player_{n}", type_=webhook_endpoints.c.player_id.type) for n in range(players)]
        interested = or_(interested, webhook_endpoints.c.player_id.in_(names))
    return DriverStatement(_active_endpoints_where(interested))


class SqlWebhookRepository:
    """``domain.ports.webhooks.WebhookRepository`` on the unit of work's session."""

    def __init__(
        self,
        session: Session,
        before_write: Callable[[], None],
        without_targets: KnownWithoutTargets | None = None,
    ) -> None:
        self.session = session
        self._before_write = before_write
        self._without_targets = without_targets

    # -- endpoints ---------------------------------------------------------------------------------

    def add_endpoint(self, endpoint: Endpoint) -> None:
        self._before_write()
        self._forget_without_targets()
        self.session.execute(
            insert(webhook_endpoints).values(
                id=endpoint.id,
                player_id=endpoint.player_id,
                game_id=endpoint.game_id,
                url=endpoint.url,
                secret=endpoint.secret,
                filters=list(endpoint.filters),
                status=endpoint.status,
                created_at=as_utc(endpoint.created_at),
            )
        )

    def get_endpoint(self, endpoint_id: str) -> Endpoint | None:
        row = (
            self.session.execute(select(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id))
            .mappings()
            .first()
        )
        return _endpoint(row) if row is not None else None

    def endpoints_of(self, player_id: str | None, game_id: str | None) -> builtins.list[Endpoint]:
        owner = (
            webhook_endpoints.c.player_id == player_id
            if player_id is not None
            else webhook_endpoints.c.game_id == game_id
        )
        rows = self.session.execute(
            select(webhook_endpoints)
            .where(owner, webhook_endpoints.c.status != "deleted")
            .order_by(webhook_endpoints.c.created_at, webhook_endpoints.c.id)
        ).mappings()
        return [_endpoint(row) for row in rows]

    def endpoints_for_game(self, game_id: str, player_ids: builtins.list[str]) -> builtins.list[Endpoint]:
        """Run on every move (the outbox): compiled once per number of players and run on the
        driver's cursor (``persistence.driver_sql``); not even that when the game's locking read
        already said there is none (``persistence.webhook_targets``)."""
        if self._without_targets is not None and self._without_targets.none_for(game_id, player_ids):
            return []
        statement = _endpoints_for_game(len(player_ids))
        params = {f"player_{n}": player_id for n, player_id in enumerate(player_ids)}
        params["game_id"] = game_id
        found = statement.all(self.session.connection(), params)
        return [_endpoint(row) for row in found]

    def set_status(self, endpoint_id: str, status: str, now: datetime | None) -> None:
        self._before_write()
        if status == "active":
            self._forget_without_targets()
        self.session.execute(
            update(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id).values(status=status)
        )
        if status == "active" and now is not None:
            self.session.execute(
                update(webhook_deliveries)
                .where(
                    webhook_deliveries.c.endpoint_id == endpoint_id,
                    webhook_deliveries.c.status == "failed",
                )
                .values(status="pending", next_attempt_at=as_utc(now), attempts=0)
            )

    def _forget_without_targets(self) -> None:
        if self._without_targets is not None:
            self._without_targets.forget()

    # -- outbox ------------------------------------------------------------------------------------

    def enqueue(self, deliveries: builtins.list[NewDelivery], now: datetime) -> None:
        self._before_write()
        self.session.execute(
            insert(webhook_deliveries),
            [
                {
                    "message_id": d.message_id,
                    "endpoint_id": d.endpoint_id,
                    "game_id": d.game_id,
                    "kind": d.kind,
                    **outbox.new_row(d.payload, now),
                    "delivered_at": None,
                }
                for d in deliveries
            ],
        )

    def deliveries_of(self, endpoint_id: str, limit: int) -> builtins.list[Delivery]:
        rows = list(
            self.session.execute(
                select(webhook_deliveries)
                .where(webhook_deliveries.c.endpoint_id == endpoint_id)
                .order_by(webhook_deliveries.c.id.desc())
                .limit(limit)
            ).mappings()
        )
        attempts: dict[int, list[Attempt]] = {}
        if rows:
            for a in self.session.execute(
                select(webhook_attempts)
                .where(webhook_attempts.c.delivery_id.in_([r["id"] for r in rows]))
                .order_by(webhook_attempts.c.id)
            ).mappings():
                attempts.setdefault(a["delivery_id"], []).append(
                    Attempt(as_utc(a["attempted_at"]), a["status_code"], a["error"], a["duration_ms"])
                )
        return [
            Delivery(
                message_id=r["message_id"],
                endpoint_id=r["endpoint_id"],
                game_id=r["game_id"],
                kind=r["kind"],
                payload=json.loads(r["body"]),
                status=r["status"],
                attempts=r["attempts"],
                next_attempt_at=_utc(r["next_attempt_at"]) if r["status"] == "pending" else None,
                created_at=as_utc(r["created_at"]),
                delivered_at=_utc(r["delivered_at"]),
                history=attempts.get(r["id"], []),
            )
            for r in rows
        ]

    # -- sending -----------------------------------------------------------------------------------

    def claim(
        self, now: datetime, lease: timedelta, owner: str, skip_endpoints: Collection[str] = ()
    ) -> ClaimedDelivery | None:
        self._before_write()
        d = webhook_deliveries
        earlier_pending = exists().where(
            _earlier.c.endpoint_id == d.c.endpoint_id,
            _earlier.c.game_id == d.c.game_id,
            _earlier.c.status == "pending",
            _earlier.c.id < d.c.id,
        )
        skipped = [d.c.endpoint_id.not_in(list(skip_endpoints))] if skip_endpoints else []
        row = outbox.next_due(self.session, d, now, ~earlier_pending, *skipped)
        if row is None:
            return None
        endpoint = self.get_endpoint(row["endpoint_id"])
        if endpoint is None or endpoint.status != "active":
            # Its endpoint was deleted or is failing: nothing more goes there.
            outbox.settle(self.session, d, row["id"], "failed")
            return None
        outbox.lease(self.session, d, row["id"], now + lease, owner)
        return ClaimedDelivery(
            id=row["id"],
            message_id=row["message_id"],
            endpoint_id=row["endpoint_id"],
            url=endpoint.url,
            secret=endpoint.secret,
            body=row["body"],
            attempts=row["attempts"],
            created_at=as_utc(row["created_at"]),
        )

    def record_attempt(
        self,
        delivery_id: int,
        owner: str,
        attempt: Attempt,
        delivered: bool,
        next_attempt_at: datetime | None,
    ) -> bool:
        self._before_write()
        d = webhook_deliveries
        done = {"status": "delivered", "delivered_at": as_utc(attempt.attempted_at)} if delivered else None
        result = self.session.execute(
            outbox.attempt_recorded(d, delivery_id, owner, done, next_attempt_at).returning(d.c.endpoint_id)
        )
        endpoint_id = result.scalar_one_or_none()
        if endpoint_id is None:
            return False
        self.session.execute(
            insert(webhook_attempts).values(
                delivery_id=delivery_id,
                attempted_at=as_utc(attempt.attempted_at),
                status_code=attempt.status_code,
                error=attempt.error[:255] if attempt.error else None,
                duration_ms=attempt.duration_ms,
            )
        )
        if not delivered and next_attempt_at is None:
            self.session.execute(
                update(webhook_endpoints)
                .where(webhook_endpoints.c.id == endpoint_id, webhook_endpoints.c.status == "active")
                .values(status="failing")
            )
            self.session.execute(
                update(d)
                .where(d.c.endpoint_id == endpoint_id, d.c.status == "pending")
                .values(status="failed", lease_until=None, lease_owner=None)
            )
        return True


def _endpoint(row: Mapping[Any, Any]) -> Endpoint:
    return Endpoint(
        id=row["id"],
        url=row["url"],
        secret=row["secret"],
        filters=tuple(row["filters"]),
        created_at=as_utc(row["created_at"]),
        player_id=row["player_id"],
        game_id=row["game_id"],
        status=row["status"],
    )


def _utc(moment: datetime | None) -> datetime | None:
    return as_utc(moment) if moment is not None else None
