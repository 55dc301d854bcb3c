"""The server's settings reach its bot thinking pool (``api/background/thinking.py``)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from api.bootstrap import build_container
from api.settings import Settings
from persistence.migrate import migrate


def test_the_bot_niceness_setting_reaches_the_pools_workers(tmp_path: Path) -> None:
    """``TABLETOP_BOT_NICENESS`` sets the workers' priority (the test servers lower it: on a
    machine loaded by the suite, a stand-in at niceness 19 waited over 90 s for a core)."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'nice.db'}", bot_niceness=7, bot_processes=1)
    container = build_container(settings)
    migrate(container.db_engine.url)
    container.start_background()
    try:
        assert container.thinker is not None
        worker = container.thinker._executor()
        niceness = worker.submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=300)
    finally:
        asyncio.run(container.stop_background())
        container.db_engine.dispose()
    assert niceness == 7
