"""The composition root: builds real adapters from settings and wires them into the use cases."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import timedelta

import httpx
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from api.background.bots import BotRunner
from api.background.deadlines import DeadlineRunner
from api.background.notices import build_notice_sender
from api.background.presence import PresenceRunner
from api.background.thinking import ProcessThinker
from api.background.tournaments import TournamentRunner
from api.edge.metrics import Metrics
from api.settings import Settings
from domain.bots.thinking import BotBudget
from domain.ports.events import EventBroker
from domain.registry import EngineRegistry, default_registry
from domain.services.bundle import Services
from domain.services.chat import ChatService
from domain.services.core import ServiceCore
from domain.services.deadlines import DeadlineService
from domain.services.lobby import LobbyService
from domain.services.notices import NoticeService
from domain.services.play import PlayService
from domain.services.players import PlayerService
from domain.services.presence import PresenceService
from domain.services.reads import ReadService
from domain.services.rematch import RematchService
from domain.services.replay import ReplayService
from domain.services.seats import SeatService
from domain.services.standing import StandingService
from domain.services.takebacks import TakeBackService
from domain.services.tournaments import TournamentService
from domain.services.webhooks import RetryPolicy, WebhookService
from persistence.clock import SystemClock
from persistence.database import DatabaseTimeouts, create_db_engine
from persistence.event_hub import HubBroker
from persistence.group_commit import AwaitedCommits, GroupCommitter
from persistence.hot_states import HotStates
from persistence.outbound.notice_sender import NoticeSender
from persistence.outbound.webhook_sender import TargetGuard, WebhookSender
from persistence.owner_leases import OwnerLeases
from persistence.pubsub import InProcessBroker, RedisBroker
from persistence.uow import SqlUnitOfWorkFactory

OWNER_HOP_TIMEOUT = httpx.Timeout(30.0, connect=2.0)
"""A submit forwarded to its game's owner: 2 s to connect (else it is served here), 30 s in all."""
OWNER_HOP_LIMITS = httpx.Limits(max_connections=200, max_keepalive_connections=50)


@dataclass
class Container:
    settings: Settings
    registry: EngineRegistry
    db_engine: Engine
    broker: EventBroker
    core: ServiceCore
    lobby: LobbyService
    seats: SeatService
    play: PlayService
    reads: ReadService
    players: PlayerService
    deadlines: DeadlineService
    webhooks: WebhookService
    replays: ReplayService
    rematches: RematchService
    guard: TargetGuard
    presence: PresenceService
    standing: StandingService
    chat: ChatService
    takebacks: TakeBackService
    committer: GroupCommitter
    tournaments: TournamentService
    notices: NoticeService
    metrics: Metrics = field(default_factory=Metrics)
    bots: BotRunner | None = None
    thinker: ProcessThinker | None = None
    deadline_runner: DeadlineRunner | None = None
    sender: WebhookSender | None = None
    presence_runner: PresenceRunner | None = None
    tournament_runner: TournamentRunner | None = None
    notice_sender: NoticeSender | None = None
    owner_leases: OwnerLeases | None = None
    """Game ownership between instances (``TABLETOP_INSTANCE_URL`` with Redis), else None."""
    owner_hop: httpx.AsyncClient | None = None
    """The client that forwards a submit to its game's owner (``api.rest.owner_forwarding``)."""

    async def start_owners(self) -> None:
        if self.owner_leases is None:
            return
        await self.owner_leases.start()
        self.owner_hop = httpx.AsyncClient(timeout=OWNER_HOP_TIMEOUT, limits=OWNER_HOP_LIMITS)

    async def stop_owners(self) -> None:
        if self.owner_leases is not None:
            await self.owner_leases.stop()
        if self.owner_hop is not None:
            await self.owner_hop.aclose()
            self.owner_hop = None

    def start_background(self) -> None:
        """Start the work that runs beside requests: bot seats, deadlines, webhooks, presence."""
        settings = self.settings
        self.thinker = ProcessThinker(settings.bot_processes, settings.bot_niceness)
        self.bots = BotRunner(
            self.play,
            settings.bot_think_seconds,
            thinker=self.thinker,
            budget=BotBudget(settings.bot_budget_seconds, settings.bot_max_iterations),
        )
        self.core.after_change.append(self.bots.notify)
        self.bots.start()
        self.deadline_runner = DeadlineRunner(self.deadlines, self.settings.deadline_poll_seconds)
        self.deadline_runner.start()
        self.sender = WebhookSender(
            self.core.uow,
            self.guard.checked_address,
            RetryPolicy(
                settings.webhook_retry_base_seconds,
                settings.webhook_retry_max_seconds,
                timedelta(seconds=settings.webhook_give_up_seconds),
            ),
            settings.webhook_timeout_seconds,
            settings.webhook_max_response_bytes,
            settings.webhook_poll_seconds,
            settings.webhook_sender_concurrency,
            settings.webhook_max_in_flight_per_endpoint,
        )
        self.sender.start()
        self.presence_runner = PresenceRunner(self.presence, self.presence.ttl.total_seconds() / 3)
        self.presence_runner.start()
        self.tournament_runner = TournamentRunner(self.tournaments, self.settings.tournament_poll_seconds)
        self.tournament_runner.start()
        self.notice_sender = build_notice_sender(settings, self.core.uow, self.registry)
        if self.notice_sender is not None:
            self.notice_sender.start()

    async def stop_background(self) -> None:
        if self.notice_sender is not None:
            await run_in_threadpool(self.notice_sender.stop)
            self.notice_sender = None
        if self.tournament_runner is not None:
            await run_in_threadpool(self.tournament_runner.stop)
            self.tournament_runner = None
        if self.presence_runner is not None:
            await run_in_threadpool(self.presence_runner.stop)
            self.presence_runner = None
        if self.sender is not None:
            await run_in_threadpool(self.sender.stop)
            self.sender = None
        if self.deadline_runner is not None:
            await run_in_threadpool(self.deadline_runner.stop)
            self.deadline_runner = None
        if self.bots is not None:
            await run_in_threadpool(self.bots.stop)
            self.core.after_change.remove(self.bots.notify)
            self.bots = None
        if self.thinker is not None:
            await run_in_threadpool(self.thinker.close)
            self.thinker = None
        await run_in_threadpool(self.committer.close)


