"""Errors of the storage and messaging adapters that the composition root must handle.

Domain errors (``GameNotFound``, ``VersionConflict``) come from ``domain.errors``; these are the
infrastructure failures the domain knows nothing about.
"""

from __future__ import annotations


class PersistenceError(Exception):
    """Base of the adapter errors below."""


class DatabaseNotMigrated(PersistenceError):
    """The schema is missing or not at the migration head: refuse to serve rather than fail later
    with obscure SQL errors."""


class SubscriptionLost(PersistenceError):
    """A live subscriber may have missed events (it fell behind, a gap never filled, or the broker
    lost its connection). Reload history after ``last_seq`` and subscribe again."""

    def __init__(self, message: str, last_seq: int | None) -> None:
        super().__init__(message)
        self.last_seq = last_seq


class SubscriptionClosed(PersistenceError):
    """The broker stopped; no more events will come on this subscription."""
