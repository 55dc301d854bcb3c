"""Rate limits through the ``limits`` library: in memory for one process, in the supervisor's ``LimitHub``
for the worker processes of ``serve --workers N`` (``persistence.limits.hub``), in Redis when
``TABLETOP_REDIS_URL`` is set so every instance draws on the same budget
(``persistence.limits.redis_windows``: one round trip per request). Open websockets are capped per
server the same way: here for one process, by the hub for several workers.

The budget is ``burst`` requests in a sliding window of ``burst / rate`` seconds: on average ``rate``
per second, with bursts up to ``burst``. The window is a sliding-window counter (this window's count
plus the previous window's, weighted by how much of it still overlaps), so no window edge lets through
twice the budget, and a request costs two counter operations whatever the budget: the exact moving
window kept one timestamp per request and scanned them on every request, which cost 16% of the submit
throughput with a budget of 2,000 (bench/README.md). A request is charged to its bearer token only once
that token has been seen to authenticate (the service reports every token it recognises); any other
request, invented tokens included, is charged to the client address."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from api.settings import Settings
from domain.model.tokens import hash_token
from persistence.limits.hub import HubClient
from persistence.limits.redis_windows import RedisWindows

log = logging.getLogger("tabletop.ratelimit")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of charging one request, with what the RateLimit headers report."""

    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int
    window_seconds: int

    def headers(self) -> list[tuple[bytes, bytes]]:
        """``RateLimit-Limit/Remaining/Reset`` (draft-polli-ratelimit-headers), the policy, and
        ``Retry-After`` on a refusal."""
        fields = [
            (b"ratelimit-limit", str(self.limit).encode()),
            (b"ratelimit-remaining", str(self.remaining).encode()),
            (b"ratelimit-reset", str(self.reset_seconds).encode()),
            (b"ratelimit-policy", f"{self.limit};w={self.window_seconds}".encode()),
        ]
        if not self.allowed:
            fields.append((b"retry-after", str(max(1, self.reset_seconds)).encode()))
        return fields


class KnownTokens:
    """Hashes of tokens that authenticated on this instance (bounded, least recently used out)."""

    def __init__(self, capacity: int = 100_000) -> None:
        self.capacity = capacity
        self._hashes: OrderedDict[str, None] = OrderedDict()

    def add(self, token_hash: str) -> None:
        self._hashes[token_hash] = None
        self._hashes.move_to_end(token_hash)
        if len(self._hashes) > self.capacity:
            self._hashes.popitem(last=False)

    def __contains__(self, token_hash: object) -> bool:
        return token_hash in self._hashes


def parse_networks(text: str) -> tuple[Network, ...]:
    """``"10.0.0.2, 172.28.0.0/24"`` → networks; a bad entry fails at start-up, not per request."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip())


def _is_trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(peer: str, forwarded_for: bytes | None, trusted: tuple[Network, ...]) -> str:
    """The client's address: the peer, unless the peer is a trusted proxy; then the nearest
    address in ``X-Forwarded-For`` (read from the right) that is not itself a trusted proxy.
    Entries a client wrote on the left are never reached while an untrusted hop is to their right."""
    if not trusted or forwarded_for is None or not _is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in forwarded_for.decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop[:64]
    return hops[0][:64] if hops else peer


class RateLimiter:
    def __init__(self, settings: Settings) -> None:
        window = max(1, round(settings.rate_limit_burst / settings.rate_limit_per_second))
        self.item = RateLimitItemPerSecond(settings.rate_limit_burst, window)
        self.window = window
        self.prefix = settings.rate_limit_prefix
        self.known_tokens = KnownTokens()
        self.hub = HubClient(settings.limit_hub) if settings.limit_hub else None
        self.redis = (
            RedisWindows(settings.redis_url.get_secret_value(), self.prefix)
            if settings.redis_url is not None
            else None
        )
        self.strategy = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.shared_by_hub = self.hub is not None and settings.redis_url is None

    def token_authenticated(self, token_hash: str) -> None:
        """Told by the service of every token it recognised: later requests are charged to it."""
        self.known_tokens.add(token_hash)

    def key(self, token: str | None, address: str) -> str:
        """The budget a request draws on: its token once known, else its client address."""
        if token is not None:
            token_hash = hash_token(token)
            if token_hash in self.known_tokens:
                return "t:" + token_hash
        return "a:" + address

    async def hit(self, key: str, cost: int = 1) -> Verdict:
        """Charge ``cost`` requests to ``key``. If the store fails (Redis down), let the request
        through and log it: an outage of the limiter must not become an outage of the service."""
        try:
            if self.shared_by_hub:
                assert self.hub is not None
                answer = await self.hub.ask(
                    {"op": "hit", "key": key, "cost": cost, "amount": self.item.amount, "window": self.window}
                )
                allowed, remaining, reset_time = answer["allowed"], answer["remaining"], answer["reset_time"]
            elif self.redis is not None:
                allowed, remaining, reset_in = await self.redis.charge(
                    key, cost, self.item.amount, self.window
                )
                reset_time = time.time() + reset_in
            else:
                allowed = await self.strategy.hit(self.item, self.prefix, key, cost=cost)
                stats = await self.strategy.get_window_stats(self.item, self.prefix, key)
                remaining, reset_time = stats.remaining, stats.reset_time
        except Exception as exc:
            log.warning("rate limiter unavailable; request let through", extra={"error": repr(exc)})
            return Verdict(True, self.item.amount, self.item.amount, self.window, self.window)
        reset = max(0, math.ceil(reset_time - time.time()))
        return Verdict(bool(allowed), self.item.amount, int(remaining), reset, self.window)


class SocketCaps:
    """Open websockets per client address and in all, for the whole server: counted here for one
    process, by the supervisor's hub for its workers (a hub that fails lets sockets through)."""

    def __init__(self, settings: Settings, hub: HubClient | None) -> None:
        self.per_client = settings.max_websockets_per_client
        self.total = settings.max_websockets
        self.hub = hub
        self.open_sockets: Counter[str] = Counter()

    async def open(self, address: str) -> str | None:
        """Count one more socket from ``address``; or the cap it would break: ``"total"`` or
        ``"client"`` (then nothing is counted)."""
        if self.hub is not None:
            request = {"op": "open", "address": address, "per_client": self.per_client, "total": self.total}
            try:
                refused: str | None = (await self.hub.ask(request))["refused"]
            except Exception as exc:
                log.warning("limit hub unavailable; websocket let through", extra={"error": repr(exc)})
                return None
            return refused
        if self.open_sockets.total() >= self.total:
            return "total"
        if self.open_sockets[address] >= self.per_client:
            return "client"
        self.open_sockets[address] += 1
        return None

    async def close(self, address: str) -> None:
        if self.hub is not None:
            with contextlib.suppress(Exception):  # a lost hub already freed this worker's sockets
                await self.hub.ask({"op": "close", "address": address})
            return
        self.open_sockets[address] -= 1
        if self.open_sockets[address] <= 0:
            del self.open_sockets[address]
