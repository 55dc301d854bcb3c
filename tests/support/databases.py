"""The real PostgreSQL and Redis the integration and end-to-end tests use.

A test needing one skips with a clear message when it is not reachable, except under ``CI=true``
where a missing server is a failure (CI must never pass by skipping).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url

POSTGRES_ADMIN_URL = os.environ.get(
    "TABLETOP_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("TABLETOP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
"""The parameters of a test that runs on both databases (the ``db_engine`` fixture's)."""


def unavailable(message: str) -> None:
    """Skip locally, fail under CI=true."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message} (CI=true: PostgreSQL and Redis are required)", pytrace=False)
    pytest.skip(f"{message}; start it or set CI=true to make this a failure")


def first_line(error: Exception) -> str:
    return str(getattr(error, "orig", None) or error).strip().splitlines()[0]


@contextmanager
def postgres_database(prefix: str) -> Iterator[URL]:
    """A fresh, empty database ``<prefix>_<random>`` on the local server, dropped afterwards."""
    admin_url = make_url(POSTGRES_ADMIN_URL)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
    try:
        try:
            with admin.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception as error:
            unavailable(f"PostgreSQL is not reachable at {admin_url.render_as_string()}: {first_line(error)}")
        name = f"{prefix}_{secrets.token_hex(6)}"
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield admin_url.set(database=name)
        finally:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@contextmanager
def postgres_database_url(prefix: str = "tabletop_e2e") -> Iterator[str]:
    """A fresh, empty database as the URL a server's settings take, dropped afterwards."""
    with postgres_database(prefix) as url:
        yield url.render_as_string(hide_password=False)


def reachable_redis() -> str:
    """The Redis URL, once it answers PING."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        unavailable(f"Redis is not reachable at {REDIS_URL}: {first_line(error)}")
    finally:
        client.close()
    return REDIS_URL
