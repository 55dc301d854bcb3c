"""The real app, in process, on a fresh SQLite file, with the test game registered too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.entrypoints.export import openapi_document
from tests.support.client import app_with_test_game, make_settings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = app_with_test_game(make_settings(tmp_path))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The published OpenAPI document."""
    return openapi_document()
