"""Which instance owns a game: a lease in Redis, ``tabletop:owner:<game id>`` → the owner's
address (``TABLETOP_INSTANCE_URL``), expiring after ``TABLETOP_OWNER_LEASE_SECONDS``.

An instance asks ``OwnerLeases.owner`` before it serves a write to a game: the answer is None when
the game is this instance's (it held the lease, or nobody did and it took it, one Lua script, one
round trip), else the address of the instance that holds it. While alive, an owner renews the
leases of the games it served lately (every third of a lease, one script for all of them); a game
left alone for ``IDLE_SECONDS`` is no longer renewed and its lease runs out. An owner that dies
renews nothing: its leases run out within one lease length and the next write to such a game,
wherever it arrives, makes that instance the owner; it loads the game from the database. An
instance that stops cleanly gives its leases back at once.

The lease only says where a game is best served: correctness never rests on it. The version guard
of ``SqlGameRepository.save`` stays the arbiter, so two instances that both believe they own a
game for a moment (a lease that ran out under a slow owner, a Redis outage) can never both write.
So Redis being away never stops play: ``owner`` then answers None (serve here) and the lease is
asked again later.

Answers are cached per process: a lease this process holds is believed until its expiry (renewals
push it on), another instance's until the time Redis said it expires; ``forget`` drops the latter
when that instance cannot be reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("tabletop.owners")

KEY_PREFIX = "tabletop:owner:"
IDLE_SECONDS = 60.0
"""A game with no write for this long is no longer renewed by its owner (its lease runs out)."""

CLAIM = """
local held = redis.call('GET', KEYS[1])
if (not held) or held == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {ARGV[1], tonumber(ARGV[2])}
end
return {held, redis.call('PTTL', KEYS[1])}
"""
"""The holder of a game's lease and its milliseconds left, taking (or renewing) it for ARGV[1]
when nobody else holds it."""
RENEW = """
local renewed = {}
for index, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    renewed[index] = 1
  else
    renewed[index] = 0
  end
end
return renewed
"""
"""Push on every lease of KEYS that ARGV[1] still holds: 1 for each renewed, 0 for each lost."""
RELEASE = """
local released = 0
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    released = released + redis.call('DEL', key)
  end
end
return released
"""


class OwnerLeases:
    """This process's view of the game-ownership directory in Redis (see the module's text)."""

    def __init__(
        self,
        url: str,
        me: str,
        lease_seconds: float,
        *,
        key_prefix: str = KEY_PREFIX,
        idle_seconds: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url, self.me, self.lease = url, me, lease_seconds
        self.key_prefix, self.idle, self.clock = key_prefix, idle_seconds, clock
        self._lease_ms = str(max(1, round(lease_seconds * 1000)))
        self._held: dict[str, float] = {}
        """game → until when this process believes its instance holds the lease"""
        self._used: dict[str, float] = {}
        """game held here → its last write"""
        self._elsewhere: dict[str, tuple[str, float]] = {}
        """game → (the holder's address, until when)"""
        self._client: aioredis.Redis | None = None
        self._renewing: asyncio.Task[None] | None = None

    def key(self, game_id: str) -> str:
        return f"{self.key_prefix}{game_id}"

    async def start(self) -> None:
        self._client = aioredis.Redis.from_url(
            self.url, socket_timeout=1.0, socket_connect_timeout=1.0, client_name="tabletop-owners"
        )
        self._claim = self._client.register_script(CLAIM)
        self._renew = self._client.register_script(RENEW)
        self._release = self._client.register_script(RELEASE)
        self._renewing = asyncio.create_task(self._renew_forever(), name="tabletop-owner-leases")

    async def stop(self) -> None:
        """Stop renewing and give back every lease held here, so another instance takes those
        games at their next write instead of after a lease length."""
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
            self._renewing = None
        if self._client is None:
            return
        held = list(self._held)
        self._held.clear()
        self._used.clear()
        if held:
            try:
                await self._release(keys=[self.key(game) for game in held], args=[self.me])
            except RedisError as error:
                log.warning("giving back %d game leases failed (they run out): %s", len(held), error)
        await self._client.aclose()
        self._client = None

    def holds(self, game_id: str) -> bool:
        """Whether this process believes its instance holds the game's lease now."""
        return self._held.get(game_id, 0.0) > self.clock()

    async def owner(self, game_id: str) -> str | None:
        """The address of the instance that owns ``game_id``; None when it is this one (taking
        the lease if no live owner held it) or when the directory cannot be asked."""
        now = self.clock()
        if self._held.get(game_id, 0.0) > now:
            self._used[game_id] = now
            return None
        seen = self._elsewhere.get(game_id)
        if seen is not None and seen[1] > now:
            return seen[0]
        if self._client is None:
            return None
        try:
            holder, left_ms = await self._claim(keys=[self.key(game_id)], args=[self.me, self._lease_ms])
        except RedisError as error:
            log.warning("the owner directory did not answer; serving game %s here: %s", game_id, error)
            return None
        address = holder.decode() if isinstance(holder, bytes) else str(holder)
        left = int(left_ms) / 1000 if int(left_ms) > 0 else self.lease
        if address == self.me:
            self._elsewhere.pop(game_id, None)
            self._held[game_id] = now + left
            self._used[game_id] = now
            return None
        self._held.pop(game_id, None)
        self._used.pop(game_id, None)
        self._elsewhere[game_id] = (address, now + min(left, self.lease))
        return address

    def forget(self, game_id: str) -> None:
        """Ask the directory again at the game's next write (its holder could not be reached)."""
        self._elsewhere.pop(game_id, None)

    async def renew(self) -> None:
        """One renewal: push on the leases of the games written here lately, drop the others."""
        now = self.clock()
        for game, used in list(self._used.items()):
            if now - used > self.idle:
                self._held.pop(game, None)
                self._used.pop(game, None)
        for game, (_, until) in list(self._elsewhere.items()):
            if until <= now:
                del self._elsewhere[game]
        games = list(self._held)
        if not games or self._client is None:
            return
        renewed = await self._renew(keys=[self.key(game) for game in games], args=[self.me, self._lease_ms])
        for game, kept in zip(games, renewed, strict=True):
            if kept:
                self._held[game] = now + self.lease
            else:  # another instance took it (this one was too slow to renew)
                self._held.pop(game, None)
                self._used.pop(game, None)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.renew()
            except RedisError as error:  # the leases run out here as in Redis; play goes on
                log.warning("renewing game leases failed; retrying at the next beat: %s", error)
