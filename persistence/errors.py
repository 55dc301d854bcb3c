"""Errors of the storage adapters that the composition root must handle.

Domain errors (``GameNotFound``, ``VersionConflict``) come from ``domain.errors``, and a live
subscription's (``SubscriptionLost``) from the broker's port in ``domain.ports.events``; these are the
infrastructure failures the domain knows nothing about.
"""

from __future__ import annotations


class PersistenceError(Exception):
    """Base of the adapter errors below."""


class DatabaseNotMigrated(PersistenceError):
    """The schema is missing or not at the migration head: refuse to serve rather than fail later
    with obscure SQL errors."""
