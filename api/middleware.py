"""One pure-ASGI middleware for every request: request id, JSON access log, metrics, body-size
and rate limits. Pure ASGI (not BaseHTTPMiddleware) keeps the per-request cost small."""

from __future__ import annotations

import hashlib
import json
import logging
import time
import uuid
from collections import OrderedDict
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.metrics import Metrics

log = logging.getLogger("tabletop.access")
REQUEST_ID = b"x-request-id"


class TokenBuckets:
    """Requests per token (or per client address without a token) per second, with a burst."""

    def __init__(self, rate: float, burst: int, max_keys: int = 10_000) -> None:
        self.rate, self.burst, self.max_keys = rate, float(burst), max_keys
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float) -> bool:
        tokens, stamp = self.buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        allowed = tokens >= 1.0
        self.buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        if len(self.buckets) > self.max_keys:
            self.buckets.popitem(last=False)
        return allowed


def _problem_body(status: int, code: str, detail: str) -> bytes:
    return json.dumps(
        {
            "type": f"https://tabletop.example/problems/{code}",
            "title": code.replace("_", " "),
            "status": status,
            "code": code,
            "detail": detail,
        }
    ).encode()


class RequestGuard:
    def __init__(
        self,
        app: ASGIApp,
        metrics: Metrics,
        max_body_bytes: int,
        rate: float,
        burst: int,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body_bytes = max_body_bytes
        self.limiter = TokenBuckets(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        headers = dict(scope["headers"])
        request_id = headers.get(REQUEST_ID, b"").decode("latin-1")[:64] or uuid.uuid4().hex
        status_holder = [500]

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder[0] = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (REQUEST_ID, request_id.encode())]
            await send(message)

        try:
            rejection = self._reject(scope, headers)
            if rejection is None and b"content-length" not in headers and scope["method"] != "GET":
                receive, rejection = await self._buffer_unsized_body(receive)
            if rejection is not None:
                await self._send_problem(send_with_id, *rejection)
            else:
                await self.app(scope, receive, send_with_id)
        finally:
            self._observe(scope, status_holder[0], time.perf_counter() - started, request_id)

    async def _buffer_unsized_body(self, receive: Receive) -> tuple[Receive, tuple[int, str, str] | None]:
        """Read a body sent without Content-Length up to the limit, then hand it on unchanged."""
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_body_bytes:
                return receive, (413, "payload_too_large", self._too_large())
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        return replay, None

    def _too_large(self) -> str:
        return f"the request body exceeds {self.max_body_bytes} bytes"

    def _reject(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
        length = headers.get(b"content-length")
        if length is not None:
            try:
                if int(length) > self.max_body_bytes:
                    return 413, "payload_too_large", self._too_large()
            except ValueError:
                return 400, "bad_content_length", "the Content-Length header is not a number"
        if scope["path"].startswith(("/healthz", "/readyz", "/metrics")):
            return None
        authorization = headers.get(b"authorization")
        if authorization:
            key = "t:" + hashlib.sha256(authorization).hexdigest()
        else:
            client = scope.get("client")
            key = "a:" + (client[0] if client else "?")
        if not self.limiter.allow(key, time.monotonic()):
            return 429, "rate_limited", "too many requests for this token; slow down and retry"
        return None

    async def _send_problem(self, send: Send, status: int, code: str, detail: str) -> None:
        body = _problem_body(status, code, detail)
        headers = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if status == 429:
            headers.append((b"retry-after", b"1"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _observe(self, scope: Scope, status: int, elapsed: float, request_id: str) -> None:
        route: Any = scope.get("route")
        template = getattr(route, "path", None) or "unmatched"
        self.metrics.requests.labels(template, scope["method"], str(status)).inc()
        self.metrics.latency.labels(template).observe(elapsed)
        if log.isEnabledFor(logging.INFO):
            log.info(
                "request",
                extra={
                    "request_id": request_id,
                    "method": scope["method"],
                    "route": template,
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 2),
                },
            )
