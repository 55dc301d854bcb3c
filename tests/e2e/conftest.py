"""A real server process on a fresh SQLite file, shared by the end-to-end tests of a module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("e2e") / "tabletop.db"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{db}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
    }
    with running_server(env) as base:
        yield base
