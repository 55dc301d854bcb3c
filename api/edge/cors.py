"""Which browser origins may call the API: CORS for HTTP, the same list for the GraphQL websocket.

Browsers do not apply CORS to websockets: any page can open one to us, with the visitor's network
position. So the websocket handshake's ``Origin`` is checked against the same policy (through
Strawberry's hook, see ``api.app``): same-origin pages (``/play``) and clients that send no
``Origin`` (curl, mobile apps, servers: not browser pages) are let through, others refused with
HTTP 403. Tokens travel in ``Authorization`` (never cookies), so no credentials are allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware
from strawberry.http.websocket_origin import normalize_origin

from api.settings import Settings

LOCAL_ORIGIN = r"https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?"
"""Pages served from this machine: allowed by default on the embedded SQLite database only."""

REQUEST_HEADERS = (
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-None-Match",
    "Accept-Language",
    "X-Request-Id",
)
EXPOSED_HEADERS = (
    "ETag",
    "Location",
    "Content-Language",
    "X-Request-Id",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
)
PREFLIGHT_MAX_AGE_SECONDS = 600


@dataclass(frozen=True, slots=True)
class OriginPolicy:
    origins: frozenset[str]
    any_origin: bool = False
    local: bool = False

    def allows(self, origin: str) -> bool:
        if self.any_origin or normalize_origin(origin) in self.origins:
            return True
        return self.local and re.fullmatch(LOCAL_ORIGIN, origin) is not None


def origin_policy(settings: Settings) -> OriginPolicy:
    """``TABLETOP_CORS_ORIGINS`` (comma-separated, ``*`` for any); unset: localhost pages on the
    embedded SQLite database (a developer's machine), nobody on any other database."""
    if settings.cors_origins is None:
        return OriginPolicy(frozenset(), local=settings.database_url.startswith("sqlite"))
    listed = [o.strip() for o in settings.cors_origins.split(",") if o.strip()]
    origins = frozenset(filter(None, (normalize_origin(o) for o in listed if o != "*")))
    return OriginPolicy(origins, any_origin="*" in listed)


def install_cors(app: FastAPI, settings: Settings) -> None:
    """Outermost: preflights are answered, and refusals of inner layers (429, 413) still carry
    the CORS headers a page needs to read them."""
    policy = origin_policy(settings)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=["*"] if policy.any_origin else sorted(policy.origins),
        allow_origin_regex=LOCAL_ORIGIN if policy.local else None,
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=list(REQUEST_HEADERS),
        expose_headers=list(EXPOSED_HEADERS),
        allow_credentials=False,
        max_age=PREFLIGHT_MAX_AGE_SECONDS,
    )
