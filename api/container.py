"""The composition root: builds real adapters from settings and wires them into the use cases."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from api.bot_runner import BotRunner
from api.metrics import Metrics
from api.settings import Settings
from domain.registry import EngineRegistry, default_registry
from domain.services import GameService
from persistence.clock import SystemClock
from persistence.database import create_db_engine
from persistence.pubsub import InProcessBroker, RedisBroker
from persistence.uow import SqlUnitOfWorkFactory


@dataclass
class Container:
    settings: Settings
    registry: EngineRegistry
    db_engine: Engine
    broker: Any
    service: GameService
    metrics: Metrics = field(default_factory=Metrics)
    bots: BotRunner | None = None

    def start_background(self) -> None:
        """Start the work that runs beside requests: the bot seats."""
        self.bots = BotRunner(self.service, self.settings.bot_think_seconds)
        self.service.after_change.append(self.bots.notify)
        self.bots.start()

    async def stop_background(self) -> None:
        if self.bots is not None:
            await run_in_threadpool(self.bots.stop)
            self.service.after_change.remove(self.bots.notify)
            self.bots = None


def build_container(
    settings: Settings, registry: EngineRegistry | None = None, metrics: Metrics | None = None
) -> Container:
    registry = registry or default_registry()
    db_engine = create_db_engine(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
    broker: Any
    if settings.redis_url is not None:
        broker = RedisBroker(settings.redis_url.get_secret_value())
    else:
        broker = InProcessBroker()
    service = GameService(SqlUnitOfWorkFactory(db_engine, registry), registry, broker, SystemClock())
    metrics = metrics or Metrics()
    service.submit_listeners.append(metrics.count_submit)
    return Container(settings, registry, db_engine, broker, service, metrics)
