"""The verdict of ``bench/matches.py`` on a stalled match (``bench/stall_verdict.py``): a committed
event late or lost, or nothing due because of the harness or the server."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from stall_verdict import SeatFacts, verdict  # bench/ is not a package: found through sys.path


def seat(
    index: int,
    stored: list[int],
    at_stall: list[int],
    after: list[int] | None = None,
    asked: int | None = None,
    offered: dict[int, str] | None = None,
) -> SeatFacts:
    return SeatFacts(index, stored, at_stall, at_stall if after is None else after, asked, offered or {})


def test_a_committed_event_that_never_arrives_is_lost() -> None:
    kind, why = verdict(
        [seat(0, [1, 2, 3], [1, 2, 3]), seat(1, [1, 2, 3], [1, 2], asked=7, offered={7: "answer"})]
    )
    assert kind == "lost"
    assert "seat 1" in why and "[3] (1)" in why


def test_a_committed_event_that_arrives_within_the_grace_is_late() -> None:
    kind, why = verdict([seat(0, [1, 2, 3], [1, 2], after=[1, 2, 3]), seat(1, [1, 2, 3], [1, 2, 3])])
    assert kind == "late"
    assert "seat 0" in why and "[3] (1)" in why


def test_a_lost_event_outweighs_a_late_one() -> None:
    kind, _ = verdict([seat(0, [1, 2], [1], after=[1, 2]), seat(1, [1, 2], [1], after=[1])])
    assert kind == "lost"


def test_an_offer_the_client_had_and_left_unanswered_is_the_harness() -> None:
    kind, why = verdict(
        [
            seat(0, [1, 2], [1, 2], asked=None, offered={5: "event 1"}),
            seat(1, [1, 2], [1, 2], asked=6, offered={6: "event 2"}),
        ]
    )
    assert kind == "harness"
    assert "seat 1" in why and "version 6 (event 2)" in why


def test_a_seat_asked_without_any_offer_reaching_it_is_the_server() -> None:
    kind, why = verdict([seat(0, [1, 2], [1, 2]), seat(1, [1, 2], [1, 2], asked=6, offered={4: "event 1"})])
    assert kind == "server"
    assert "seat 1 is asked at version 6" in why


def test_nobody_asked_with_everything_delivered_is_the_server() -> None:
    kind, why = verdict([seat(0, [1, 2], [1, 2]), seat(1, [1, 2], [1, 2])])
    assert kind == "server"
    assert "asks no seat" in why


def test_many_missing_seqs_are_shortened() -> None:
    _, why = verdict([seat(0, list(range(1, 31)), [1])])
    assert "…] (29)" in why


def test_a_submit_still_unanswered_is_slow_rather_than_a_missing_offer() -> None:
    unanswered = SeatFacts(0, [1, 2], [1, 2], [1, 2], 6, {6: "event 2"}, in_flight_s=61.5)
    kind, why = verdict([unanswered, seat(1, [1, 2], [1, 2])])
    assert kind == "slow"
    assert "seat 0's submit had waited 61.5 s" in why


def test_a_lost_event_outweighs_a_slow_submit() -> None:
    unanswered = SeatFacts(0, [1, 2], [1, 2], [1, 2], None, {}, in_flight_s=61.5)
    kind, _ = verdict([unanswered, seat(1, [1, 2], [1], after=[1])])
    assert kind == "lost"


def test_a_subscription_that_ended_early_is_named_before_the_events_it_missed() -> None:
    ended = SeatFacts(0, [1, 2], [], [], 3, {}, subscription_ended="complete: null")
    kind, why = verdict([ended, seat(1, [1, 2], [1, 2])])
    assert kind == "ended"
    assert "seat 0's subscription ended early: complete: null" in why
