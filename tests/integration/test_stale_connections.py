"""A pooled PostgreSQL connection that the server closed (restart, failover, idle timeout,
``pg_terminate_backend``) is replaced on the next checkout, not surfaced as a 500 (issue 10
item 18)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tests.support.client import app_with_test_game, make_settings
from tests.support.databases import POSTGRES_ADMIN_URL, postgres_database

pytestmark = pytest.mark.postgres


def test_the_request_after_the_server_killed_every_pooled_connection_succeeds(tmp_path: Path) -> None:
    with postgres_database("tabletop_stale") as url:
        settings = make_settings(tmp_path, database_url=url.render_as_string(hide_password=False))
        with TestClient(app_with_test_game(settings)) as client:
            created = client.post("/v1/games", json={"type": "duel"})
            assert created.status_code == 201
            game_id = created.json()["id"]
            assert client.get(f"/v1/games/{game_id}").status_code == 200  # pooled, idle now

            admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
            try:
                with admin.connect() as connection:
                    killed = connection.execute(
                        text(
                            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE datname = :name AND pid <> pg_backend_pid()"
                        ),
                        {"name": url.database},
                    ).scalar_one()
            finally:
                admin.dispose()
            assert killed >= 1, "no pooled connection to kill"

            for _ in range(3):
                answer = client.get(f"/v1/games/{game_id}")
                assert answer.status_code == 200, answer.text
            assert client.post(f"/v1/games/{game_id}/seats", json={"name": "Ann"}).status_code == 201
