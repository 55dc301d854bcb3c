"""Sends the webhook outbox: signed (Standard Webhooks), bounded, SSRF-safe, at least once.

Each instance runs one sender thread with an event loop that sends up to ``concurrency``
deliveries at once, at most ``per_endpoint`` of them to one endpoint, so an endpoint that answers
slowly holds a few slots, never the others' deliveries. It leases each due delivery from the
database (``WebhookRepository.claim``: a ``FOR UPDATE SKIP LOCKED`` row lock while the lease is
written), sends it outside any transaction, then records the attempt under that lease. A whole
attempt (target check, connect, send, status line and body) is cut at a wall-clock deadline
(``webhook_timeout_seconds``; per-read timeouts let an endpoint that drips a byte a second hold a
request for ever) that ends before the lease does, so no other sender takes a delivery while an
attempt of it can still be in flight: one ``webhook-id`` is never sent twice at once, and an
endpoint gets a game's deliveries in order. A crash between sending and recording means the lease
runs out and the delivery is sent again with the same ``webhook-id``: receivers de-duplicate by it.

Targets are checked when an endpoint is registered and again before every request (a name may
resolve elsewhere later): loopback, private, link-local (cloud metadata), shared, multicast,
reserved and unspecified addresses are refused unless ``webhook_allow_private_targets``. The request
then goes to the very address that was checked (the URL's host is replaced by it; ``Host`` and, for
https, the TLS server name and certificate check keep the name), so a name that answers a public
address to the check and a private one a moment later (DNS rebinding) cannot steer it inside.
Redirects are not followed, and the time and the response size are bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import random
import socket
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from urllib.parse import urlsplit

import httpx
from standardwebhooks.webhooks import Webhook

from domain.errors import WebhookTargetRefused
from domain.model.webhooks import Attempt, ClaimedDelivery
from domain.ports.unit_of_work import UnitOfWorkFactory
from domain.services.webhooks import RetryPolicy
from persistence.outbound.leasing import RECORD_MARGIN_SECONDS, lease_for, now

log = logging.getLogger("tabletop.webhooks")

Resolver = Callable[[str, int], list[str]]
MAX_URL_LENGTH = 2048


def resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


TRANSLATED = tuple(
    ipaddress.IPv6Network(prefix)
    for prefix in ("::/96", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "2002::/16")
)
"""IPv6 forms that carry an IPv4 address to a translator or a tunnel: IPv4-compatible (``::a.b.c.d``),
IPv4-mapped, NAT64 (well-known and local-use prefixes) and 6to4. Python calls most of them global,
yet a packet to one can end at the IPv4 address inside (loopback, private, metadata), so they are
refused whatever they embed."""


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries, if any: in its last 32 bits (compatible, mapped,
    NAT64 /96), after the 6to4 prefix, in an ISATAP interface identifier, or in a NAT64 /48 (RFC
    6052: split around the reserved octet)."""
    value = int(ip)
    if any(ip in network for network in TRANSLATED[:3]) or (value >> 32) & 0xFDFFFFFF == 0x5EFE:
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if ip in TRANSLATED[4]:
        return ipaddress.IPv4Address((value >> 80) & 0xFFFFFFFF)
    if ip in TRANSLATED[3]:
        return ipaddress.IPv4Address((((value >> 64) & 0xFFFF) << 16) | ((value >> 40) & 0xFFFF))
    return None


def _refused_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not ip.is_global or ip.is_multicast


def _forbidden_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = embedded_ipv4(ip)
        if any(ip in network for network in TRANSLATED) or (inner is not None and _refused_ip(inner)):
            return True
    return _refused_ip(ip)


