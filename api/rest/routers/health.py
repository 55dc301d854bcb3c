"""Liveness, readiness and Prometheus metrics."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.concurrency import run_in_threadpool

from api.bootstrap import Container
from api.deps import ContainerDep
from persistence.database import check_writable

router = APIRouter(tags=["health"])


@router.get("/healthz", operation_id="healthz")
def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


READINESS = {
    "application/json": {
        "schema": {
            "type": "object",
            "properties": {
                "status": {"enum": ["ready", "not_ready"], "type": "string"},
                "checks": {
                    "type": "object",
                    "additionalProperties": {"type": "boolean"},
                    "description": "Each dependency: `database` whether it answered and can store "
                    "a change now (not full, not read-only), `redis` whether it answered.",
                },
            },
            "required": ["status", "checks"],
        }
    }
}


@router.get(
    "/readyz",
    operation_id="readyz",
    responses={
        200: {"description": "Ready", "content": READINESS},
        503: {"description": "Not ready", "content": READINESS},
    },
)
async def readyz(container: ContainerDep) -> JSONResponse:
    """Readiness: the database answers and can store a change now (and Redis, when configured,
    answers); each within a few seconds."""
    checks = {"database": await _database_ready(container)}
    if container.settings.redis_url is not None:
        checks["redis"] = await _redis_ready(container)
    ready = all(checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "not_ready", "checks": checks},
        status_code=200 if ready else 503,
    )


@router.get("/metrics", operation_id="metrics", response_class=Response)
async def metrics(container: ContainerDep) -> Response:
    """Prometheus metrics."""
    counts = await run_in_threadpool(container.lobby.count_by_status)
    for status in ("lobby", "in_progress", "finished", "aborted"):
        container.metrics.games.labels(status).set(counts.get(status, 0))
    return Response(generate_latest(container.metrics.registry), media_type=CONTENT_TYPE_LATEST)


async def _redis_ready(container: Container) -> bool:
    try:
        await asyncio.wait_for(container.broker.ping(), 2.0)
        return True
    except Exception:
        return False


DATABASE_CHECK_SECONDS = 5.0
"""A database that has not said within this time that it can write is not ready (the check's
thread is left to finish; the database's own timeouts bound it)."""


async def _database_ready(container: Container) -> bool:
    try:
        # the loop's executor, not anyio's pool, whose await cannot be abandoned before its thread ends
        check = asyncio.get_running_loop().run_in_executor(None, check_writable, container.db_engine)
        await asyncio.wait_for(check, DATABASE_CHECK_SECONDS)
        return True
    except Exception:
        return False
