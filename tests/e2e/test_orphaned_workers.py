"""Workers exit with their supervisor (issue 31 item 9): a SIGKILLed supervisor leaves no worker
serving on without its limit hub and event hub (before, 25 of 25 websockets from one address were
accepted under a cap of 10 by the orphans)."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import httpx
import pytest

from tests.support.servers import children, worker_processes
from tests.support.waiting import eventually

pytestmark = pytest.mark.timeout(180)


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_workers_stop_serving_when_their_supervisor_is_killed(tmp_path: Path) -> None:
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'orphans.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
    }
    with worker_processes(env, tmp_path, workers=2) as (base, supervisor):
        workers = children(supervisor)
        assert len(workers) == 2
        try:
            assert httpx.get(f"{base}/healthz", timeout=30).status_code == 200
            os.kill(supervisor, signal.SIGKILL)
            eventually(lambda: not any(running(pid) for pid in workers), 60, "every worker gone", 0.1)

            def refused() -> bool:
                try:
                    httpx.get(f"{base}/healthz", timeout=5)
                except httpx.TransportError:
                    return True
                return False

            assert eventually(refused, 30, "the port no longer served")
        finally:
            for pid in workers:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
