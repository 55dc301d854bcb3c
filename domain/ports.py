"""Ports: what the use cases need from the outside world. Adapters live in ``persistence/``."""

from __future__ import annotations

import builtins
from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import TracebackType
from typing import Protocol, Self

from domain.engine import JSON
from domain.model.idempotency import Remembered
from domain.model.lobby import GameSummary, LobbyCursor, LobbyFilter
from domain.model.match import AppliedChoices, Match, RecordedEvent
from domain.model.ratings import RatingRepository
from domain.model.webhooks import Attempt, ClaimedDelivery, Delivery, Endpoint, NewDelivery


@dataclass(frozen=True, slots=True)
class BotGame:
    """An in-progress game with a bot seat, and whether a person plays in it too."""

    id: str
    has_humans: bool


class GameRepository(Protocol):
    def add(self, match: Match) -> None:
        """Store a new match and its pending events."""
        ...

    def get(self, game_id: str, for_update: bool = False) -> Match:
        """Load the current state (never a replay); raises GameNotFound. ``for_update``: the
        caller will save it, so other writers may wait for this transaction instead of racing."""
        ...

    def save(self, match: Match) -> None:
        """Store a changed match and its new events; raises VersionConflict if another
        writer changed it since it was loaded."""
        ...

    def list(
        self, where: LobbyFilter, limit: int, after: LobbyCursor | None = None
    ) -> builtins.list[GameSummary]:
        """Public games matching ``where``, newest first (``id`` breaks ties), after ``after``."""
        ...

    def count(self, where: LobbyFilter) -> int:
        """How many public games match ``where``."""
        ...

    def events(self, game_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]: ...

    def bot_games_in_progress(self, after: str, limit: int) -> builtins.list[BotGame]:
        """In-progress games with a bot seat, by id after ``after`` (keyset pages)."""
        ...

    def count_bot_only_in_progress(self) -> int:
        """In-progress games whose every seat is a bot."""
        ...

    def count_open_listed(self, creator_id: str, creator_address: str | None) -> tuple[int, int]:
        """Listed lobbies not yet started or aborted: of this player, and of this address hash
        (0 when None); counted so that concurrent creates see each other."""
        ...

    def count_by_status(self) -> dict[str, int]: ...

    def idempotent_result(self, game_id: str, key: str) -> Remembered | None: ...

    def applied_choices(self, game_id: str) -> builtins.list[AppliedChoices]:
        """Every decision's applied choices, in order (what a replay re-applies)."""
        ...

    def claim_due(self, now: datetime, lobby_created_before: datetime | None) -> str | None:
        """One game with a deadline due by ``now`` (or a lobby created before the cutoff),
        locked for this transaction so no other instance takes it; None when nothing is due."""
        ...

    def remember_result(
        self, game_id: str, key: str, result: dict[str, JSON], fingerprint: str | None = None
    ) -> None: ...

    def created_for_key(self, key_hash: str) -> Remembered | None:
        """What a create with this (hashed) idempotency key remembered, if one was made."""
        ...

    def remember_create(self, key_hash: str, game_id: str, result: dict[str, JSON], fingerprint: str) -> None:
        """Raises VersionConflict when a concurrent create took the key first."""
        ...


@dataclass(frozen=True, slots=True)
class Player:
    """An optional identity across games; its token is stored only as a hash."""

    id: str
    name: str
    token_hash: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    game_id: str
    seat: int
    joined_at: datetime


class PlayerRepository(Protocol):
    def add(self, player: Player) -> None: ...

    def by_token_hash(self, token_hash: str) -> Player | None: ...

    def link_seat(self, player_id: str, game_id: str, seat: int, joined_at: datetime) -> None:
        """Record that the player holds this seat (in the same transaction as the join)."""
        ...

    def seats_of(self, player_id: str, limit: int, offset: int) -> builtins.list[PlayerSeat]:
        """The player's seats, most recently joined first."""
        ...


