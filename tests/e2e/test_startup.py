"""The real command line: the service refuses an unmigrated database and says how to migrate;
after ``python -m api migrate`` it serves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.databases import postgres_database_url
from tests.support.servers import ROOT, free_port, wait_healthy

pytestmark = pytest.mark.timeout(300)  # three starts of the service, each slow at CI's load


def api_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_AUTO_MIGRATE"}
    return {**env, "TABLETOP_DATABASE_URL": database_url, "TABLETOP_LOG_LEVEL": "WARNING"}


def refuses_then_serves_after_migrate(database_url: str, log: Path) -> None:
    env = api_env(database_url)
    port = free_port()
    refused = subprocess.run(
        [sys.executable, "-m", "api", "--port", str(port)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # importing the service takes seconds; at CI's load, tens of them
    )
    assert refused.returncode != 0
    assert "not migrated" in refused.stderr and "python -m api migrate" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr, "the reason is buried in a traceback"
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)

    migrated = subprocess.run(
        [sys.executable, "-m", "api", "migrate"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrated.returncode == 0, migrated.stderr

    with log.open("wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "api", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            try:
                wait_healthy(f"http://127.0.0.1:{port}", server)
            except RuntimeError as error:
                raise AssertionError(f"{error}\n{log.read_text()[-2000:]}") from None
            ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5)
            assert ready.status_code == 200 and ready.json()["checks"]["database"] is True
            listed = httpx.get(f"http://127.0.0.1:{port}/v1/game-types", timeout=5)
            assert listed.status_code == 200 and listed.json()
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)


def test_service_refuses_an_unmigrated_sqlite_database_until_migrated(tmp_path: Path) -> None:
    refuses_then_serves_after_migrate(f"sqlite:///{tmp_path / 'fresh.db'}", tmp_path / "server.log")


@pytest.mark.postgres
def test_service_refuses_an_unmigrated_postgresql_database_until_migrated(tmp_path: Path) -> None:
    with postgres_database_url() as database_url:
        refuses_then_serves_after_migrate(database_url, tmp_path / "server.log")
