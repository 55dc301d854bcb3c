"""How the app is served: one place for the uvicorn options that are part of the service's limits.

- ``proxy_headers=False``: uvicorn would otherwise believe ``X-Forwarded-For`` from 127.0.0.1 (or
  from anyone, under ``FORWARDED_ALLOW_IPS="*"``); the middleware believes only
  ``TABLETOP_TRUSTED_PROXIES``.
- ``log_config=None``: uvicorn's own lines go through our JSON handler like every other line.
- ``ws_max_size``: a websocket frame far above the message limit is refused by the server before it
  is buffered; one just above it is refused by the middleware with a reason.
- ``ws_per_message_deflate``: off unless ``TABLETOP_WEBSOCKET_COMPRESSION``. Events are small JSON
  objects; compressing each frame for each subscriber was 7.8% of the server's samples in a py-spy
  profile of 20 matches played over subscriptions (bench/README.md), more than it saves on loopback
  or a LAN. A client that offers the extension simply gets uncompressed frames.
- ``http``: uvicorn's httptools protocol with a header read timeout (uvicorn has none: a client
  sending a header byte now and then, or nothing at all, would hold its connection forever). The
  body read timeout lives in the middleware.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from functools import partial
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.edge.logs import configure_logging
from api.edge.middleware import problem_body
from api.entrypoints.owners import OwnerRouter, Serve
from api.settings import Settings


def serve(
    app: Any,
    settings: Settings,
    host: str,
    port: int,
    sock: socket.socket | None = None,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """Serve ``app`` on ``host:port``, or on an already bound ``sock`` (a worker of several);
    ``on_ready`` is called once the socket listens (after the app's start-up)."""
    configure_logging(settings.log_level)
    config = uvicorn_config(app, settings, host, port)
    AnnouncingServer(config, on_ready).run(sockets=[sock] if sock is not None else None)


def serve_owned(
    app: Any, settings: Settings, sock: socket.socket, slot: int, workers: int, directory: str
) -> None:
    """Serve ``app`` as worker ``slot`` of ``workers`` accepting on ``sock``: each connection is
    served by the worker that owns the game it names (``api.entrypoints.owners``)."""
    configure_logging(settings.log_level)
    config = uvicorn_config(app, settings, "", 0)
    timeout = settings.header_timeout_seconds

    def too_slow(connection: socket.socket) -> None:
        with contextlib.suppress(OSError):  # the client's loss: it sent nothing
            connection.send(request_timeout_answer(timeout))
        connection.close()

    router = partial(OwnerRouter, sock, slot, workers, directory, peek_timeout=timeout, silent=too_slow)
    OwningServer(config, router).run()


class OwningServer(uvicorn.Server):
    """uvicorn's server whose accept path is an ``OwnerRouter``: the protocol a connection gets is
    uvicorn's own, started on the socket by whichever worker owns the connection's game."""

    def __init__(self, config: uvicorn.Config, router: Callable[[Serve], OwnerRouter]) -> None:
        super().__init__(config)
        self.make_router = router
        self.router: OwnerRouter | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])  # the app's start-up, no listener of uvicorn's own
        if not self.started or self.should_exit:
            return
        config, loop = self.config, asyncio.get_running_loop()

        async def serve(connection: socket.socket) -> None:
            def protocol() -> asyncio.Protocol:
                return config.http_protocol_class(  # type: ignore[call-arg]
                    config=config, server_state=self.server_state, app_state=self.lifespan.state
                )

            await loop.connect_accepted_socket(protocol, connection)

        self.router = self.make_router(serve)
        await self.router.start()
        self.servers = [self.router]  # type: ignore[list-item]  # closed by uvicorn at shutdown


class AnnouncingServer(uvicorn.Server):
    """Says when it listens: only then is the address worth printing (the port may be taken)."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None] | None) -> None:
        super().__init__(config)
        self.on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit and self.on_ready is not None:
            self.on_ready()


def uvicorn_config(app: Any, settings: Settings, host: str, port: int) -> uvicorn.Config:
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        ws_max_size=4 * settings.max_body_bytes,
        ws_per_message_deflate=settings.websocket_compression,
        http=header_timeout_protocol(settings.header_timeout_seconds),
    )
    return config


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """Answers ``408`` and closes a connection whose request line and headers have not all
    arrived within ``header_timeout`` seconds of the connection opening (or of the request's first
    byte, on a kept-alive connection)."""

    header_timeout = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._disarm_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        self.transport.write(request_timeout_answer(self.header_timeout))
        self.transport.close()


def request_timeout_answer(seconds: float) -> bytes:
    """The whole ``408`` answer (a problem) to a connection whose headers did not come in time."""
    body = problem_body(408, "request_timeout", f"the request headers were not received within {seconds:g} s")
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/problem+json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


def header_timeout_protocol(seconds: float) -> type[HeaderTimeoutProtocol]:
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout": seconds})
