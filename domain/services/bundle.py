"""The resource services built together on one core: what the composition root (and a test)
wires, so that every service sees the same ports, hooks and listeners."""

from __future__ import annotations

from dataclasses import dataclass

from domain.ports.clock import Clock
from domain.ports.events import EventPublisher
from domain.ports.transactions import Transactions, WorkRunner
from domain.ports.unit_of_work import UnitOfWorkFactory
from domain.registry import EngineRegistry
from domain.services.core import ServiceCore
from domain.services.lobby import LobbyService
from domain.services.play import PlayService
from domain.services.reads import ReadService
from domain.services.seats import SeatService


@dataclass(frozen=True, slots=True)
class Services:
    core: ServiceCore
    lobby: LobbyService
    seats: SeatService
    play: PlayService
    reads: ReadService

    @classmethod
    def build(
        cls,
        uow: UnitOfWorkFactory,
        registry: EngineRegistry,
        publisher: EventPublisher,
        clock: Clock,
        transactions: Transactions | None = None,
        on_loop: WorkRunner | None = None,
    ) -> Services:
        """``on_loop``: how a submit awaited on an event loop runs its steps (else in place)."""
        core = ServiceCore(uow, registry, publisher, clock, transactions)
        play = PlayService(core, on_loop)
        return cls(core, LobbyService(core), SeatService(core), play, ReadService(core))
