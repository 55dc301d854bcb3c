"""Rate limits through the ``limits`` library: in memory for one instance, in Redis when
``TABLETOP_REDIS_URL`` is set so every instance draws on the same budget.

The budget is ``burst`` requests in a sliding window of ``burst / rate`` seconds: on average
``rate`` per second, with bursts up to ``burst``. The window is a sliding-window counter (this
window's count plus the previous window's, weighted by how much of it still overlaps), so no
window edge lets through twice the budget, and a request costs two counter operations whatever the
budget: the exact moving window kept one timestamp per request and scanned them on every request,
which cost 16% of the submit throughput with a budget of 2,000 (bench/README.md). A
request is charged to its bearer token only once that token has been seen to authenticate (the
service reports every token it recognises); any other request, invented tokens included, is
charged to the client address.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections import OrderedDict
from dataclasses import dataclass

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from api.settings import Settings
from domain.tokens import hash_token

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
        self.storage: Storage
        if settings.redis_url is not None:
            url = settings.redis_url.get_secret_value()
            self.storage = RedisStorage(f"async+{url}", implementation="redispy")
        else:
            self.storage = MemoryStorage()
        self.strategy = SlidingWindowCounterRateLimiter(self.storage)

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
            allowed = await self.strategy.hit(self.item, self.prefix, key, cost=cost)
            stats = await self.strategy.get_window_stats(self.item, self.prefix, key)
        except Exception as exc:
            log.warning("rate limiter unavailable; request let through", extra={"error": repr(exc)})
            return Verdict(True, self.item.amount, self.item.amount, self.window, self.window)
        reset = max(0, math.ceil(stats.reset_time - time.time()))
        return Verdict(allowed, self.item.amount, stats.remaining, reset, self.window)
