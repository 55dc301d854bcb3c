"""How a use case's work gets its transaction: the port the submit path writes through.

A use case hands its work (a function of a unit of work) to ``Transactions.run`` and gets the
work's value back only once that work is committed. ``OneTransactionEach`` opens a transaction per
call; the persistence adapter (``persistence.group_commit``) runs works that arrive together in one
transaction and one flush, each still answered only after the commit that holds it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Protocol, TypeVar, runtime_checkable

from domain.ports import UnitOfWork, UnitOfWorkFactory

T = TypeVar("T")

Work = Callable[[UnitOfWork], T]
"""Reads and writes through the unit of work it is given; never commits it (``run`` does)."""


class Transactions(Protocol):
    def run(self, key: str, work: Callable[[UnitOfWork], T]) -> T:
        """Run ``work`` in a transaction and return its value once that is committed; ``key`` (a
        game id) orders works on the same game. If ``work`` raises, nothing it wrote is kept."""
        ...


@runtime_checkable
class QueuedTransactions(Transactions, Protocol):
    def start(self, key: str, work: Callable[[UnitOfWork], T]) -> Future[T]:
        """Queue ``work`` and return at once; the future gets its value (or its error) only after
        the commit that holds it. Lets an event loop wait for a commit without a thread."""
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
