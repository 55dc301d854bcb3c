"""The app factory: nothing is built at import time; the lifespan owns every resource."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from strawberry.fastapi import GraphQLRouter

from api.container import Container, build_container
from api.deps import ContainerDep
from api.graphql_schema import schema
from api.logs import configure_logging
from api.metrics import Metrics
from api.middleware import RequestGuard
from api.problems import install_problem_handlers
from api.routers import game_types, games, health
from api.settings import Settings
from domain.registry import EngineRegistry
from persistence.schema import ensure_migrated, migrate


def create_app(
    settings: Settings | None = None,
    registry: EngineRegistry | None = None,
    container: Container | None = None,
) -> FastAPI:
    settings = settings or Settings()
    metrics = container.metrics if container is not None else Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging(settings.log_level)
        built = container or build_container(settings, registry, metrics)
        if settings.auto_migrate:
            migrate(built.db_engine)
        ensure_migrated(built.db_engine)
        app.state.container = built
        await built.broker.start()
        built.start_background()
        try:
            yield
        finally:
            await built.stop_background()
            await built.broker.stop()
            built.db_engine.dispose()

    app = FastAPI(
        title="Tabletop",
        version="1.0.0",
        summary="Board games as a service: REST and GraphQL with live subscriptions.",
        lifespan=lifespan,
    )
    install_problem_handlers(app)

    async def graphql_context(container: ContainerDep) -> dict[str, Container]:
        return {"container": container}

    graphql = GraphQLRouter(
        schema,
        context_getter=graphql_context,
        max_subscriptions_per_connection=settings.max_subscriptions_per_connection,
        include_in_schema=False,
    )
    app.include_router(health.router)
    app.include_router(game_types.router)
    app.include_router(games.router)
    app.include_router(graphql, prefix="/graphql")
    app.add_middleware(
        RequestGuard,
        metrics=metrics,
        max_body_bytes=settings.max_body_bytes,
        rate=settings.rate_limit_per_second,
        burst=settings.rate_limit_burst,
    )
    return app
