"""The owning worker killed mid-game under load (SIGKILL), on SQLite workers: the game moves on
through the other worker, no acknowledged move is lost, no live subscriber loses or repeats an
event (the scenario: tests/support/failover.py). Bounded: a fixed number of short games, loopback
only, a time limit on every wait.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from api.entrypoints.owners import owner_of
from tests.support.failover import play_through_a_failover
from tests.support.servers import children, worker_processes
from tests.support.waiting import eventually

pytestmark = [pytest.mark.timeout(240)]


def worker_slots(supervisor: int) -> dict[int, int]:
    """The supervisor's workers: slot → pid (from each one's ``--worker-index``)."""
    slots = {}
    for pid in children(supervisor):
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if b"--worker-index" in arguments:
            slots[int(arguments[arguments.index(b"--worker-index") + 1])] = pid
    return slots


def test_killing_the_owning_worker_mid_game_loses_no_move_and_no_event(tmp_path: Path) -> None:
    env = {"TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'owners.db'}", "TABLETOP_AUTO_MIGRATE": "true"}
    with worker_processes(env, tmp_path) as (base, supervisor):
        killed: list[int] = []

        def kill_owner(game_id: str) -> None:
            victim = worker_slots(supervisor)[owner_of(game_id, 2)]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

        games = play_through_a_failover(base, kill_owner)
        assert killed and killed[0] not in children(supervisor)
        assert sum(game.reconnects for game in games) > 0, "the owner's live streams died with it"
        eventually(lambda: len(worker_slots(supervisor)) == 2, 60, "the killed worker replaced", 0.1)
