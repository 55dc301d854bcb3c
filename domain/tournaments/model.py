"""The values the pairing and the standings work on: entrants, tables, byes, a round's pairing."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

MIN_TABLE = 2
MAX_TABLE = 5


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single_elimination"


class PairingImpossible(ValueError):
    """The entrants cannot be seated at tables of the allowed sizes (too few of them, or an
    elimination round that would need a table smaller than the game allows)."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Table sizes a round may use: ``most`` seats (the size asked for) and the ``fewest`` the
    game can be played with; a round fills as many full tables as it can."""

    fewest: int
    most: int

    def __post_init__(self) -> None:
        if not MIN_TABLE <= self.fewest <= self.most <= MAX_TABLE:
            raise ValueError(f"table sizes must satisfy {MIN_TABLE} <= fewest <= most <= {MAX_TABLE}")


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player: ``rating`` orders round 1 and seeds an elimination; a withdrawn
    entrant keeps the results it has and is paired no more."""

    id: str
    rating: float
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """One game of a round: ``players`` in seat order; ``ranks`` (1 is best, ties share a rank)
    once the game has ended, ``None`` while it runs."""

    round: int
    players: tuple[str, ...]
    ranks: tuple[int, ...] | None = None

    @property
    def finished(self) -> bool:
        return self.ranks is not None


@dataclass(frozen=True, slots=True)
class Bye:
    """A round an entrant sits out, scored as a win (``BYE_POINTS``)."""

    round: int
    player: str


BYE_POINTS = Fraction(1)


@dataclass(frozen=True, slots=True)
class History:
    """What has been played so far: every table (finished or not) and every bye."""

    tables: tuple[Table, ...] = ()
    byes: tuple[Bye, ...] = ()

    def rounds(self) -> int:
        return max([t.round for t in self.tables] + [b.round for b in self.byes], default=0)


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's tables (players in seat order) and its byes."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One entrant's place. ``buchholz`` and ``sonneborn_berger`` are zero for an elimination,
    ranked by the round reached instead (``reached``)."""

    rank: int
    player: str
    points: Fraction
    games: int
    byes: int
    buchholz: Fraction
    sonneborn_berger: Fraction
    rating: float
    withdrawn: bool
    reached: int = 0
    eliminated: bool = False
