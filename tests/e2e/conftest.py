"""A real server process on a fresh SQLite file, shared by the end-to-end tests that need no settings of
their own (each test makes its own games); modules that need other settings start their own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.servers import ServerWithDatabase, running_server


@pytest.fixture(scope="package")
def server_with_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerWithDatabase]:
    """The server and the path of its database file (tests may read secrets there, clients may not)."""
    db = tmp_path_factory.mktemp("e2e") / "tabletop.db"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{db}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
    }
    with running_server(env) as base:
        yield ServerWithDatabase(base, db)


@pytest.fixture(scope="package")
def server(server_with_db: ServerWithDatabase) -> str:
    return server_with_db.base
