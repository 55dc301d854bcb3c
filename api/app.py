"""The app factory: nothing is built at import time; the lifespan owns every resource."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import GZipMiddleware
from strawberry.exceptions import ConnectionRejectionError
from strawberry.fastapi import BaseContext, GraphQLRouter
from strawberry.types.unset import UnsetType

from api.bootstrap import Container, build_container
from api.deps import ContainerDep, bearer_from_connection_params
from api.edge.cors import OriginPolicy, install_cors, origin_policy
from api.edge.head import HeadAsGet
from api.edge.logs import configure_logging
from api.edge.metric_labels import RouteLabels
from api.edge.metrics import Metrics
from api.edge.middleware import RequestGuard
from api.edge.page_headers import PageHeaders
from api.edge.rate_limits import RateLimiter
from api.entrypoints.heap import frozen_start_up_heap
from api.graphql.guard import build_schema
from api.graphql.http_problems import GraphQLHttpProblems
from api.graphql.transport import SharedAnswersHandler
from api.live import sse, tournament_sse
from api.openapi import game_schemas
from api.openapi.contract import document_contract
from api.openapi.game_schemas import components
from api.openapi.games import type_game_data
from api.pages import notice_opt_out
from api.pages.docs import graphiql_page, install_docs, install_sdl
from api.pages.web_client import install_web_client
from api.problems.details import install_problem_handlers
from api.rest.fast_submit import PreResolvedSubmit
from api.rest.owner_forwarding import ForwardToOwner
from api.rest.resolved_routes import settle_routes
from api.rest.routers import (
    chat,
    game_types,
    games,
    health,
    notices,
    players,
    ratings,
    takebacks,
    tournaments,
    webhooks,
)
from api.settings import Settings
from domain.errors import Unauthorized
from domain.registry import EngineRegistry, default_registry
from persistence import fast_json
from persistence.database import wait_until_reachable
from persistence.migrate import ensure_migrated, migrate


def package_version() -> str:
    """The installed package's version: the API document's ``info.version``."""
    try:
        return version("tabletop")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


GRAPHQL_PATH = "/graphql"
GZIP_MINIMUM_BYTES = 1024
"""Answers at least this large are gzipped for clients that accept it (views, catalogs, schemas)."""


class GuardedGraphQLRouter(GraphQLRouter):
    """JSON nested too deeply for the parser is malformed JSON (400), not a crash (500); a
    cross-origin websocket is accepted only from an origin CORS allows; GraphiQL is self-hosted;
    a live answer shared by a group of subscribers is sent as encoded once (``api.graphql.transport``)."""

    origin_policy = OriginPolicy(frozenset())
    graphql_transport_ws_handler_class = SharedAnswersHandler

    def is_websocket_origin_allowed(self, request: WebSocket, origin: str) -> bool:
        return self.origin_policy.allows(origin)

    async def render_graphql_ide(self, request: Request) -> HTMLResponse:
        """GraphiQL with its assets served by us (Strawberry's page loads them from a CDN)."""
        return HTMLResponse(graphiql_page())

    def encode_json(self, data: object) -> str:
        """Every websocket message and HTTP answer: orjson's text (a text frame, as
        graphql-transport-ws wants, hence ``str``)."""
        return fast_json.dumps(data)

    def decode_json(self, data: str | bytes) -> object:
        try:
            return json.loads(data)
        except RecursionError:
            raise json.JSONDecodeError("nested too deeply", "", 0) from None

    async def on_ws_connect(
        self, context: BaseContext | dict[str, Any]
    ) -> UnsetType | dict[str, object] | None:
        """``connection_init``'s ``authorization`` (any case) is read like the HTTP header: a
        malformed one closes the socket with 4403 instead of quietly making a spectator. (A
        well-formed token is checked against the game when an operation uses it.)"""
        try:
            params = context.get("connection_params") if isinstance(context, dict) else None
            bearer_from_connection_params(params)
        except Unauthorized as refused:
            raise ConnectionRejectionError({"code": refused.code, "detail": refused.message}) from None
        return await super().on_ws_connect(context)


def create_app(
    settings: Settings | None = None,
    registry: EngineRegistry | None = None,
    container: Container | None = None,
) -> FastAPI:
    settings = settings or Settings()
    metrics = container.metrics if container is not None else Metrics()
    limiter = RateLimiter(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging(settings.log_level)
        built = container or build_container(settings, registry, metrics)
        await run_in_threadpool(wait_until_reachable, built.db_engine, settings.db_startup_wait_seconds)
        if settings.auto_migrate:
            migrate(built.db_engine.url)  # an engine of its own: no statement of a migration is cut
        ensure_migrated(built.db_engine)
        app.state.container = built
        built.core.token_listeners.append(limiter.token_authenticated)
        await built.broker.start()
        await built.start_owners()
        built.start_background()
        try:
            with frozen_start_up_heap(settings.gc_young_threshold):
                yield
        finally:
            built.core.token_listeners.remove(limiter.token_authenticated)
            await built.stop_background()
            await built.stop_owners()
            await built.broker.stop()
            built.db_engine.dispose()

    app = FastAPI(
        title="Tabletop",
        version=package_version(),
        summary="Board games as a service: REST and GraphQL with live subscriptions.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    install_docs(app)
    install_problem_handlers(app)
    _publish_game_schemas(app, registry or default_registry())
    document_contract(app, package_version())

    async def graphql_context(container: ContainerDep) -> dict[str, Container]:
        return {"container": container}

    graphql_schema = build_schema(settings, limiter)
    install_sdl(app, graphql_schema)
    graphql = GuardedGraphQLRouter(
        graphql_schema,
        context_getter=graphql_context,
        max_subscriptions_per_connection=settings.max_subscriptions_per_connection,
        include_in_schema=False,
    )
    graphql.origin_policy = origin_policy(settings)
    app.include_router(health.router)
    app.include_router(game_types.router)
    app.include_router(games.router)
    app.include_router(sse.router)
    app.include_router(players.router)
    app.include_router(webhooks.router)
    app.include_router(ratings.router)
    app.include_router(chat.router)
    app.include_router(takebacks.router)
    app.include_router(tournaments.router)
    app.include_router(tournament_sse.router)
    app.include_router(notices.router)
    app.include_router(notice_opt_out.router)
    app.include_router(graphql, prefix=GRAPHQL_PATH)
    install_web_client(app)
    app.add_middleware(PreResolvedSubmit, fastapi=app)
    app.add_middleware(ForwardToOwner, fastapi=app)
    app.add_middleware(PageHeaders)
    app.add_middleware(GraphQLHttpProblems)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES)
    app.add_middleware(HeadAsGet)
    labels = RouteLabels(app, prefixes=[GRAPHQL_PATH])
    app.add_middleware(RequestGuard, metrics=metrics, settings=settings, limiter=limiter, labels=labels)
    install_cors(app, settings)
    settle_routes(app.router)
    return app


def _publish_game_schemas(app: FastAPI, registry: EngineRegistry) -> None:
    """Add each game's JSON Schemas (view, decisions, choices, events, static data) to the
    OpenAPI components, so one document describes every shape a client receives."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            document.setdefault("components", {}).setdefault("schemas", {}).update(components(registry))
            games = [engine.meta for engine in registry]
            typed = {meta.slug for meta in games if game_schemas.load(meta.slug) is not None}
            type_game_data(document, games, typed)
        return app.openapi_schema or generate()

    app.openapi = openapi  # type: ignore[method-assign]
