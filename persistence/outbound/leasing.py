"""The lease an outbox sender (``webhook_sender``, ``notice_sender``) takes on each row it claims.

It outlasts any attempt of the row, cut at the sender's timeout, and the recording of that
attempt, so no other sender takes the row while an attempt of it may still be in flight."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

RECORD_MARGIN_SECONDS = 5.0
"""Time kept, inside a lease, to record the attempt after the request is cut."""


def lease_for(timeout_seconds: float) -> timedelta:
    """The lease of a sender whose attempts are cut at ``timeout_seconds``."""
    return timedelta(seconds=timeout_seconds + 2 * RECORD_MARGIN_SECONDS)


def now() -> datetime:
    return datetime.now(UTC)
