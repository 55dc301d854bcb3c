"""Forming one group-commit batch on purpose, for the tests of ``persistence.group_commit``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from domain.ports.unit_of_work import UnitOfWork
from persistence.group_commit import GroupCommitter
from tests.support.waiting import eventually


def one_batch(committer: GroupCommitter, calls: list[Callable[[], Any]]) -> list[Future[Any]]:
    """Run ``calls`` (each ends up in ``committer.run``) while the writer is held, then let it go:
    they are all queued when it looks, so they form one batch."""
    holding, release = threading.Event(), threading.Event()

    def hold(_uow: UnitOfWork) -> None:
        holding.set()
        release.wait(60)

    pool = ThreadPoolExecutor(max_workers=len(calls) + 1)
    held = pool.submit(committer.run, "", hold)
    assert holding.wait(10)
    futures = [pool.submit(call) for call in calls]
    eventually(lambda: committer._queues[0].qsize() >= len(calls), 30, "every call queued", every=0.005)
    release.set()
    held.result(10)
    pool.shutdown(wait=True)
    return futures
