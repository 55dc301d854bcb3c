"""Routes resolved once: FastAPI's per-request routes version, computed at start-up instead.

FastAPI 0.16x asks ``APIRouter._get_routes_version()`` several times per request (to notice routes
added after start-up): each call allocates a ``set`` and walks every included router and each of
its routes, ~30 µs of garbage-making work per call on this machine. Our routers are complete once
the app factory returns, so each router's sum over what it includes is taken then; only its own
counter (bumped by FastAPI when a route or router is added to it directly) is read per request.
"""

from __future__ import annotations

from fastapi import APIRouter


def settle_routes(router: APIRouter) -> None:
    """Fix the included routers' part of ``router``'s routes version, depth first."""
    included = 0
    for route in router.routes:
        inner = getattr(route, "original_router", None)
        if isinstance(inner, APIRouter) and inner is not router:
            settle_routes(inner)
            included += inner._get_routes_version()

    def routes_version(seen: set[int] | None = None) -> int:
        return router._routes_version + included

    router._get_routes_version = routes_version  # type: ignore[method-assign]
