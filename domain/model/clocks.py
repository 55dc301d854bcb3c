"""Turn clocks: who has been waited for since when, and (when a clock runs) until when.

The same for every game: the clock only looks at the match's generic decision (which seats must
decide, which have sealed), never at the rules. ``track`` is called after every change with the
seat that just acted; it stops the clocks of seats that acted or sealed and starts the clocks of
seats that are now awaited. Deadlines are absolute times stored with the match, so they survive a
restart and any instance can fire them.

Modes: ``none`` (default: no deadline, only "waiting since"), ``per_decision`` (each decision of a
seat gets ``seconds``) and ``fischer`` (a bank of ``seconds`` per seat, ``increment`` added after
each decision; the deadline is the moment the bank runs out). ``seconds`` is at least
``MIN_CLOCK_SECONDS``. With ``on_expiry: bot`` a lapse hands only the lapsed decision to the
stand-in; ``LAPSES_BEFORE_STAND_IN`` lapses in a row hand it the seat until its player returns.
A game without a clock still has the server's inactivity limit (``inactivity_days``): a seat
silent that long is handed to the stand-in until it acts again, so no tab closed for good blocks
a game for ever.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from domain.engine import JSON
from domain.errors import InvalidOptions, Range

CLOCK_MODES = ("none", "per_decision", "fischer")
EXPIRY_ACTIONS = ("bot", "forfeit")
STAND_IN_LEVELS = ("random", "greedy", "strong")
"""The bot levels a game may choose for its stand-ins (``domain.bots.BOT_LEVELS``, all of them)."""
DEFAULT_STAND_IN = "greedy"
MAX_CLOCK_SECONDS = 30 * 24 * 3600
MIN_CLOCK_SECONDS = 5.0
"""The least time a clock gives a decision (a per-decision clock, a Fischer bank): below human
reaction time a clock would only hand the game to the stand-in bot."""
LAPSES_BEFORE_STAND_IN = 3
"""Lapses in a row after which the stand-in keeps the seat until its player returns."""


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A game's clock option: the same shape for every game type."""

    mode: str = "none"
    seconds: float = 0
    increment: float = 0
    on_expiry: str = "bot"
    inactivity_days: float | None = None
    """A clock-less game's server-wide inactivity limit, fixed when it is created: a seat silent
    this long is handed to the stand-in bot until it acts again. Never set by a client."""
    stand_in: str = DEFAULT_STAND_IN
    """The bot level that plays a seat handed to the stand-in: a lapsed decision, a seat silent
    too long, a seat resigned or forfeited."""
    lapses_before_stand_in: int | None = None
    """A clock with ``on_expiry: bot``: the server's lapses in a row after which the stand-in keeps
    the seat, fixed when the game is created (None: a game from before, the server's current
    setting applies). Never set by a client."""

    @property
    def runs(self) -> bool:
        return self.mode != "none"

    @classmethod
    def parse(cls, given: Mapping[str, JSON] | None) -> ClockSettings:
        """Validated settings from a request; explains what is wrong."""
        if given is None:
            return cls()
        unknown = sorted(set(given) - {"mode", "seconds", "increment", "on_expiry", "stand_in"})
        if unknown:
            raise InvalidOptions("unknown clock field(s): {unknown}", unknown=unknown)
        mode = given.get("mode", "none")
        if mode not in CLOCK_MODES:
            raise InvalidOptions(
                "clock {clock} must be one of {allowed}, got {got!j}",
                clock="mode",
                allowed=CLOCK_MODES,
                got=mode,
            )
        on_expiry = given.get("on_expiry", "bot")
        if on_expiry not in EXPIRY_ACTIONS:
            raise InvalidOptions(
                "clock {clock} must be one of {allowed}, got {got!j}",
                clock="on_expiry",
                allowed=EXPIRY_ACTIONS,
                got=on_expiry,
            )
        stand_in = given.get("stand_in", DEFAULT_STAND_IN)
        if stand_in not in STAND_IN_LEVELS:
            raise InvalidOptions(
                "clock {clock} must be one of {allowed}, got {got!j}",
                clock="stand_in",
                allowed=STAND_IN_LEVELS,
                got=stand_in,
            )
        seconds = _seconds(given, "seconds", 0 if mode == "none" else None)
        increment = _seconds(given, "increment", 0)
        if mode != "none" and seconds < MIN_CLOCK_SECONDS:
            raise InvalidOptions(
                "clock mode {mode} needs seconds >= {min_seconds:g}: a clock below human "
                "reaction time only hands the seat to the stand-in bot",
                mode=mode,
                min_seconds=MIN_CLOCK_SECONDS,
            )
        if mode != "fischer" and increment:
            raise InvalidOptions("clock increment only applies to mode fischer")
        if mode == "none" and seconds:
            raise InvalidOptions("clock mode none takes no seconds")
        return cls(mode, seconds, increment, on_expiry, stand_in=str(stand_in))

    def dump(self) -> dict[str, JSON]:
        return {
            "mode": self.mode,
            "seconds": self.seconds,
            "increment": self.increment,
            "on_expiry": self.on_expiry,
            "inactivity_days": self.inactivity_days,
            "stand_in": self.stand_in,
            "lapses_before_stand_in": self.lapses_before_stand_in,
        }


def inactivity_limited(settings: ClockSettings, days: float | None) -> ClockSettings:
    """A new game's clock settings with the server's inactivity limit, when it has no clock."""
    if settings.runs or days is None:
        return settings
    return replace(settings, inactivity_days=days)