def group_commit_writers(settings: Settings) -> int:
    """One writer on SQLite (its single write lock), four on a server database unless set."""
    if settings.group_commit_writers is not None:
        return settings.group_commit_writers
    return 1 if settings.database_url.startswith("sqlite") else 4


def pool_share(connections: int, workers: int, least: int) -> int:
    """A worker process's share of the instance's ``connections`` (pool or overflow): the
    instance as a whole then opens at most ``TABLETOP_DB_POOL_SIZE + TABLETOP_DB_MAX_OVERFLOW``
    connections whatever its number of workers (each keeps at least ``least``)."""
    return max(least, connections // workers)


def build_container(
    settings: Settings, registry: EngineRegistry | None = None, metrics: Metrics | None = None
) -> Container:
    registry = registry or default_registry()
    db_engine = create_db_engine(
        settings.database_url,
        sqlite_synchronous=settings.sqlite_synchronous,
        pool_size=pool_share(settings.db_pool_size, settings.worker_processes, least=1),
        max_overflow=pool_share(settings.db_max_overflow, settings.worker_processes, least=0),
        timeouts=DatabaseTimeouts(settings.db_connect_timeout_seconds, settings.db_statement_timeout_seconds),
    )
    broker: EventBroker
    if settings.redis_url is not None:
        broker = RedisBroker(
            settings.redis_url.get_secret_value(), channel_prefix=settings.redis_channel_prefix
        )
    elif settings.event_hub is not None:
        broker = HubBroker(settings.event_hub)
    else:
        broker = InProcessBroker()
    hot_states = HotStates(settings.hot_states) if settings.hot_states > 0 else None
    units = SqlUnitOfWorkFactory(db_engine, registry, hot_states, settings.notice_channels())
    committer = GroupCommitter(units, writers=group_commit_writers(settings))
    on_loop = AwaitedCommits(committer, run_in_threadpool)
    services = Services.build(units, registry, broker, SystemClock(), committer, on_loop)
    core = services.core
    services.seats.max_bot_only_games = settings.max_bot_only_games
    services.lobby.max_open_listed_per_player = settings.max_open_listed_games_per_player
    services.lobby.max_open_listed_per_address = settings.max_open_listed_games_per_address
    metrics = metrics or Metrics()
    services.play.submit_listeners.append(metrics.count_submit)
    committer.batch_listeners.append(metrics.count_batch)
    ttl = settings.lobby_expiry_seconds
    services.lobby.inactivity_days = settings.inactivity_days or None
    services.lobby.lapses_before_stand_in = settings.clock_lapses_before_stand_in
    deadlines = DeadlineService(
        core,
        timedelta(seconds=ttl) if ttl > 0 else None,
        settings.clock_lapses_before_stand_in,
    )
    guard = TargetGuard(settings.webhook_allow_private_targets)
    webhooks = WebhookService(core, guard)
    tournaments = TournamentService(core)
    tournaments.inactivity_days = services.lobby.inactivity_days
    leases = None
    if settings.redis_url is not None and settings.instance_url is not None:
        leases = OwnerLeases(
            settings.redis_url.get_secret_value(), settings.instance_url, settings.owner_lease_seconds
        )
    return Container(
        settings,
        registry,
        db_engine,
        broker,
        core,
        services.lobby,
        services.seats,
        services.play,
        services.reads,
        PlayerService(core, services.seats),
        deadlines,
        webhooks,
        ReplayService(core),
        RematchService(core),
        guard,
        PresenceService(core, uuid.uuid4().hex, timedelta(seconds=settings.presence_ttl_seconds)),
        StandingService(core),
        ChatService(core, units, broker, core.clock, settings.max_chat_entries),
        TakeBackService(core),
        committer,
        tournaments,
        NoticeService(
            core,
            PlayerService(core, services.seats).authenticate,
            settings.notice_channels(),
            TargetGuard(settings.push_allow_private_targets),
        ),
        metrics,
        owner_leases=leases,
    )