class TargetGuard:
    """Refuses URLs the server must not call; ``allow_private`` lifts the address check."""

    def __init__(self, allow_private: bool, resolver: Resolver = resolve) -> None:
        self.allow_private = allow_private
        self.resolver = resolver

    def __call__(self, url: str) -> None:
        self.checked_address(url)

    def checked_address(self, url: str) -> str | None:
        """Check ``url``; the address to connect to (None when private targets are allowed: then
        the HTTP client resolves the name itself)."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise WebhookTargetRefused("a webhook URL must be an absolute http:// or https:// URL")
        if parts.username or parts.password:
            raise WebhookTargetRefused("a webhook URL must not carry credentials")
        if len(url) > MAX_URL_LENGTH:
            raise WebhookTargetRefused(
                "a webhook URL is at most {max_characters} characters", max_characters=MAX_URL_LENGTH
            )
        if self.allow_private:
            return None
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            raise WebhookTargetRefused("the webhook URL has an invalid port") from None
        try:
            addresses = self.resolver(parts.hostname, port)
        except OSError:
            raise WebhookTargetRefused("the host {host!j} does not resolve", host=parts.hostname) from None
        refused = [a for a in addresses if _forbidden_address(a)]
        if refused or not addresses:
            raise WebhookTargetRefused(
                "the host {host!j} resolves to a non-public address; webhooks only go to public addresses",
                host=parts.hostname,
            )
        return addresses[0]


def pinned(url: str, address: str | None) -> tuple[str, dict[str, str], dict[str, str]]:
    """The URL with its host replaced by the checked ``address``, the ``Host`` header that names the
    original host, and the httpx extensions that keep TLS on the original name."""
    if address is None:
        return url, {}, {}
    parts = urlsplit(url)
    assert parts.hostname is not None
    literal = f"[{address}]" if ":" in address else address
    netloc = literal if parts.port is None else f"{literal}:{parts.port}"
    host = parts.netloc.rpartition("@")[2]
    extensions = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
    return parts._replace(netloc=netloc).geturl(), {"host": host}, extensions


class WebhookSender:
    """Sends due deliveries, ``concurrency`` at a time and at most ``per_endpoint`` of them to one
    endpoint, each attempt (check, connect, send, status, body) cut at ``timeout_seconds`` of wall
    clock; the lease of a delivery outlasts any attempt of it by ``RECORD_MARGIN_SECONDS``."""

    def __init__(
        self,
        uow: UnitOfWorkFactory,
        guard: Callable[[str], str | None],
        policy: RetryPolicy,
        timeout_seconds: float,
        max_response_bytes: int,
        poll_seconds: float,
        concurrency: int = 8,
        per_endpoint: int = 2,
    ) -> None:
        self.uow = uow
        self.guard = guard
        self.policy = policy
        self.timeout_seconds = timeout_seconds
        self.max_response_bytes = max_response_bytes
        self.poll_seconds = poll_seconds
        self.concurrency = concurrency
        self.per_endpoint = per_endpoint
        self.lease = lease_for(timeout_seconds)
        self.owner = uuid.uuid4().hex
        self._rng = random.Random()
        self._stop = threading.Event()
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._sending: dict[str, int] = {}

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            follow_redirects=False,
            timeout=httpx.Timeout(self.timeout_seconds),
            trust_env=False,
            headers={"user-agent": "tabletop-webhooks/1"},
            limits=httpx.Limits(max_connections=self.concurrency),
        )

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._run()), name="webhook-sender", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        """Stop claiming; attempts in flight finish (each within its deadline), then the thread ends."""
        if self._thread is not None:
            self._stop.set()
            loop, wake = self._loop, self._wake
            if loop is not None and wake is not None:
                with contextlib.suppress(RuntimeError):  # the loop already ended
                    loop.call_soon_threadsafe(wake.set)
            self._thread.join(timeout)
            self._thread = None

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        in_flight: set[asyncio.Task[None]] = set()
        async with self.client() as client:
            while not self._stop.is_set():
                self._wake.clear()
                try:
                    while len(in_flight) < self.concurrency and not self._stop.is_set():
                        started = time.monotonic()
                        full = frozenset(e for e, n in self._sending.items() if n >= self.per_endpoint)
                        claimed = await asyncio.to_thread(self._claim, full)
                        if claimed is None:
                            break
                        self._sending[claimed.endpoint_id] = self._sending.get(claimed.endpoint_id, 0) + 1
                        task = asyncio.create_task(self._deliver(client, claimed, started))
                        in_flight.add(task)
                        task.add_done_callback(in_flight.discard)
                        task.add_done_callback(lambda _: self._wake.set() if self._wake else None)
                except Exception:
                    log.exception("webhook sender failed to claim; retrying at the next poll")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
            if in_flight:
                await asyncio.wait(in_flight)

    def _claim(self, full: frozenset[str]) -> ClaimedDelivery | None:
        """Lease a due delivery to an endpoint not in ``full`` (at its cap of attempts in flight)."""
        with self.uow() as uow:
            claimed = uow.webhooks.claim(now(), self.lease, self.owner, full)
            uow.commit()
        return claimed

    async def _deliver(self, client: httpx.AsyncClient, claimed: ClaimedDelivery, claimed_at: float) -> None:
        """Attempt and record one leased delivery; the attempt ends while the lease still holds."""
        try:
            budget = claimed_at + self.lease.total_seconds() - RECORD_MARGIN_SECONDS - time.monotonic()
            if budget <= 0:
                return  # the claim itself took the lease: another sender takes it once it runs out
            attempt = await self.attempt(client, claimed, min(self.timeout_seconds, budget))
            delivered = attempt.error is None and attempt.status_code is not None
            delivered = delivered and 200 <= (attempt.status_code or 0) < 300
            next_at = None
            if not delivered:
                next_at = self.policy.next_attempt(claimed.attempts + 1, claimed.created_at, now(), self._rng)
            await asyncio.to_thread(self._record, claimed, attempt, delivered, next_at)
        except Exception:
            log.exception("webhook delivery %s failed; its lease runs out and it is sent again", claimed.id)
        finally:
            left = self._sending.get(claimed.endpoint_id, 1) - 1
            if left:
                self._sending[claimed.endpoint_id] = left
            else:
                self._sending.pop(claimed.endpoint_id, None)

    def _record(
        self, claimed: ClaimedDelivery, attempt: Attempt, delivered: bool, next_at: datetime | None
    ) -> None:
        with self.uow() as uow:
            if uow.webhooks.record_attempt(claimed.id, self.owner, attempt, delivered, next_at):
                uow.commit()

    async def attempt(
        self, client: httpx.AsyncClient, claimed: ClaimedDelivery, deadline: float | None = None
    ) -> Attempt:
        """One request, cut at ``deadline`` seconds of wall clock whatever the endpoint does (a
        status line and then a byte a second included): the cut attempt is a failure."""
        seconds = self.timeout_seconds if deadline is None else deadline
        started = time.monotonic()
        at = now()
        status: int | None = None
        error: str | None = None
        try:
            async with asyncio.timeout(seconds):
                address = await asyncio.to_thread(self.guard, claimed.url)
                url, host, extensions = pinned(claimed.url, address)
                timestamp = datetime.now(UTC)
                signature = Webhook(claimed.secret).sign(claimed.message_id, timestamp, claimed.body)
                headers = {
                    "content-type": "application/json",
                    "webhook-id": claimed.message_id,
                    "webhook-timestamp": str(int(timestamp.timestamp())),
                    "webhook-signature": signature,
                    **host,
                }
                async with client.stream(
                    "POST", url, content=claimed.body.encode(), headers=headers, extensions=extensions
                ) as response:
                    status = response.status_code
                    read = 0
                    async for chunk in response.aiter_raw():
                        read += len(chunk)
                        if read >= self.max_response_bytes:
                            break  # the body is never needed: stop reading a large one
            if 300 <= status < 400:
                error = "redirects are not followed"
        except TimeoutError:
            error = f"timed out: no complete answer within {seconds:g} s (cut)"
        except WebhookTargetRefused as refused:
            error = refused.message
        except httpx.TimeoutException:
            error = f"timed out: no complete answer within {seconds:g} s"
        except httpx.HTTPError as failed:
            error = f"{type(failed).__name__}: {failed}"[:255]
        return Attempt(at, status, error, round((time.monotonic() - started) * 1000, 1))
