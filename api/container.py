"""The composition root: builds real adapters from settings and wires them into the use cases."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from persistence.pubsub import InProcessBroker, RedisBroker
from sqlalchemy.engine import Engine

from api.metrics import Metrics
from api.settings import Settings
from domain.registry import EngineRegistry, default_registry
from domain.services import GameService
from persistence.clock import SystemClock
from persistence.database import create_db_engine
from persistence.uow import SqlUnitOfWorkFactory


@dataclass
class Container:
    settings: Settings
    registry: EngineRegistry
    db_engine: Engine
    broker: Any
    service: GameService
    metrics: Metrics = field(default_factory=Metrics)

    def start_background(self) -> None:
        """Start work that runs beside requests (bot seats)."""

    async def stop_background(self) -> None:
        """Stop what start_background started."""


def build_container(
    settings: Settings, registry: EngineRegistry | None = None, metrics: Metrics | None = None
) -> Container:
    registry = registry or default_registry()
    db_engine = create_db_engine(settings.database_url)
    broker: Any
    if settings.redis_url is not None:
        broker = RedisBroker(settings.redis_url.get_secret_value())
    else:
        broker = InProcessBroker()
    service = GameService(SqlUnitOfWorkFactory(db_engine, registry), registry, broker, SystemClock())
    return Container(settings, registry, db_engine, broker, service, metrics or Metrics())
