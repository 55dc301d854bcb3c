"""Fixtures on real servers: SQLite files, a throwaway PostgreSQL database, Redis.

A test needing PostgreSQL or Redis skips with a clear message when the server is not reachable,
except under ``CI=true`` where a missing server is a failure (CI must never pass by skipping).
Isolation: one fresh PostgreSQL database per session (tables truncated before each test), a fresh
SQLite file per test, and a random Redis channel prefix per test.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL, make_url

from domain.registry import EngineRegistry
from persistence.database import create_db_engine
from persistence.schema import migrate
from persistence.uow import SqlUnitOfWorkFactory
from tests.duel_game import DuelEngine

POSTGRES_ADMIN_URL = os.environ.get(
    "TABLETOP_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("TABLETOP_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def unavailable(message: str) -> None:
    """Skip locally, fail under CI=true."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message} (CI=true: integration services are required)", pytrace=False)
    pytest.skip(f"{message}; start it or set CI=true to make this a failure")


def _first_line(error: Exception) -> str:
    return str(getattr(error, "orig", None) or error).strip().splitlines()[0]


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def registry() -> EngineRegistry:
    return EngineRegistry([DuelEngine()])


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[URL]:
    """A migrated database ``tabletop_it_<random>`` on the local server, dropped at the end."""
    admin_url = make_url(POSTGRES_ADMIN_URL)
    admin = create_engine(
        admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )
    try:
        with admin.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:
        admin.dispose()
        unavailable(
            f"PostgreSQL is not reachable at {admin_url.render_as_string()}: {_first_line(error)}"
        )
    name = f"tabletop_it_{secrets.token_hex(6)}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = admin_url.set(database=name)
    try:
        migrate(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Migrated once, copied for each test: a fresh database without re-running Alembic."""
    path = tmp_path_factory.mktemp("sqlite-template") / "template.db"
    migrate(f"sqlite:///{path}")
    return path


def fresh_sqlite_engine(template: Path, directory: Path) -> Engine:
    path = directory / "tabletop.db"
    shutil.copyfile(template, path)
    return create_db_engine(f"sqlite:///{path}")


@pytest.fixture
def postgres_engine(postgres_url: URL) -> Iterator[Engine]:
    db_engine = create_db_engine(postgres_url)
    with db_engine.begin() as connection:
        connection.execute(text("TRUNCATE games, game_events, idempotency"))
    yield db_engine
    db_engine.dispose()


@pytest.fixture(params=BACKENDS)
def db_engine(
    request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path
) -> Iterator[Engine]:
    """The same tests on SQLite and PostgreSQL, each on an empty migrated database."""
    if request.param == "postgresql":
        yield request.getfixturevalue("postgres_engine")
        return
    db_engine = fresh_sqlite_engine(sqlite_template, tmp_path)
    yield db_engine
    db_engine.dispose()


@pytest.fixture
def uow_factory(db_engine: Engine, registry: EngineRegistry) -> SqlUnitOfWorkFactory:
    return SqlUnitOfWorkFactory(db_engine, registry)


@pytest.fixture(scope="session")
def redis_url() -> str:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        unavailable(f"Redis is not reachable at {REDIS_URL}: {_first_line(error)}")
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture
def channel_prefix() -> str:
    """Per-test channels, so parallel runs on the same Redis never see each other's events."""
    return f"tabletop-it-{secrets.token_hex(6)}:game:"
