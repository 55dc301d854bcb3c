"""Engine settings that the rest of the adapter relies on."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from persistence.database import create_db_engine, normalize_url, ping


def test_sqlite_runs_in_wal_with_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    db_engine = create_db_engine(f"sqlite:///{tmp_path}/settings.db")
    try:
        with db_engine.connect() as connection:
            pragmas = {
                name: connection.execute(text(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
            }
        assert pragmas == {
            "journal_mode": "wal",
            "synchronous": 1,  # NORMAL
            "foreign_keys": 1,
            "busy_timeout": 5_000,
        }
    finally:
        db_engine.dispose()


def test_sqlite_can_be_made_fully_durable(tmp_path: Path) -> None:
    db_engine = create_db_engine(f"sqlite:///{tmp_path}/full.db", sqlite_synchronous="FULL")
    try:
        with db_engine.connect() as connection:
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 2
    finally:
        db_engine.dispose()


def test_sqlite_refuses_an_in_memory_database() -> None:
    with pytest.raises(ValueError, match="file path"):
        create_db_engine("sqlite://")


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://u:p@db:5432/tabletop",
        "postgres://u:p@db:5432/tabletop",
        "postgresql+psycopg://u:p@db:5432/tabletop",
    ],
)
def test_plain_postgres_urls_use_psycopg_3(url: str) -> None:
    assert normalize_url(url).drivername == "postgresql+psycopg"


def test_other_databases_are_refused() -> None:
    with pytest.raises(ValueError, match="unsupported database backend 'mysql'"):
        create_db_engine("mysql://u:p@db/tabletop")


def test_a_reachable_database_answers_the_readiness_ping(db_engine: Engine) -> None:
    ping(db_engine)


def test_an_unreachable_database_fails_the_readiness_ping() -> None:
    db_engine = create_db_engine("postgresql://postgres@127.0.0.1:1/nowhere")
    try:
        with pytest.raises(OperationalError):
            ping(db_engine)
    finally:
        db_engine.dispose()


def test_the_pool_keeps_the_configured_connections_on_both_databases(tmp_path: Path) -> None:
    """Connections beyond ``pool_size`` are opened under load and closed after use: sized to the
    server's concurrency, the pool stops opening and closing connections under load."""
    for url in (f"sqlite:///{tmp_path / 'pool.db'}", "postgresql://postgres@127.0.0.1:5432/test"):
        engine = create_db_engine(url, pool_size=7, max_overflow=3)
        assert engine.pool.size() == 7  # type: ignore[attr-defined]
        assert engine.pool._max_overflow == 3  # type: ignore[attr-defined]
        engine.dispose()


def test_the_server_settings_size_the_pool(tmp_path: Path) -> None:
    from api.bootstrap import build_container
    from api.settings import Settings

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'settings.db'}", db_pool_size=12, db_max_overflow=4
    )
    engine = build_container(settings).db_engine
    assert (engine.pool.size(), engine.pool._max_overflow) == (12, 4)  # type: ignore[attr-defined]
    engine.dispose()


def test_each_worker_process_opens_its_share_of_the_instance_pool(tmp_path: Path) -> None:
    """Issue 31 item 10: ``serve --workers N`` tells each worker N; the instance as a whole keeps
    at most the pool and the overflow the settings give (each worker at least one connection)."""
    from api.bootstrap import build_container
    from api.settings import Settings

    url = f"sqlite:///{tmp_path / 'workers.db'}"
    for workers, expected in ((2, (6, 2)), (3, (4, 1)), (16, (1, 0))):
        settings = Settings(database_url=url, db_pool_size=12, db_max_overflow=4, worker_processes=workers)
        engine = build_container(settings).db_engine
        assert (engine.pool.size(), engine.pool._max_overflow) == expected  # type: ignore[attr-defined]
        engine.dispose()
