"""Alembic environment: run migrations on a connection handed in by ``persistence.migrate`` or,
from the ``alembic`` CLI, on the URL given by ``-x url=...``, ``sqlalchemy.url`` or
``TABLETOP_DATABASE_URL``."""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from persistence.database import create_db_engine, normalize_url
from persistence.tables import metadata

config = context.config

if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    url = (
        config.attributes.get("url")
        or context.get_x_argument(as_dictionary=True).get("url")
        or config.get_main_option("sqlalchemy.url")
        or os.environ.get("TABLETOP_DATABASE_URL")
    )
    if not url:
        raise RuntimeError("no database URL: pass -x url=... or set TABLETOP_DATABASE_URL")
    return str(url)


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
    )


def run_offline() -> None:
    url = normalize_url(_url())
    context.configure(
        url=url,
        target_metadata=metadata,
        literal_binds=True,
        render_as_batch=url.get_backend_name() == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    db_engine = create_db_engine(_url())
    try:
        with db_engine.connect() as connection:
            _configure(connection)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        db_engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
