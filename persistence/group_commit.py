"""Group commit: submits that arrive together share one transaction and one flush.

A writer thread drains a queue of works (``domain.ports.transactions``): it takes every work waiting,
runs them in order in one unit of work and commits once, then answers each. A request thread waits
for its answer, never for a lock, and is answered only after the commit that holds its work (a 2xx
still means durable). Works on one game go to one writer and keep their order, so a later one sees
the earlier one's write; across processes and instances the version guard in
``SqlGameRepository.save`` stays the arbiter, as without batching.

How many writers: SQLite has one write lock per file, so one writer per process (more would only
queue on it). PostgreSQL commits transactions in parallel, and one writer there spends most of its
time waiting for the server's answer to each statement (a move alone in its batch: the locking
load, which also answers the webhook targets, unless the game's row is kept from this process's
last write, the update with its events, the commit, and with an idempotency key its lookup and its
insert), so games are spread over several writers by a hash of
their id; a batch on one writer never touches another writer's games, and the rows every game
shares (players, ratings) are taken in key order as with two instances.

A work that raises a domain error (a move the rules refuse, a stale version) is undone alone,
through a savepoint, and the rest of the batch commits. A database error, in a work or at the
commit, fails every work of the batch: none of them is answered as done. Every answer, a refusal
too, is given once the batch is final.

One pipeline per batch (PostgreSQL, ``hold_writes``): the works' writes that need no result at
once wait and go to the server together, with the next statement that reads or at the commit
(``persistence.driver_sql``), so a batch of owners' moves (each one guarded ``UPDATE`` with its
events, and its choices) costs one pipeline and the commit, about two round trips, instead of two
a move. A work goes on as if its guard passed; the guards are checked when their answers come,
before the commit and before any later read. If one failed (another process wrote the game, or
a move assumed its game had no webhook target and it has one), the whole transaction is rolled
back and the batch run again as without holding: each statement answered before the next, a
stale version refused by its guard and decided again on the read row. So every guarantee stands:
committed before answered, exactly once, a refused work undone alone, a database error failing
the batch, the version guard the arbiter.

On an event loop a work is queued and its answer awaited (``AwaitedCommits``), so no thread is
held while it waits for its commit and the thread pool does not cap the moves in flight.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from queue import Empty, SimpleQueue
from typing import Any, Protocol, TypeVar

from domain.ports.unit_of_work import UnitOfWork
from persistence.driver_sql import StaleBatch
from persistence.uow import SqlUnitOfWorkFactory

T = TypeVar("T")

MAX_BATCH = 64
"""Works per transaction at most: bounds the time the write lock is held by one commit."""


@dataclass(slots=True)
class _Job:
    key: str
    work: Callable[[UnitOfWork], Any]
    answer: Future[Any] = field(default_factory=Future)


class GroupCommitter:
    """``domain.ports.transactions.Transactions`` with writer threads that batch commits."""

    def __init__(self, uow: SqlUnitOfWorkFactory, max_batch: int = MAX_BATCH, writers: int = 1) -> None:
        if writers < 1:
            raise ValueError("at least one writer")
        self._uow = uow
        self.max_batch = max_batch
        self._queues: list[SimpleQueue[_Job | None]] = [SimpleQueue() for _ in range(writers)]
        self._writers: list[threading.Thread | None] = [None] * writers
        self._lock = threading.Lock()
        self._counting = threading.Lock()
        self.batches = 0
        """Transactions committed (or failed) so far; with ``works``, the mean batch size."""
        self.works = 0
        self.batch_listeners: list[Callable[[int], None]] = []
        """Told the number of works of each batch once it is answered (metrics)."""
        self.hold_writes = True
        """Whether a batch holds writes back for one pipeline (``SqlUnitOfWork.hold_writes``)."""
        self.stale_batches = 0
        """Batches run again without holding, a held guard having failed."""

    def run(self, key: str, work: Callable[[UnitOfWork], T]) -> T:
        value: T = self.start(key, work).result()
        return value

    def start(self, key: str, work: Callable[[UnitOfWork], T]) -> Future[T]:
        """Queue ``work`` and return at once: the future is answered by the writer thread after
        the commit that holds the work, so an event loop can await it without holding a thread."""
        if threading.current_thread() in self._writers:
            raise RuntimeError("a work may not wait for another work: it would wait for itself")
        job = _Job(key, work)
        shard = hash(key) % len(self._queues)
        with self._lock:
            if self._writers[shard] is None:
                writer = threading.Thread(
                    target=self._drain, args=(self._queues[shard],), name=f"group-commit-{shard}", daemon=True
                )
                self._writers[shard] = writer
                writer.start()
            self._queues[shard].put(job)
        return job.answer

    @property
    def writers(self) -> int:
        return len(self._queues)

    def close(self) -> None:
        """Finish the works already queued and stop the writers (a later ``run`` starts them again)."""
        with self._lock:
            for shard, writer in enumerate(self._writers):
                self._writers[shard] = None
                if writer is not None:
                    self._queues[shard].put(None)
                    writer.join()

    def _drain(self, queue: SimpleQueue[_Job | None]) -> None:
        while True:
            job = queue.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    waiting = queue.get_nowait()
                except Empty:
                    break
                if waiting is None:
                    stop = True
                    break
                batch.append(waiting)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Job]) -> None:
        # Stable: each game's works keep their order; on PostgreSQL every batch takes its row
        # locks in one order, so two instances' batches cannot deadlock on each other.
        batch.sort(key=lambda job: job.key)
        done: list[tuple[_Job, Any]] = []
        refused: list[tuple[_Job, Exception]] = []
        with self._counting:
            self.batches += 1
            self.works += len(batch)
        try:
            try:
                self._attempt(batch, done, refused, hold=self.hold_writes)
            except StaleBatch:  # a held guard failed: nothing held, exactly as without
                with self._counting:
                    self.stale_batches += 1
                self._attempt(batch, done, refused, hold=False)
        except BaseException as failure:
            for job, refusal in refused:
                job.answer.set_exception(refusal)
            for job in batch:
                if not job.answer.done():
                    job.answer.set_exception(failure)
            if not isinstance(failure, Exception):
                raise
            return
        # Counted before anyone is answered, so a caller that reads the metrics after its answer
        # sees its own batch (a test read them between the answer and the count once).
        for listener in self.batch_listeners:
            listener(len(batch))
        for job, refusal in refused:
            job.answer.set_exception(refusal)
        for job, value in done:
            job.answer.set_result(value)

    def _attempt(
        self,
        batch: list[_Job],
        done: list[tuple[_Job, Any]],
        refused: list[tuple[_Job, Exception]],
        hold: bool,
    ) -> None:
        """Run the batch's works in one transaction and commit it; ``done`` and ``refused`` are
        filled afresh, and answered by the caller once the batch is final."""
        done.clear()
        refused.clear()
        with self._uow() as uow:
            if hold:
                uow.hold_writes()
            alone = len(batch) == 1
            for job in batch:
                try:
                    value = uow.attempt(job.work, alone=alone)
                except (StaleBatch, *uow.DATABASE_ERRORS):
                    raise
                except Exception as refusal:  # undone alone; the batch goes on
                    refused.append((job, refusal))
                else:
                    done.append((job, value))
            if done:
                uow.commit()


class Offload(Protocol):
    """Runs a blocking call on a thread and awaits its value (the server's thread pool)."""

    def __call__(self, call: Callable[[], T], /) -> Awaitable[T]: ...


class AwaitedCommits:
    """``domain.ports.transactions.WorkRunner`` for the event loop: a work is queued to the group commit
    and its answer awaited without a thread; a blocking call goes to ``offload`` (the server's
    thread pool)."""

    def __init__(self, committer: GroupCommitter, offload: Offload) -> None:
        self.committer = committer
        self.offload = offload

    def transaction(self, key: str, work: Callable[[UnitOfWork], T]) -> Awaitable[T]:
        return asyncio.wrap_future(self.committer.start(key, work))

    def blocking(self, call: Callable[[], T]) -> Awaitable[T]:
        return self.offload(call)
