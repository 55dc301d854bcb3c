"""One pure-ASGI middleware in front of everything: request id, client address, JSON access log,
metrics, and the limits every request and every websocket message goes through (body size, body
read time, rate, websocket connection caps). Pure ASGI (not BaseHTTPMiddleware) keeps the
per-request cost small, and it is the one place that sees websocket messages as well as requests.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import re
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.deps import bearer_from_connection_params, parse_bearer
from api.edge.metric_labels import RouteLabels
from api.edge.metrics import Metrics
from api.edge.rate_limits import Network, RateLimiter, SocketCaps, Verdict, client_address, parse_networks
from api.problems.details import known, localized, scope_language
from api.settings import Settings
from domain.errors import Detail, DomainError

log = logging.getLogger("tabletop.access")
REQUEST_ID = b"x-request-id"
VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9._:\-]{1,64}")
UNLIMITED_PATHS = ("/healthz", "/readyz", "/metrics")
BODYLESS_METHODS = ("GET", "HEAD", "OPTIONS")
RATE_KEY = "tabletop.rate_key"
"""Where the middleware leaves a request's rate-limit key in ``scope["state"]`` (GraphQL charges
extra for an operation with several top-level fields against the same key)."""
REQUEST_ID_KEY = "tabletop.request_id"
VERDICT_KEY = "tabletop.rate_verdict"

STREAM_PATH = re.compile(r"/v1/(?:games|tournaments)/[^/]+/stream/?")
"""Server-Sent Events streams: each open one counts with the websockets against the caps."""
STREAM_RETRY_SECONDS = 5
"""``Retry-After`` of ``too_many_streams``."""

WS_TRY_AGAIN_LATER = 1013
WS_POLICY_VIOLATION = 1008
WS_MESSAGE_TOO_BIG = 1009

Problem = tuple[int, str, Detail]


def problem_body(status: int, code: str, detail: str) -> bytes:
    known(code)
    return json.dumps(
        {
            "type": f"https://tabletop.example/problems/{code}",
            "title": code.replace("_", " "),
            "status": status,
            "code": code,
            "detail": detail,
        }
    ).encode()


_process_prefix = uuid.uuid4().hex[:16]
_request_numbers = itertools.count(1)


def _new_process_prefix() -> None:
    global _process_prefix
    _process_prefix = uuid.uuid4().hex[:16]


os.register_at_fork(after_in_child=_new_process_prefix)


def fresh_request_id() -> str:
    """Unique across processes and instances (a random prefix per process, new in a forked child)
    without a ``uuid4`` per request: a counter (``next`` on ``itertools.count`` is atomic under the
    GIL) after the prefix."""
    return f"{_process_prefix}{next(_request_numbers):016x}"


def request_id_of(headers: dict[bytes, bytes]) -> str:
    """The client's ``X-Request-Id`` if it is a plain short token, else a fresh one: a client
    value never reaches a log or a header unchecked."""
    given = headers.get(REQUEST_ID, b"").decode("latin-1")
    return given if VALID_REQUEST_ID.fullmatch(given) else fresh_request_id()


class RequestGuard:
    def __init__(
        self,
        app: ASGIApp,
        metrics: Metrics,
        settings: Settings,
        limiter: RateLimiter,
        labels: RouteLabels,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.labels = labels
        self.limiter = limiter
        self.rate_limited = settings.rate_limit_enabled
        self.max_body_bytes = settings.max_body_bytes
        self.body_timeout = settings.body_timeout_seconds
        self.trusted: tuple[Network, ...] = parse_networks(settings.trusted_proxies)
        self.max_websockets = settings.max_websockets
        self.max_websockets_per_client = settings.max_websockets_per_client
        self.sockets = SocketCaps(settings, limiter.hub)
        self.stream_send_timeout = settings.stream_send_timeout_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # -- HTTP --------------------------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        headers = dict(scope["headers"])
        request_id = request_id_of(headers)
        state = scope.setdefault("state", {})
        state[REQUEST_ID_KEY] = request_id
        address = self._resolve_client(scope, headers)
        status_holder = [500]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder[0] = message["status"]
                added = [(REQUEST_ID, request_id.encode())]
                verdict: Verdict | None = state.get(VERDICT_KEY)
                if verdict is not None:
                    added.extend(verdict.headers())
                message["headers"] = [*message.get("headers", []), *added]
            await send(message)

        try:
            rejection = self._check_length(headers)
            if rejection is None and self.rate_limited and not scope["path"].startswith(UNLIMITED_PATHS):
                verdict = await self._charge(scope, headers, address)
                state[VERDICT_KEY] = verdict
                if not verdict.allowed:
                    rejection = (429, "rate_limited", self._slow_down(verdict))
            if rejection is None and self._has_body(scope, headers):
                receive, rejection = await self._buffer_body(receive)
            if (
                rejection is None
                and scope["method"] in ("GET", "HEAD")
                and STREAM_PATH.fullmatch(scope["path"])
            ):
                rejection = await self._stream(scope, receive, send_with_headers, address)
                if rejection is None:
                    return
            if rejection is not None:
                status, code, detail = rejection
                lang = scope_language(scope)
                extra = (
                    [(b"retry-after", str(STREAM_RETRY_SECONDS).encode())]
                    if code == "too_many_streams"
                    else []
                )
                await self._send_problem(
                    send_with_headers, status, code, localized(code, detail, lang), lang, extra
                )
            else:
                await self.app(scope, receive, send_with_headers)
        finally:
            self._observe(scope, status_holder[0], time.perf_counter() - started, request_id, address)

    async def _stream(self, scope: Scope, receive: Receive, send: Send, address: str) -> Problem | None:
        """An SSE stream: counted with the websockets against the per-address and per-server caps
        (through the limit hub with several workers) while it is open, or refused; and cut once
        its client has left what was sent untaken for ``stream_send_timeout`` seconds (a full send
        buffer), so a reader that does not read holds nothing of anyone else's for long."""
        broken = await self.sockets.open(address)
        if broken == "total":
            detail = Detail(
                "the server has {limit} live streams and websockets open; retry after {retry_s} s",
                {"limit": self.max_websockets, "retry_s": STREAM_RETRY_SECONDS},
            )
            return 503, "too_many_streams", detail
        if broken == "client":
            detail = Detail(
                "more than {limit} live streams and websockets from this address; close one or retry "
                "after {retry_s} s",
                {"limit": self.max_websockets_per_client, "retry_s": STREAM_RETRY_SECONDS},
            )
            return 429, "too_many_streams", detail
        timeout = self.stream_send_timeout

        async def bounded_send(message: Message) -> None:
            try:
                async with asyncio.timeout(timeout):
                    await send(message)
            except TimeoutError:
                raise SlowReader from None

        try:
            await self.app(scope, receive, bounded_send)
        except SlowReader:
            # The response is left unfinished: the server closes the connection, and an
            # EventSource reconnects with Last-Event-ID.
            log.info("stream closed: its client took nothing for %g s", timeout, extra={"client": address})
        finally:
            await self.sockets.close(address)
        return None

    def _resolve_client(self, scope: Scope, headers: dict[bytes, bytes]) -> str:
        """Replace the peer by the real client when the peer is a trusted proxy."""
        client = scope.get("client")
        peer = client[0] if client else "unknown"
        address = client_address(peer, headers.get(b"x-forwarded-for"), self.trusted)
        if address != peer:
            scope["client"] = (address, 0)
        return address

    async def _charge(self, scope: Scope, headers: dict[bytes, bytes], address: str) -> Verdict:
        try:
            token = parse_bearer(headers.get(b"authorization", b"").decode("latin-1") or None)
        except DomainError:
            token = None
        key = self.limiter.key(token, address)
        scope.setdefault("state", {})[RATE_KEY] = key
        return await self.limiter.hit(key)

    def _slow_down(self, verdict: Verdict) -> Detail:
        return Detail(
            "more than {max_requests} requests in {window_s} s from this token or address; retry "
            "after {retry_s} s",
            {
                "max_requests": verdict.limit,
                "window_s": verdict.window_seconds,
                "retry_s": max(1, verdict.reset_seconds),
            },
        )

    def _check_length(self, headers: dict[bytes, bytes]) -> Problem | None:
        length = headers.get(b"content-length")
        if length is None:
            return None
        try:
            if int(length) > self.max_body_bytes:
                return 413, "payload_too_large", self._too_large()
        except ValueError:
            return 400, "bad_content_length", Detail("the Content-Length header is not a number")
        return None

    @staticmethod
    def _has_body(scope: Scope, headers: dict[bytes, bytes]) -> bool:
        if scope["method"] not in BODYLESS_METHODS:
            return True
        return b"content-length" in headers or b"transfer-encoding" in headers

    async def _buffer_body(self, receive: Receive) -> tuple[Receive, Problem | None]:
        """Read the whole body, within the size limit and the read timeout, before any handler
        runs: a slow or oversized body is refused without tying up a handler or a database
        connection. The handler then reads the buffered messages unchanged."""
        messages: list[Message] = []
        size = 0
        deadline = time.monotonic() + self.body_timeout
        try:
            while True:
                message = await _receive_by(receive, deadline)
                messages.append(message)
                if message["type"] != "http.request":
                    break
                size += len(message.get("body", b""))
                if size > self.max_body_bytes:
                    return receive, (413, "payload_too_large", self._too_large())
                if not message.get("more_body", False):
                    break
        except TimeoutError:
            detail = Detail(
                "the request body was not received within {timeout_s:g} s", {"timeout_s": self.body_timeout}
            )
            return receive, (408, "request_timeout", detail)

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        return replay, None

    def _too_large(self) -> Detail:
        return Detail("the request body exceeds {bytes} bytes", {"bytes": self.max_body_bytes})

    async def _send_problem(
        self,
        send: Send,
        status: int,
        code: str,
        detail: str,
        lang: str,
        extra: list[tuple[bytes, bytes]] | None = None,
    ) -> None:
        body = problem_body(status, code, detail)
        headers = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
            (b"content-language", lang.encode()),
            *(extra or []),
        ]
        if status in (408, 413):
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _observe(self, scope: Scope, status: int, elapsed: float, request_id: str, address: str) -> None:
        template = self.labels.label(scope)
        self.metrics.count_request(template, scope["method"], status, elapsed)
        if log.isEnabledFor(logging.INFO):
            log.info(
                "request",
                extra={
                    "request_id": request_id,
                    "method": scope["method"],
                    "route": template,
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 2),
                    "client": address,
                },
            )

    # -- websockets --------------------------------------------------------------------------------

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Cap open sockets per client address and per instance, and put every message through
        the body-size limit and the rate limit, as HTTP requests are: the connection and its
        messages draw on the client address's budget, and once the token of ``connection_init``
        has authenticated (a seat moving over its socket), each message draws on that token's
        budget, as its HTTP requests do. A refusal closes the socket with a standard close code
        and a reason that says which limit."""
        headers = dict(scope["headers"])
        address = self._resolve_client(scope, headers)
        key = "a:" + address
        if self.rate_limited:
            scope.setdefault("state", {})[RATE_KEY] = key
        refusal = self._socket_cap_refusal(await self.sockets.open(address))
        if refusal is None and self.rate_limited:
            verdict = await self.limiter.hit(key)
            if not verdict.allowed:
                await self.sockets.close(address)
                refusal = WS_TRY_AGAIN_LATER, f"rate limited: {self._slow_down(verdict).english}"
        if refusal is not None:
            await self._refuse_socket(scope, receive, send, *refusal)
            return
        closed = [False]
        bearer: list[str | None] = [None]
        """The token of ``connection_init``: once the service knows it, messages draw on its budget."""

        async def guarded_send(message: Message) -> None:
            if not closed[0]:
                if message["type"] == "websocket.close":
                    closed[0] = True
                await send(message)

        async def guarded_receive() -> Message:
            message = await receive()
            if message["type"] != "websocket.receive" or closed[0]:
                return message
            problem: tuple[int, str] | None = None
            if _message_size(message) > self.max_body_bytes:
                problem = WS_MESSAGE_TOO_BIG, f"message larger than {self.max_body_bytes} bytes"
            elif self.rate_limited:
                if bearer[0] is None:
                    bearer[0] = _connection_token(message)
                charged = self.limiter.key(bearer[0], address) if bearer[0] is not None else key
                scope["state"][RATE_KEY] = charged
                verdict = await self.limiter.hit(charged)
                if not verdict.allowed:
                    problem = WS_POLICY_VIOLATION, f"rate limited: {self._slow_down(verdict).english}"
            if problem is None:
                return message
            code, reason = problem
            closed[0] = True
            await send({"type": "websocket.close", "code": code, "reason": reason})
            return {"type": "websocket.disconnect", "code": code, "reason": reason}

        try:
            await self.app(scope, guarded_receive, guarded_send)
        finally:
            await self.sockets.close(address)

    def _socket_cap_refusal(self, broken: str | None) -> tuple[int, str] | None:
        if broken == "total":
            return WS_TRY_AGAIN_LATER, f"server busy: {self.max_websockets} websockets open"
        if broken == "client":
            limit = self.max_websockets_per_client
            return WS_POLICY_VIOLATION, f"too many websockets from this address (limit {limit})"
        return None

    @staticmethod
    async def _refuse_socket(scope: Scope, receive: Receive, send: Send, code: int, reason: str) -> None:
        """Accept, then close with the reason: refusing the handshake instead would only show the
        client an HTTP 403 with no explanation."""
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        subprotocols = scope.get("subprotocols") or []
        await send({"type": "websocket.accept", "subprotocol": subprotocols[0] if subprotocols else None})
        await send({"type": "websocket.close", "code": code, "reason": reason})


class SlowReader(Exception):
    """A stream's client took nothing of what was sent for the stream send timeout."""


async def _receive_by(receive: Receive, deadline: float) -> Message:
    async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
        return await receive()


def _connection_token(message: Message) -> str | None:
    """The bearer token of a ``connection_init`` message (None for any other message, or a
    malformed one: the GraphQL handler refuses that)."""
    text = message.get("text")
    if not text or '"connection_init"' not in text:
        return None
    try:
        parsed = json.loads(text)
        if parsed.get("type") != "connection_init":
            return None
        return bearer_from_connection_params(parsed.get("payload"))
    except (ValueError, AttributeError, DomainError, RecursionError):
        return None


def _message_size(message: Message) -> int:
    data = message.get("bytes")
    if data is not None:
        return len(data)
    text: str = message.get("text") or ""
    return len(text.encode("utf-8", "surrogatepass"))
