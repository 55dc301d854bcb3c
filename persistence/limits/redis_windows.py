"""The sliding-window counter on Redis in one round trip per request.

Through ``limits`` a request cost two scripts, so two round trips on the event loop: one to charge
(``acquire_sliding_window_entry``) and one to read what the headers report (``get_sliding_window``);
with PostgreSQL + Redis they were 5 % of the server's samples, and their socket writes most of the
9 % of Redis writes on the loop (bench/README.md). This script charges and answers the window in
one call, atomically, with the same counter: this window's count plus the previous window's
weighted by how much of it still overlaps; a window's count expires after two windows, and when
the current window ends its count becomes the previous one.
"""

from __future__ import annotations

import math
from typing import Any

import redis.asyncio as aioredis

# KEYS: the current window's count, the previous window's. ARGV: the budget, the window in
# milliseconds, the cost. Answers: allowed (0/1), previous count, its ms to expiry, current count,
# its ms to expiry, as they are after the charge.
_CHARGE = """
local budget = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local current_ttl = redis.call('pttl', KEYS[1])
if current_ttl > 0 and current_ttl < window then
    redis.call('rename', KEYS[1], KEYS[2])
    redis.call('set', KEYS[1], 0, 'PX', current_ttl + window)
end
local function counted(key)
    local count = tonumber(redis.call('get', key)) or 0
    local ttl = redis.call('pttl', key)
    if ttl < 0 then ttl = 0 end
    return count, ttl
end
local previous, previous_ttl = counted(KEYS[2])
local current, ttl = counted(KEYS[1])
local allowed = 0
if cost <= budget and math.floor(previous * previous_ttl / window) + current + cost <= budget then
    allowed = 1
    if redis.call('exists', KEYS[1]) == 1 then
        redis.call('incrby', KEYS[1], cost)
    else
        redis.call('set', KEYS[1], cost, 'PX', 2 * window)
    end
    current, ttl = counted(KEYS[1])
end
return {allowed, previous, previous_ttl, current, ttl}
"""


class RedisWindows:
    """Budgets shared by every instance on one Redis."""

    def __init__(self, url: str, prefix: str) -> None:
        self._client = aioredis.Redis.from_url(url)
        self._script: Any = self._client.register_script(_CHARGE)
        self._prefix = prefix

    async def charge(self, key: str, cost: int, budget: int, window: int) -> tuple[bool, int, float]:
        """Charge ``cost`` to ``key`` if its budget allows: (allowed, remaining, seconds until the
        count next drops)."""
        current = f"{{tabletop-limit:{self._prefix}:{key}:{budget}:{window}}}"  # one cluster slot
        allowed, previous, previous_ms, count, count_ms = await self._script(
            keys=[current, current + ":previous"], args=[budget, window * 1000, cost]
        )
        previous_left, current_left = previous_ms / 1000, count_ms / 1000
        weighted = previous * previous_left / window + count
        remaining = max(0, budget - math.floor(weighted))
        if not (previous or count):
            return bool(allowed), remaining, 0.0
        # The next moment the weighted count drops by one: a previous request's weight running
        # out, or the current window ending.
        next_drop = math.inf
        if previous:
            next_drop = previous_left % (window / previous)
        if count:
            next_drop = min(next_drop, current_left % window)
        return bool(allowed), remaining, next_drop

    async def aclose(self) -> None:
        await self._client.aclose()
