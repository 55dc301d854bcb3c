"""The game-ownership directory on a real Redis (``persistence.owner_leases``): the first asker
takes a free lease, others are told the holder, the holder renews it, a lease not renewed runs
out and the next asker takes it, a clean stop gives leases back, and a Redis that does not answer
never stops play (the asker serves the game itself)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid

import pytest

from persistence.owner_leases import OwnerLeases
from tests.support.databases import reachable_redis

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]

LEASE = 0.6


def leases(me: str, url: str | None = None) -> OwnerLeases:
    return OwnerLeases(url or reachable_redis(), me, LEASE, key_prefix=f"test:owner:{uuid.uuid4().hex}:")


def test_the_first_asker_owns_the_game_and_the_others_are_told_where() -> None:
    async def scenario() -> None:
        a, b = leases("http://a"), leases("http://b")
        b.key_prefix = a.key_prefix
        await a.start()
        await b.start()
        try:
            assert await a.owner("g1") is None
            assert a.holds("g1")
            assert await b.owner("g1") == "http://a"
            assert not b.holds("g1")
            assert await b.owner("g2") is None, "another game is free: the asker takes it"
            assert await a.owner("g2") == "http://b"
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(scenario())


def test_a_lease_is_renewed_while_its_owner_lives_and_taken_over_once_it_stops_renewing() -> None:
    async def scenario() -> None:
        a, b = leases("http://a"), leases("http://b")
        b.key_prefix = a.key_prefix
        await a.start()
        await b.start()
        try:
            assert await a.owner("g") is None
            await asyncio.sleep(3 * LEASE)  # renewed every third of a lease meanwhile
            assert await b.owner("g") == "http://a", "the owner kept its lease past its length"
            assert a._renewing is not None
            a._renewing.cancel()  # the owner stops renewing, as a dead one would
            with contextlib.suppress(asyncio.CancelledError):
                await a._renewing  # ended: no renewal of its own (nor a client's retry of one) follows
            # Asked until the lease has run out: a renewal sent just before may be run late by a
            # busy Redis, or retried by the client after a slow answer (its expiry counts from
            # then); a fixed wait of 1.5 and then 3 lease lengths each failed once at CI's load.
            # A lease that never runs out still fails, after 20 lease lengths.
            loop = asyncio.get_running_loop()
            until = loop.time() + 20 * LEASE
            while await b.owner("g") is not None:
                assert loop.time() < until, "the lease ran out: the next asker owns the game"
                await asyncio.sleep(LEASE / 3)
            await a.renew()
            assert not a.holds("g"), "the old owner learns it lost the game at its next renewal"
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(scenario())


def test_a_clean_stop_gives_the_leases_back_at_once() -> None:
    async def scenario() -> None:
        a, b = leases("http://a"), leases("http://b")
        b.key_prefix = a.key_prefix
        await a.start()
        await b.start()
        try:
            assert await a.owner("g") is None
            await a.stop()
            b.forget("g")
            assert await b.owner("g") is None, "given back: taken without waiting for the lease"
        finally:
            await b.stop()

    asyncio.run(scenario())


def test_an_unreachable_directory_means_serving_here() -> None:
    async def scenario() -> None:
        lost = leases("http://a", "redis://127.0.0.1:1/0")
        await lost.start()
        try:
            assert await lost.owner("g") is None
            await lost.renew()  # nothing held: nothing to renew, no error
        finally:
            await lost.stop()

    asyncio.run(scenario())
