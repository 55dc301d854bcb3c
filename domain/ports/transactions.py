"""How a use case's work gets its transaction: the ports the submit path writes through.

A use case hands its work (a function of a unit of work) to ``Transactions.run`` and gets the
work's value back only once that work is committed. ``OneTransactionEach`` opens a transaction per
call; the persistence adapter (``persistence.group_commit``) runs works that arrive together in one
transaction and one flush, each still answered only after the commit that holds it.

A use case that must serve both a thread and an event loop (a submit) is written once, as a
coroutine whose steps go through a ``WorkRunner``: on an event loop the adapter
(``persistence.group_commit.AwaitedCommits``) awaits the commit without holding a thread; on a
thread ``InPlace`` runs each step at once, so the coroutine never suspends and ``completed``
returns its value without any event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, TypeVar

from domain.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory

T = TypeVar("T")

Work = Callable[[UnitOfWork], T]
"""Reads and writes through the unit of work it is given; never commits it (``run`` does)."""


class Transactions(Protocol):
    def run(self, key: str, work: Callable[[UnitOfWork], T]) -> T:
        """Run ``work`` in a transaction and return its value once that is committed; ``key`` (a
        game id) orders works on the same game. If ``work`` raises, nothing it wrote is kept."""
        ...


class WorkRunner(Protocol):
    """Runs the steps of a use case written as a coroutine."""

    def transaction(self, key: str, work: Callable[[UnitOfWork], T]) -> Awaitable[T]:
        """``Transactions.run``, awaited: the value once the work is committed."""
        ...

    def blocking(self, call: Callable[[], T]) -> Awaitable[T]:
        """A call that may block (a read, a publish), awaited: its value."""
        ...


class OneTransactionEach:
    """A transaction per work: the simplest ``Transactions`` (tests, scripts)."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self.uow = uow

    def run(self, key: str, work: Callable[[UnitOfWork], T]) -> T:
        with self.uow() as uow:
            value = work(uow)
            uow.commit()
        return value


class InPlace:
    """A ``WorkRunner`` for a caller on a thread: every step runs at once, on that thread."""

    def __init__(self, transactions: Transactions) -> None:
        self.transactions = transactions

    async def transaction(self, key: str, work: Callable[[UnitOfWork], T]) -> T:
        return self.transactions.run(key, work)

    async def blocking(self, call: Callable[[], T]) -> T:
        return call()


def completed(steps: Coroutine[Any, Any, T]) -> T:
    """The value of a use case whose steps all run ``InPlace``: it finishes at its first resumption
    (nothing it awaits suspends), so no event loop is needed."""
    try:
        steps.send(None)
    except StopIteration as finished:
        value: T = finished.value
        return value
    steps.close()
    raise RuntimeError("a step suspended: run this use case on an event loop, with its adapter")
