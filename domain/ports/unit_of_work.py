"""The unit of work: one transaction over every repository, rolled back unless committed."""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self

from domain.ports.games import GameRepository
from domain.ports.notices import NoticeRepository
from domain.ports.players import PlayerRepository
from domain.ports.presence import PresenceRepository
from domain.ports.ratings import RatingRepository
from domain.ports.tournaments import TournamentRepository
from domain.ports.webhooks import WebhookRepository


class UnitOfWork(Protocol):
    """A transaction: rolled back on exit unless ``commit`` was called. Its repositories are read
    only: a service uses the ones it is handed and never replaces them."""

    @property
    def games(self) -> GameRepository: ...

    @property
    def players(self) -> PlayerRepository: ...

    @property
    def webhooks(self) -> WebhookRepository: ...

    @property
    def presence(self) -> PresenceRepository: ...

    @property
    def ratings(self) -> RatingRepository: ...

    @property
    def tournaments(self) -> TournamentRepository: ...

    @property
    def notices(self) -> NoticeRepository: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def commit(self) -> None: ...


class UnitOfWorkFactory(Protocol):
    def __call__(self) -> UnitOfWork: ...
