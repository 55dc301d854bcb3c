"""Workers exit with their supervisor (issue 31 item 9): a SIGKILLed supervisor leaves no worker
serving on without its limit hub and event hub (before, 25 of 25 websockets from one address were
accepted under a cap of 10 by the orphans)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.servers import ROOT, children, worker_processes
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


def test_a_worker_whose_supervisor_died_before_it_started_watching_stops(tmp_path: Path) -> None:
    """The race a loaded machine showed: the supervisor is killed while a worker is still importing,
    so by the time the worker looks, its parent is already init. It is told its supervisor's pid and
    stops at once, instead of taking init for its supervisor and serving on for ever."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead_supervisor = int(gone.stdout)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'early.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
    }
    command = [sys.executable, "-m", "api", "serve", "--fd", str(sock.fileno()), "--worker-index", "1"]
    with sock, log.open("wb") as out:
        worker = subprocess.Popen(
            [*command, "--supervisor", str(dead_supervisor)],
            cwd=ROOT,
            env=env,
            pass_fds=(sock.fileno(),),
            stdout=subprocess.DEVNULL,
            stderr=out,
        )
        try:
            worker.wait(timeout=90)
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert f"the supervisor (pid {dead_supervisor}) is gone" in log.read_text()
