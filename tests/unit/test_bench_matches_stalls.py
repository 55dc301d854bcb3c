"""When ``bench/matches.py`` calls a match stalled: a mover waits past its timeout while nobody's
submit is in progress, not while the other seat's submit is still being answered; the facts of
the moment are kept for the report."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from matches import Match, SeatClient, Totals  # bench/ is not a package: found through sys.path


def clients_of(match: Match) -> list[SeatClient]:
    rng = random.Random(0)
    match.clients = [
        SeatClient("http://127.0.0.1:9", "g", seat, f"t{seat}", match, "push", rng) for seat in (0, 1)
    ]
    return match.clients


def arrive(client: SeatClient, event: dict[str, object]) -> None:
    client.received.append(event)
    client.inbox.put_nowait(event)


def test_a_wait_outlasting_the_timeout_while_the_other_seat_submits_is_slow_not_stalled() -> None:
    async def scenario() -> Totals:
        match, totals = Match(moves_left=10), Totals()
        waiting, submitting = clients_of(match)
        submitting.busy_since = time.perf_counter()
        play = asyncio.create_task(waiting.play(totals, event_timeout=0.02, submit_timeout=5.0))
        await asyncio.sleep(0.15)
        submitting.busy_since = None
        arrive(waiting, {"seq": 9, "type": "game_over"})
        await asyncio.wait_for(play, 5.0)
        return totals

    totals = asyncio.run(scenario())
    assert totals.stalled == 0
    assert totals.slow_waits >= 2


def test_a_wait_outlasting_the_timeout_with_no_submit_in_progress_is_a_stall_with_its_facts() -> None:
    async def scenario() -> tuple[Match, Totals]:
        match, totals = Match(moves_left=10), Totals()
        waiting, other = clients_of(match)
        arrive(waiting, {"seq": 1, "type": "game_started", "next": None})
        other.received.append({"seq": 1, "type": "game_started", "next": None})
        await asyncio.wait_for(waiting.play(totals, event_timeout=0.02, submit_timeout=5.0), 5.0)
        return match, totals

    match, totals = asyncio.run(scenario())
    assert totals.stalled == 1
    assert match.over.is_set()
    assert match.stall == "seat 0: no new event within 0.02 s"
    assert match.at_stall == {0: ([1], None), 1: ([1], None)}


def test_the_facts_of_a_stall_say_how_long_a_submit_had_been_in_progress() -> None:
    match, totals = Match(moves_left=10), Totals()
    _, submitting = clients_of(match)
    submitting.busy_since = time.perf_counter() - 61.0
    match.stalled(1, "submit unanswered within 60 s", totals)
    match.stalled(0, "no new event within 10 s", totals)  # the first stall is the one explained
    in_progress = match.at_stall[1][1]
    assert in_progress is not None and 61.0 <= in_progress < 70.0
    assert match.stall == "seat 1: submit unanswered within 60 s"
    assert totals.stalled == 1
