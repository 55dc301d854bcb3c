"""Schema migrations (Alembic) run from code, and the startup check that they were run.

The migration scripts live inside the package (``persistence/migrations``) so they ship with it;
``alembic.ini`` at the repository root points there for the ``alembic`` CLI.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text
from sqlalchemy.engine import URL

from persistence.database import create_db_engine, describe
from persistence.errors import DatabaseNotMigrated

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

_PG_MIGRATION_LOCK = 7_141_120_001
"""Advisory lock id so instances starting together do not migrate concurrently."""


def alembic_config() -> Config:
    """A file-less Alembic configuration pointing at the packaged migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["configure_logging"] = False
    return config


@lru_cache(maxsize=1)
def head_revisions() -> frozenset[str]:
    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def migrate(target: str | URL | Engine) -> None:
    """Upgrade the database to the latest revision (idempotent)."""
    db_engine = target if isinstance(target, Engine) else create_db_engine(target)
    try:
        with db_engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": _PG_MIGRATION_LOCK})
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        if db_engine is not target:
            db_engine.dispose()


def current_revisions(db_engine: Engine) -> frozenset[str]:
    with db_engine.connect() as connection:
        return frozenset(MigrationContext.configure(connection).get_current_heads())


def ensure_migrated(db_engine: Engine) -> None:
    """Refuse to start on a database whose schema is missing, behind or unknown to this code."""
    current = current_revisions(db_engine)
    expected = head_revisions()
    if current != expected:
        at = ", ".join(sorted(current)) or "no revision"
        raise DatabaseNotMigrated(
            f"database at {describe(db_engine)} is not migrated (it is at {at}, this code needs "
            f"{', '.join(sorted(expected))}); run `python -m api migrate`"
        )
