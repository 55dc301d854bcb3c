"""The rate limit's sliding-window counter on a real Redis (``persistence.limits.redis_windows``): one script
charges and reports, and an ended window's count still weighs on the next one."""

from __future__ import annotations

import secrets

import pytest
import redis

from persistence.limits.redis_windows import RedisWindows

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

WINDOW = 60  # seconds: no test here can outlast it


def _windows(redis_url: str) -> RedisWindows:
    return RedisWindows(redis_url, f"test-{secrets.token_hex(6)}")


async def test_a_budget_is_spent_request_by_request_then_refused(redis_url: str) -> None:
    windows = _windows(redis_url)
    try:
        answers = [await windows.charge("a:203.0.113.7", 1, 5, WINDOW) for _ in range(6)]
        other = await windows.charge("a:203.0.113.8", 1, 5, WINDOW)
    finally:
        await windows.aclose()
    assert [allowed for allowed, _, _ in answers] == [True] * 5 + [False]
    assert [remaining for _, remaining, _ in answers] == [4, 3, 2, 1, 0, 0]
    assert all(0 <= reset <= WINDOW for _, _, reset in answers)
    assert other[:2] == (True, 4)  # another key, another budget


async def test_a_cost_beyond_the_budget_is_refused_and_not_charged(redis_url: str) -> None:
    windows = _windows(redis_url)
    try:
        refused = await windows.charge("k", 6, 5, WINDOW)
        then = await windows.charge("k", 5, 5, WINDOW)
    finally:
        await windows.aclose()
    assert refused == (False, 5, 0.0)
    assert then[:2] == (True, 0)


async def test_the_ended_window_weighs_by_how_much_of_it_still_overlaps(redis_url: str) -> None:
    """A window of 10 s whose 10 requests ended 4.5 s ago: they still weigh 5.5 (10 × 0.55), so
    a budget of 10 has 4 left after one more request (floor(5.5 + 1) = 6 counted)."""
    windows = _windows(redis_url)
    key = "a:198.51.100.1"
    current = f"{{tabletop-limit:{windows._prefix}:{key}:10:10}}"
    direct = redis.Redis.from_url(redis_url)
    try:
        # Counts expire two windows after their first request: 5.5 s left means 14.5 s ago.
        direct.set(current, 10, px=5_500)
        allowed, remaining, _ = await windows.charge(key, 1, 10, 10)
        assert (allowed, remaining) == (True, 4)
        assert int(direct.get(current + ":previous") or 0) == 10
    finally:
        direct.delete(current, current + ":previous")
        direct.close()
        await windows.aclose()
