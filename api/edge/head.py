"""``HEAD`` answered as ``GET`` without its body, on every route that answers ``GET``.

FastAPI routes list only the methods they were declared with, so ``HEAD`` met a 405. A client (a
cache checking its ``ETag``, a link checker, a download manager reading ``Content-Length``) asks
``HEAD`` to learn what ``GET`` would answer: the same status and headers, ``Content-Length`` and
``ETag`` included (``If-None-Match`` gives the same 304), and no body. Served here, once, rather
than by declaring ``HEAD`` on each route: the OpenAPI document keeps one operation per ``GET``,
as generators expect (RFC 9110 makes ``HEAD`` implied wherever ``GET`` is).

A streamed answer (``text/event-stream``) stops after its headers: the route sees the client
leave, as when an ``EventSource`` closes.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DISCONNECT: Message = {"type": "http.disconnect"}


class HeadAsGet:
    """Runs a ``HEAD`` request as ``GET`` and sends the headers only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        answered = asyncio.Event()

        async def headers_only(message: Message) -> None:
            if message["type"] != "http.response.body":
                await send(message)
            elif not answered.is_set():
                answered.set()
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def until_answered() -> Message:
            """The client's messages, then a disconnect once the headers are sent: a stream ends."""
            if answered.is_set():
                return DISCONNECT
            reading = asyncio.ensure_future(receive())
            waiting = asyncio.ensure_future(answered.wait())
            await asyncio.wait({reading, waiting}, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if reading.done():
                return reading.result()
            reading.cancel()
            return DISCONNECT

        # ASGI 2.4 lets a streamed response learn of a gone client only from a failing ``send``;
        # below 2.4 it listens to ``receive``, which reports the disconnect once answered.
        asgi = {**scope.get("asgi", {}), "spec_version": "2.3"}
        await self.app({**scope, "method": "GET", "asgi": asgi}, until_answered, headers_only)
