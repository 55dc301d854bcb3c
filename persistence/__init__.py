"""Adapters for the domain ports: SQL storage (SQLite, PostgreSQL), migrations and pub/sub.

The composition root imports from here; nothing is created at import time.
"""

from persistence.database import create_db_engine, ping
from persistence.errors import DatabaseNotMigrated, SubscriptionClosed, SubscriptionLost
from persistence.pubsub import InProcessBroker, RedisBroker
from persistence.repository import SqlGameRepository
from persistence.schema import ensure_migrated, migrate
from persistence.subscription import Subscription
from persistence.uow import SqlUnitOfWork, SqlUnitOfWorkFactory

__all__ = [
    "DatabaseNotMigrated",
    "InProcessBroker",
    "RedisBroker",
    "SqlGameRepository",
    "SqlUnitOfWork",
    "SqlUnitOfWorkFactory",
    "Subscription",
    "SubscriptionClosed",
    "SubscriptionLost",
    "create_db_engine",
    "ensure_migrated",
    "migrate",
    "ping",
]
