"""The route template a request is counted under in ``/metrics``: a bounded set of labels.

A request that FastAPI routed carries its route, whose path is the template. Two kinds of request
do not: those served by a mounted app (the web client's files, the docs' assets), and those of a
router included under a prefix (GraphQL at ``/graphql``), whose route knows only its own path
(``""``). They are counted under their mount's or prefix's template; every other path is
``unmatched``, so a client inventing paths cannot create labels."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.routing import Mount
from starlette.types import Scope

UNMATCHED = "unmatched"


class RouteLabels:
    """``label(scope)`` after the app has run; ``prefixes`` are paths of routers included under a
    prefix. The app's mounts are read on first use (the factory adds them after the middleware)."""

    def __init__(self, app: Any, prefixes: Iterable[str] = ()) -> None:
        self._app = app
        self._prefixes = tuple(prefixes)
        self._known: tuple[tuple[str, str], ...] | None = None

    def label(self, scope: Scope) -> str:
        path = getattr(scope.get("route"), "path", None)
        if path and path.startswith("/"):
            return str(path)
        requested: str = scope["path"]
        for start, template in self._known or self._read_app():
            if requested == start or requested.startswith(start + "/"):
                return template
        return UNMATCHED

    def _read_app(self) -> tuple[tuple[str, str], ...]:
        mounts = [
            (route.path, route.path_format)
            for route in self._app.router.routes
            if isinstance(route, Mount) and route.path
        ]
        # the longest first: a mount inside another's path wins
        known = sorted([*mounts, *((p, p) for p in self._prefixes)], key=lambda k: -len(k[0]))
        self._known = tuple(known)
        return self._known
