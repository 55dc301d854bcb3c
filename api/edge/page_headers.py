"""Headers that keep the service's pages from being framed or mined, added on the way out.

``/play`` (the web client, whose game page has a resign button) gets a Content-Security-Policy
that admits only its own scripts, styles, images and connections (REST, the GraphQL websocket),
no inline script, no plugin, no ``<base>``, and no framing by any site (``frame-ancestors 'none'``,
with ``X-Frame-Options: DENY`` for browsers before CSP 2). Inline *styles* stay allowed: the
boards set a few ``style`` attributes (an SVG's height on a phone), which run no code. Every
other HTML page (``/docs``, ``/redoc``, GraphiQL) bootstraps with an inline script, so it gets the
framing protection only. Every page and its files send ``Referrer-Policy: no-referrer`` (a game
link says nothing to the sites it leads to) and ``X-Content-Type-Options: nosniff``. JSON answers
of the API get none of these: they are no page to frame.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.pages.web_client import MOUNT

CLIENT_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
PAGE_POLICY = "frame-ancestors 'none'"
COMMON = (
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)


class PageHeaders:
    """Pure ASGI: adds the headers to ``/play`` answers and to every ``text/html`` answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        client = path == MOUNT or path.startswith(f"{MOUNT}/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                html = any(k.lower() == b"content-type" and v.startswith(b"text/html") for k, v in headers)
                if client or html:
                    named = {k.lower() for k, _ in headers}
                    policy = CLIENT_POLICY if client else PAGE_POLICY
                    extra = [(b"content-security-policy", policy.encode()), *COMMON]
                    headers += [(k, v) for k, v in extra if k not in named]
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