def lapse_limited(settings: ClockSettings, lapses: int | None) -> ClockSettings:
    """A new game's clock settings with the server's lapses before the stand-in keeps a seat,
    when its clock hands a lapsed decision to a bot."""
    if not settings.runs or settings.on_expiry != "bot" or lapses is None:
        return settings
    return replace(settings, lapses_before_stand_in=lapses)


def _seconds(given: Mapping[str, JSON], name: str, default: float | None) -> float:
    value = given.get(name, default)
    if value is None:
        raise InvalidOptions("clock {clock} is required", clock=name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidOptions("clock {clock} must be a number of seconds, got {got!j}", clock=name, got=value)
    if not 0 <= value <= MAX_CLOCK_SECONDS:
        raise InvalidOptions(
            "clock {clock} must be between {bounds:and}", clock=name, bounds=Range(0, MAX_CLOCK_SECONDS)
        )
    return float(value)


@dataclass(slots=True)
class SeatClock:
    """One seat's clock. ``since`` is set while the seat is awaited (unsealed, in the decision)."""

    since: datetime | None = None
    deadline: datetime | None = None
    bank: float | None = None
    used: float = 0.0
    lapses: int = 0
    """Decisions in a row this seat's clock ran out on (reset when its player acts)."""


@dataclass(slots=True)
class Timing:
    settings: ClockSettings = field(default_factory=ClockSettings)
    seats: dict[int, SeatClock] = field(default_factory=dict)

    def clock(self, seat: int) -> SeatClock:
        if seat not in self.seats:
            bank = self.settings.seconds if self.settings.mode == "fischer" else None
            self.seats[seat] = SeatClock(bank=bank)
        return self.seats[seat]

    def track(self, awaited: set[int], now: datetime, acted: int | None = None) -> set[int]:
        """Stop the clock of every seat that acted or is no longer awaited; start the others.

        A seat that acted and is awaited again (it must decide once more) gets a fresh clock.
        Returns the seats whose turn has just begun.
        """
        for seat, clock in self.seats.items():
            if clock.since is not None and (seat == acted or seat not in awaited):
                self._stop(clock, now)
        started = set()
        for seat in sorted(awaited):
            clock = self.clock(seat)
            if clock.since is None:
                self._start(clock, now)
                started.add(seat)
        return started

    def stop_all(self, now: datetime) -> None:
        for clock in self.seats.values():
            if clock.since is not None:
                self._stop(clock, now)

    def _start(self, clock: SeatClock, now: datetime) -> None:
        clock.since = now
        settings = self.settings
        if settings.mode == "per_decision":
            clock.deadline = now + timedelta(seconds=settings.seconds)
        elif settings.mode == "fischer":
            clock.deadline = now + timedelta(seconds=max(0.0, clock.bank or 0.0))
        elif settings.inactivity_days is not None:
            clock.deadline = now + timedelta(days=settings.inactivity_days)

    def _stop(self, clock: SeatClock, now: datetime) -> None:
        assert clock.since is not None
        elapsed = max(0.0, (now - clock.since).total_seconds())
        clock.used += elapsed
        if self.settings.mode == "fischer":
            clock.bank = max(0.0, (clock.bank or 0.0) - elapsed) + self.settings.increment
        clock.since = None
        clock.deadline = None

    def expired(self, now: datetime) -> list[int]:
        """Seats whose deadline has passed, in seat order."""
        return sorted(
            seat for seat, clock in self.seats.items() if clock.deadline is not None and clock.deadline <= now
        )

    def next_deadline(self) -> datetime | None:
        deadlines = [c.deadline for c in self.seats.values() if c.deadline is not None]
        return min(deadlines) if deadlines else None

    def public(self, now: datetime) -> dict[str, JSON]:
        """What every viewer may see: settings, and per seat waiting-since, deadline, remaining."""
        seats: list[dict[str, JSON]] = []
        for seat in sorted(self.seats):
            clock = self.seats[seat]
            remaining: float | None = None
            if clock.deadline is not None:
                remaining = max(0.0, round((clock.deadline - now).total_seconds(), 3))
            elif clock.bank is not None:
                remaining = round(clock.bank, 3)
            seats.append(
                {
                    "seat": seat,
                    "waiting_since": _iso(clock.since),
                    "deadline": _iso(clock.deadline),
                    "remaining_seconds": remaining,
                    "used_seconds": round(clock.used, 3),
                    "lapses": clock.lapses,
                }
            )
        return {**self.settings.dump(), "seats": seats}

    # -- storage -----------------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        return {
            "settings": self.settings.dump(),
            "seats": {
                str(seat): {
                    "since": _iso(c.since),
                    "deadline": _iso(c.deadline),
                    "bank": c.bank,
                    "used": c.used,
                    "lapses": c.lapses,
                }
                for seat, c in self.seats.items()
            },
        }

    @classmethod
    def load(cls, stored: Mapping[str, Any] | None) -> Timing:
        if not stored:
            return cls()
        settings = ClockSettings(**stored["settings"])
        seats = {
            int(seat): SeatClock(
                since=_parse(values["since"]),
                deadline=_parse(values["deadline"]),
                bank=values["bank"],
                used=values["used"],
                lapses=values.get("lapses", 0),
            )
            for seat, values in stored["seats"].items()
        }
        return cls(settings, seats)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _parse(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text is not None else None
