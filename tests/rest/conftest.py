"""The real app, in process, on a fresh SQLite file, with the test game registered too."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.entrypoints.export import openapi_document
from persistence.migrate import migrate
from tests.support.client import app_with_test_game, make_settings


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty database at the latest revision, migrated once per test process and copied for
    each test (Alembic's upgrade was most of an app's start); the app still checks the revision
    at its start (``ensure_migrated``)."""
    path = tmp_path_factory.mktemp("rest-template") / "tabletop.db"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture
def client(tmp_path: Path, migrated_sqlite: Path) -> Iterator[TestClient]:
    shutil.copyfile(migrated_sqlite, tmp_path / "tabletop.db")
    app = app_with_test_game(make_settings(tmp_path, auto_migrate=False))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The published OpenAPI document."""
    return openapi_document()
