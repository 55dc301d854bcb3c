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


def database_unavailable(error: BaseException) -> bool:
    """A failure of the database being there, not of the request: it cannot be reached or did not
    answer in time (connection refused or cut, a statement or connect timeout, every pooled
    connection busy, "too many clients"), or it cannot store anything now (a full disk, a lock
    held too long). Such a failure passes with time, so it is answered ``503`` with
    ``Retry-After`` rather than ``500``; an integrity or programming error is not one of them."""
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    if isinstance(error, PoolTimeout | OperationalError | InterfaceError):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated
