"""One entry point per question the tournament service asks, whatever the format: how many
rounds, the next round's pairing, whether it is over, the standings."""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournaments.elimination import (
    elimination_rounds,
    elimination_standings,
    field_for,
    pair_elimination,
)
from domain.tournaments.model import Entrant, Format, History, Pairing, Seating, StandingRow
from domain.tournaments.round_robin import pair_round_robin, round_robin_rounds
from domain.tournaments.scoring import standings as points_standings
from domain.tournaments.swiss import pair_swiss

MAX_SWISS_ROUNDS = 30


def planned_rounds(fmt: Format, entrants: int, seating: Seating, swiss_rounds: int) -> int:
    """Rounds the tournament plays with this many entrants (a Swiss: as many as asked, at most
    one fewer than the entrants, so that pairs need not meet twice)."""
    if fmt is Format.ROUND_ROBIN:
        return round_robin_rounds(entrants, seating)
    if fmt is Format.SINGLE_ELIMINATION:
        return elimination_rounds(entrants, seating)
    return max(1, min(swiss_rounds, entrants - 1))


def pair_round(
    fmt: Format, entrants: Sequence[Entrant], history: History, round_no: int, seating: Seating
) -> Pairing:
    if fmt is Format.ROUND_ROBIN:
        return pair_round_robin(entrants, history, round_no, seating)
    if fmt is Format.SINGLE_ELIMINATION:
        return pair_elimination(entrants, history, round_no, seating)
    return pair_swiss(entrants, history, round_no, seating)


def finished_after(
    fmt: Format, entrants: Sequence[Entrant], history: History, round_no: int, planned: int, seating: Seating
) -> bool:
    """Whether the tournament ends once ``round_no`` is over: the planned rounds are played, or
    too few players are left to fill another table (one, in an elimination)."""
    if round_no >= planned:
        return True
    if fmt is Format.SINGLE_ELIMINATION:
        return len(field_for(entrants, history, round_no + 1)) < 2
    return sum(1 for e in entrants if not e.withdrawn) < seating.fewest


def standings(fmt: Format, entrants: Sequence[Entrant], history: History) -> list[StandingRow]:
    if fmt is Format.SINGLE_ELIMINATION:
        return elimination_standings(entrants, history)
    return points_standings(entrants, history)
