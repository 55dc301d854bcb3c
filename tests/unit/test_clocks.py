"""The turn clock, pure: waiting-since, per-decision limits, Fischer banks, settings validation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.engine import JSON
from domain.errors import InvalidOptions
from domain.model.clocks import ClockSettings, Timing, lapse_limited
from tests.support.json_values import untyped

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_without_a_clock_only_the_waiting_time_is_tracked() -> None:
    timing = Timing()
    timing.track({0, 1}, at(0))
    assert timing.seats[0].since == at(0) and timing.seats[0].deadline is None
    timing.track({1}, at(4), acted=0)
    assert timing.seats[0].since is None and timing.seats[0].used == 4
    assert timing.seats[1].since == at(0)
    assert timing.next_deadline() is None and timing.expired(at(10**6)) == []


def test_a_per_decision_limit_restarts_for_every_decision_of_the_same_seat() -> None:
    timing = Timing(ClockSettings("per_decision", 30))
    timing.track({0}, at(0))
    assert timing.seats[0].deadline == at(30)
    timing.track({0}, at(10), acted=0)  # seat 0 decides again at once
    assert timing.seats[0].since == at(10) and timing.seats[0].deadline == at(40)
    assert timing.seats[0].used == 10
    assert timing.expired(at(39.9)) == [] and timing.expired(at(40)) == [0]


def test_a_fischer_bank_loses_the_time_taken_and_gains_the_increment() -> None:
    timing = Timing(ClockSettings("fischer", 60, 5))
    timing.track({0, 1}, at(0))  # simultaneous: both clocks run
    assert timing.seats[0].deadline == at(60) and timing.seats[1].deadline == at(60)
    timing.track({1}, at(20), acted=0)  # seat 0 seals after 20 s: 60 - 20 + 5
    assert timing.seats[0].bank == 45 and timing.seats[0].deadline is None
    assert timing.seats[1].deadline == at(60)  # its own clock keeps running
    timing.track({0}, at(50), acted=1)
    assert timing.seats[1].bank == 15 and timing.seats[0].deadline == at(95)
    assert timing.next_deadline() == at(95)


def test_public_clock_shows_deadlines_and_remaining_seconds() -> None:
    timing = Timing(ClockSettings("fischer", 60, 5))
    timing.track({0}, at(0))
    timing.track({1}, at(10), acted=0)
    public = untyped(timing.public(at(15)))
    assert public["mode"] == "fischer" and public["on_expiry"] == "bot"
    seat0, seat1 = public["seats"]
    assert seat0 == {
        "seat": 0,
        "waiting_since": None,
        "deadline": None,
        "remaining_seconds": 55.0,
        "used_seconds": 10.0,
        "lapses": 0,
    }
    assert seat1["deadline"] == at(70).isoformat() and seat1["remaining_seconds"] == 55.0


def test_a_bot_clock_keeps_the_servers_lapses_before_stand_in_and_shows_each_seats_lapses() -> None:
    bot = lapse_limited(ClockSettings("per_decision", 30), 2)
    assert bot.lapses_before_stand_in == 2
    assert lapse_limited(ClockSettings("per_decision", 30, 0, "forfeit"), 2).lapses_before_stand_in is None
    assert lapse_limited(ClockSettings(), 2).lapses_before_stand_in is None  # no clock, no lapse
    timing = Timing(bot)
    timing.track({0}, at(0))
    timing.clock(0).lapses = 1
    public = untyped(timing.public(at(1)))
    assert public["lapses_before_stand_in"] == 2 and public["seats"][0]["lapses"] == 1
    assert Timing.load(timing.dump()) == timing


def test_timing_round_trips_through_its_stored_form() -> None:
    timing = Timing(ClockSettings("fischer", 60, 5, "forfeit"))
    timing.track({0, 2}, at(0))
    timing.track({2}, at(7), acted=0)
    assert Timing.load(timing.dump()) == timing
    assert Timing.load(None) == Timing()


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"mode": "hourglass"}, "mode must be one of"),
        ({"mode": "per_decision"}, "seconds is required"),
        ({"mode": "per_decision", "seconds": 0}, "needs seconds >= 5"),
        ({"mode": "per_decision", "seconds": 0.001}, "below human reaction time"),
        ({"mode": "fischer", "seconds": 4.9, "increment": 1}, "needs seconds >= 5"),
        ({"mode": "per_decision", "seconds": 10, "increment": 2}, "only applies to mode fischer"),
        ({"mode": "fischer", "seconds": "ten"}, "must be a number"),
        ({"mode": "fischer", "seconds": 10, "on_expiry": "explode"}, "on_expiry must be one of"),
        ({"mode": "fischer", "seconds": -1}, "between 0 and"),
        ({"mode": "none", "seconds": 5}, "takes no seconds"),
        ({"mode": "fischer", "seconds": 5, "tick": 1}, "unknown clock field"),
    ],
)
def test_clock_settings_are_validated_with_a_reason(given: dict[str, JSON], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        ClockSettings.parse(given)


def test_no_clock_is_the_default() -> None:
    assert ClockSettings.parse(None) == ClockSettings() and not ClockSettings().runs
    parsed = ClockSettings.parse({"mode": "fischer", "seconds": 300, "increment": 10})
    assert parsed == ClockSettings("fischer", 300, 10, "bot") and parsed.runs
