"""Take-backs: which decisions of a match a seat may still take back, and requests to do so.

The same for every game; each game's ``TakeBackRules`` (a field of its ``HostedGame``) only says
whether a decision revealed anything hidden. The match keeps one ``TakeBackPoint`` per decision
applied since the last reveal, oldest first: a revealing decision clears them all, so nothing
seen can be unseen. A seat may take back its own latest decision (one seat's turn, not a sealed
simultaneous one) among them:

- when no other seat decided (or sealed a choice) since, at once;
- otherwise it asks: every seat played by a person that decided since (in a two-player game, the
  opponent) accepts or refuses; seats the server plays (bots, stand-ins) accept at once. The
  first refusal ends the request; so does any choice made before the last acceptance (the game
  moved on: the request no longer says what it would take back).

Taking back replays the game from its seed and the recorded choices without the ones taken back
(``domain.model.match.effective_choices``), so the state after it is, by construction, the
replay's. The clocks read again what they read when the decision taken back was asked: the time
every seat spent since is given back (a Fischer increment earned since is taken back with it),
and the seats then awaited start their clocks afresh.

Whether a game allows take-backs is fixed when it is created (``default_allowed``): by default
only a game that cannot be rated allows them (rated games need a running clock and the server's
seed, so a game created with both has them off unless its host turns them on), and a
tournament's games have them off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.engine import JSON

TAKEBACK_EVENT_TYPES = frozenset(
    {"takeback_requested", "takeback_accepted", "takeback_refused", "takeback_cancelled", "taken_back"}
)
"""The events a take-back records (the platform's own, like ``seat_joined``)."""
MAX_POINTS = 12
"""The decisions kept for taking back, the latest ones: they are stored with the match on every
move, so a long stretch without a reveal (Keythedral's law windows every asked seat passed) does
not grow the row without bound. Twelve hold a whole round of five Keythedral players, each action
followed by a law window; an older decision can no longer be taken back, nor anything before it."""


@dataclass(frozen=True, slots=True)
class ClockReading:
    """What one seat's clock read when a decision was asked (before it was applied)."""

    used: float
    bank: float | None
    lapses: int

    def dump(self) -> list[JSON]:
        """``[used, bank, lapses]``, to the millisecond: a match stores up to ``MAX_POINTS`` of
        these per seat with every move, so they are kept short."""
        return [round(self.used, 3), None if self.bank is None else round(self.bank, 3), self.lapses]

    @classmethod
    def load(cls, stored: Sequence[Any]) -> ClockReading:
        used, bank, lapses = stored
        return cls(float(used), None if bank is None else float(bank), int(lapses))


@dataclass(frozen=True, slots=True)
class TakeBackPoint:
    """One decision applied since the last reveal."""

    version: int
    """The version the decision made: its recorded choices' version."""
    seats: tuple[int, ...]
    """Who decided: the deciding seat, or every seat that sealed a simultaneous choice."""
    own: bool
    """One seat's own turn (not a simultaneous decision): that seat may take it back."""
    clocks: Mapping[int, ClockReading]
    """Every clock as it read when the decision was asked."""

    def dump(self) -> dict[str, JSON]:
        return {
            "version": self.version,
            "seats": list(self.seats),
            "own": self.own,
            "clocks": {str(seat): clock.dump() for seat, clock in self.clocks.items()},
        }

    @classmethod
    def load(cls, stored: Mapping[str, Any]) -> TakeBackPoint:
        return cls(
            version=stored["version"],
            seats=tuple(stored["seats"]),
            own=stored["own"],
            clocks={int(seat): ClockReading.load(reading) for seat, reading in stored["clocks"].items()},
        )


@dataclass(slots=True)
class TakeBackRequest:
    """A seat asks to take back its decision at ``version``; ``waiting`` must still answer."""

    seat: int
    version: int
    waiting: list[int]
    accepted: list[int] = field(default_factory=list)

    def public(self) -> dict[str, JSON]:
        return {"seat": self.seat, "waiting": list(self.waiting), "accepted": list(self.accepted)}

    def dump(self) -> dict[str, JSON]:
        return {**self.public(), "version": self.version}

    @classmethod
    def load(cls, stored: Mapping[str, Any]) -> TakeBackRequest:
        return cls(stored["seat"], stored["version"], list(stored["waiting"]), list(stored["accepted"]))


@dataclass(slots=True)
class TakeBacks:
    """A match's take-back bookkeeping: whether allowed, the points since the last reveal, and the
    open request (at most one)."""

    allowed: bool = False
    points: list[TakeBackPoint] = field(default_factory=list)
    request: TakeBackRequest | None = None

    def target_of(self, seat: int) -> int | None:
        """The index of ``seat``'s latest own decision among the points, or None."""
        for index in range(len(self.points) - 1, -1, -1):
            point = self.points[index]
            if point.own and point.seats == (seat,):
                return index
        return None

    def deciders_since(self, index: int) -> set[int]:
        """Every seat that decided after the point at ``index``."""
        return {seat for point in self.points[index + 1 :] for seat in point.seats}

    def dump(self) -> dict[str, Any] | None:
        if not self.allowed:
            return None
        return {
            "allowed": True,
            "points": [point.dump() for point in self.points],
            "request": self.request.dump() if self.request is not None else None,
        }

    @classmethod
    def load(cls, stored: Mapping[str, Any] | None) -> TakeBacks:
        if not stored:
            return cls()
        request = stored.get("request")
        return cls(
            allowed=bool(stored["allowed"]),
            points=[TakeBackPoint.load(point) for point in stored["points"]],
            request=TakeBackRequest.load(request) if request else None,
        )


def default_allowed(may_be_rated: bool) -> bool:
    """Take-backs when the creator does not say: off for a game that may be rated (a running
    clock and the server's seed), on otherwise. (A tournament's round games are created with
    ``TakeBacks()``: off.)"""
    return not may_be_rated
