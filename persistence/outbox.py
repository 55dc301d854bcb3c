"""What the SQL outboxes share (webhook deliveries, ``persistence.webhooks``; notices,
``persistence.notices``): a new row, the lease of a due row, and the end of an attempt under it.

An outbox table has ``id``, ``body``, ``status`` (``pending`` until it is settled), ``attempts``,
``next_attempt_at``, ``lease_until``, ``lease_owner`` and ``created_at``. Senders lease one row at
a time: on PostgreSQL the candidate row is locked with ``FOR UPDATE SKIP LOCKED`` while the lease is
written, so two instances never take the same row; a sender that dies loses its lease when it runs
out, and an attempt recorded after that (or after another sender took the row) changes nothing.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Table, Update, or_, select, update
from sqlalchemy.engine import RowMapping
from sqlalchemy.orm import Session

from persistence.mapping import as_utc


def new_row(payload: Any, now: datetime) -> dict[str, Any]:
    """The columns every new outbox row starts with: its body as the exact text that is sent
    (compact, keys sorted), due ``now``, not leased, never attempted."""
    return {
        "body": json.dumps(payload, separators=(",", ":"), sort_keys=True),
        "status": "pending",
        "attempts": 0,
        "next_attempt_at": as_utc(now),
        "lease_until": None,
        "lease_owner": None,
        "created_at": as_utc(now),
    }


def next_due(session: Session, table: Table, now: datetime, *where: ColumnElement[bool]) -> RowMapping | None:
    """The pending row due first at ``now`` (and matching ``where``) that no live lease holds,
    locked until the transaction ends (skipped by others while it is)."""
    t = table
    return (
        session.execute(
            select(t)
            .where(
                t.c.status == "pending",
                t.c.next_attempt_at <= now,
                or_(t.c.lease_until.is_(None), t.c.lease_until < now),
                *where,
            )
            .order_by(t.c.next_attempt_at, t.c.id)
            .limit(1)
            .with_for_update(skip_locked=True, of=t)
        )
        .mappings()
        .first()
    )


def lease(session: Session, table: Table, row_id: int, until: datetime, owner: str) -> None:
    """``owner`` holds the row until ``until``: no other sender takes it before."""
    session.execute(
        update(table).where(table.c.id == row_id).values(lease_until=as_utc(until), lease_owner=owner)
    )


def settle(session: Session, table: Table, row_id: int, status: str) -> None:
    """The row is done with (``status``), never attempted: its target is gone."""
    session.execute(update(table).where(table.c.id == row_id).values(status=status))


def attempt_recorded(
    table: Table,
    row_id: int,
    owner: str,
    done: dict[str, Any] | None,
    next_attempt_at: datetime | None,
    **also: Any,
) -> Update:
    """The update that ends an attempt under ``owner``'s lease: counted, the lease released, and
    then ``done`` (the columns of a row that went through), or due again at ``next_attempt_at``, or
    else ``failed``; ``also`` sets more columns. It matches nothing when the lease was lost."""
    values: dict[str, Any] = {"attempts": table.c.attempts + 1, "lease_until": None, "lease_owner": None}
    values.update(also)
    if done is not None:
        values.update(done)
    elif next_attempt_at is not None:
        values.update(next_attempt_at=as_utc(next_attempt_at))
    else:
        values.update(status="failed")
    return (
        update(table)
        .where(table.c.id == row_id, table.c.lease_owner == owner, table.c.status == "pending")
        .values(**values)
    )
