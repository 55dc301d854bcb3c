"""Waiting for something another thread or process does, without guessing how long it takes.

A test that must see an effect it does not cause itself (a bot's move, a server's answer, a
delivery) asks again until the check holds, and fails with the last answer when the time is up.
The time limit only bounds a failure: a passing test waits as long as the effect takes and no more,
so no test sleeps a fixed time "to be sure".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

POLL_SECONDS = 0.05


def eventually(
    check: Callable[[], T | None], timeout: float = 30.0, what: str = "", every: float = POLL_SECONDS
) -> T:
    """Call ``check`` until it returns something other than ``None`` or ``False``, and return that.

    An ``AssertionError`` raised by ``check`` counts as "not yet" (so ``check`` may assert, and the
    last failure explains a timeout); any other exception fails at once."""
    deadline = time.monotonic() + timeout
    last: object = None
    while True:
        try:
            result = check()
        except AssertionError as error:
            result, last = None, error
        else:
            if result is not None and result is not False:
                return result
            last = result
        if time.monotonic() >= deadline:
            raise AssertionError(f"not {what or 'so'} after {timeout} s; last: {last!r}")
        time.sleep(every)


async def eventually_async(
    check: Callable[[], Awaitable[T | None]],
    timeout: float = 30.0,
    what: str = "",
    every: float = POLL_SECONDS,
) -> T:
    """``eventually`` for a check that must run on the event loop."""
    deadline = time.monotonic() + timeout
    last: object = None
    while True:
        try:
            result = await check()
        except AssertionError as error:
            result, last = None, error
        else:
            if result is not None and result is not False:
                return result
            last = result
        if time.monotonic() >= deadline:
            raise AssertionError(f"not {what or 'so'} after {timeout} s; last: {last!r}")
        await asyncio.sleep(every)
