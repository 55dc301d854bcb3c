"""Fixtures on real servers: SQLite files, a throwaway PostgreSQL database, Redis.

A test needing PostgreSQL or Redis skips with a clear message when the server is not reachable,
except under ``CI=true`` where a missing server is a failure (CI must never pass by skipping).
Isolation: one fresh PostgreSQL database per session (tables truncated before each test), a fresh
SQLite file per test, and a random Redis channel prefix per test.
"""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine import URL

from domain.registry import EngineRegistry, default_registry
from persistence.database import create_db_engine
from persistence.migrate import migrate
from persistence.tables import metadata
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.databases import postgres_database, reachable_redis
from tests.support.duel_game import DuelEngine
from tests.support.owner_moves import Process, two_processes

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def registry() -> EngineRegistry:
    return EngineRegistry([DuelEngine()])


@pytest.fixture
def processes(db_engine: Engine) -> Iterator[tuple[Process, Process]]:
    """Two server processes over one database, hosting the real games, each owning the games it
    starts (``tests.support.owner_moves``)."""
    with two_processes(db_engine, default_registry()) as made:
        yield made


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[URL]:
    """A migrated database ``tabletop_it_<random>`` on the local server, dropped at the end."""
    with postgres_database("tabletop_it") as url:
        migrate(url)
        yield url


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
        connection.execute(text(f"TRUNCATE {', '.join(metadata.tables)} CASCADE"))
    yield db_engine
    db_engine.dispose()


@pytest.fixture(params=BACKENDS)
def db_engine(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> Iterator[Engine]:
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
    return reachable_redis()


@pytest.fixture
def channel_prefix() -> str:
    """Per-test channels, so parallel runs on the same Redis never see each other's events."""
    return f"tabletop-it-{secrets.token_hex(6)}:game:"