class WebhookRepository(Protocol):
    def add_endpoint(self, endpoint: Endpoint) -> None: ...

    def get_endpoint(self, endpoint_id: str) -> Endpoint | None: ...

    def endpoints_of(self, player_id: str | None, game_id: str | None) -> builtins.list[Endpoint]:
        """A player's endpoints, or a game's (host) endpoints; deleted ones are left out."""
        ...

    def endpoints_for_game(self, game_id: str, player_ids: builtins.list[str]) -> builtins.list[Endpoint]:
        """The active endpoints interested in a game: its host's and its players'."""
        ...

    def set_status(self, endpoint_id: str, status: str, now: datetime | None) -> None:
        """active / failing / deleted; back to active re-queues its failed deliveries at ``now``."""
        ...

    def enqueue(self, deliveries: builtins.list[NewDelivery], now: datetime) -> None: ...

    def deliveries_of(self, endpoint_id: str, limit: int) -> builtins.list[Delivery]:
        """Newest first, each with its attempts."""
        ...

    def claim(
        self, now: datetime, lease: timedelta, owner: str, skip_endpoints: Collection[str] = ()
    ) -> ClaimedDelivery | None:
        """Lease the next due delivery whose earlier deliveries (same endpoint and game) are all
        done, so each endpoint gets a game's deliveries in order, and whose endpoint is not in
        ``skip_endpoints`` (those the caller is busy with); None when nothing is due."""
        ...

    def record_attempt(
        self,
        delivery_id: int,
        owner: str,
        attempt: Attempt,
        delivered: bool,
        next_attempt_at: datetime | None,
    ) -> bool:
        """Record one try under our lease (False if the lease was lost). ``next_attempt_at`` None
        after a failure: give up, the delivery fails and its endpoint is marked failing."""
        ...


@dataclass(frozen=True, slots=True)
class Connection:
    """One open live subscription of a seat, owned by the instance serving it until it expires."""

    id: str
    game_id: str
    seat: int
    instance: str
    expires_at: datetime


class PresenceRepository(Protocol):
    def add(self, connection: Connection) -> None: ...

    def remove(self, connection_id: str) -> None: ...

    def remove_instance(self, instance: str) -> None: ...

    def connected_seats(self, game_id: str, now: datetime) -> frozenset[int]:
        """Seats of the game with a connection that has not expired by ``now``."""
        ...

    def extend(self, instance: str, until: datetime) -> None:
        """Every connection of ``instance`` now expires at ``until``."""
        ...

    def purge_expired(self, now: datetime) -> None: ...


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


class EventPublisher(Protocol):
    """Fans committed events out to live subscribers (in process, or across instances)."""

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None: ...


class SubscriptionLost(Exception):
    """A live subscriber may have missed events (it fell behind, a gap never filled, or the broker
    lost its link to the other processes). Reload history after ``last_seq`` and subscribe again."""

    def __init__(self, message: str, last_seq: int | None) -> None:
        super().__init__(message)
        self.last_seq = last_seq


class SubscriptionClosed(Exception):
    """The broker stopped; no more events will come on this subscription."""


class LiveEvents(Protocol):
    """One subscriber's events of a channel, in ``seq`` order and none twice."""

    async def get(self) -> RecordedEvent:
        """The next event; ``SubscriptionLost`` when some may be missing, ``SubscriptionClosed``
        once the broker stopped."""
        ...


class EventBroker(EventPublisher, Protocol):
    """Carries committed events to live subscribers: in this process, to the other worker
    processes, to other instances. ``publish`` is called from any thread after a commit and never
    raises (the events are durable; a subscriber notices a gap by ``seq``); the rest runs on the
    event loop, between ``start`` and ``stop``."""

    async def start(self) -> None: ...

    async def stop(self) -> None:
        """Ends every subscription (``SubscriptionClosed``)."""
        ...

    async def ping(self) -> None:
        """Raises unless published events reach the other instances now (readiness)."""
        ...

    def subscribe(self, game_id: str, after: int | None = None) -> AbstractAsyncContextManager[LiveEvents]:
        """The events published on ``game_id`` (a game, or a game's chat channel) from now on, or
        every one after ``after`` when given; ``SubscriptionLost`` if the link to the other
        processes is not up in time."""
        ...


class Clock(Protocol):
    def now(self) -> datetime: ...
