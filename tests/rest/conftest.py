"""The real app, in process, on a fresh SQLite file, with the test game registered too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.registry import default_registry
from tests.duel_game import DuelEngine


def make_settings(tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": f"sqlite:///{tmp_path / 'tabletop.db'}",
        "auto_migrate": True,
        "rate_limit_per_second": 10_000.0,
        "rate_limit_burst": 10_000,
        "log_level": "WARNING",
        # The collector's start-up freeze is for a server process (tests/unit/test_heap.py checks
        # it): here hundreds of apps start in one process, each full collection walking its heap.
        "gc_young_threshold": 0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def registry_with_test_game():  # type: ignore[no-untyped-def]
    registry = default_registry()
    registry.register(DuelEngine())
    return registry


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(tmp_path), registry=registry_with_test_game())
    with TestClient(app) as test_client:
        yield test_client
