"""Swiss pairing: each round, players of equal points sit together as far as possible.

Order: points, then rating (the pairing order; tie-breaks only order the standings). Byes (as
many as the table sizes leave over) go to the lowest ranked players who have not had one; no two
players sit together twice while a round without it exists (then the fewest repeats). Tables are
found by ``search.group_tables``; seats by ``seats.seat_order``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations, islice

from domain.tournaments.model import Entrant, History, Pairing, Seating
from domain.tournaments.scoring import totals
from domain.tournaments.search import PAIRING_WORK, Met, group_tables, least_repeats_greedy
from domain.tournaments.seats import seat_order, table_sizes

BYE_CHOICES = 200
"""Sets of bye players tried for each allowed number of repeats."""


def met_pairs(history: History) -> Met:
    return frozenset(frozenset((a, b)) for t in history.tables for a, b in combinations(t.players, 2))


def pair_swiss(entrants: Sequence[Entrant], history: History, round_no: int, seating: Seating) -> Pairing:
    points = totals(history)
    ranked = [
        e.id
        for e in sorted(
            (e for e in entrants if not e.withdrawn),
            key=lambda e: (-points.get(e.id, Fraction(0)), -e.rating, e.id),
        )
    ]
    return pair_ranked(ranked, history, round_no, seating, points)


def pair_ranked(
    ranked: Sequence[str],
    history: History,
    round_no: int,
    seating: Seating,
    points: dict[str, Fraction],
) -> Pairing:
    """Tables for players in pairing order (best first), byes to the lowest without one."""
    sizes, bye_count = table_sizes(len(ranked), seating)
    met = met_pairs(history)
    had_bye = {b.player for b in history.byes}
    spent = [0]
    found: tuple[list[tuple[str, ...]], frozenset[str]] | None = None
    allowed = 0
    while found is None and spent[0] <= PAIRING_WORK:
        for byes in islice(_bye_sets(ranked, had_bye, bye_count), BYE_CHOICES):
            tables = group_tables([p for p in ranked if p not in byes], sizes, met, points, allowed, spent)
            if tables is not None:
                found = tables, byes
                break
        allowed += 1
    if found is None:
        byes = next(_bye_sets(ranked, had_bye, bye_count))
        found = least_repeats_greedy([p for p in ranked if p not in byes], sizes, met, points), byes
    tables, byes = found
    seated = tuple(seat_order(t, history, i) for i, t in enumerate(tables))
    return Pairing(round_no, seated, tuple(sorted(byes, key=ranked.index)))


def _bye_sets(ranked: Sequence[str], had_bye: set[str], count: int) -> Iterator[frozenset[str]]:
    """Sets of ``count`` players for the byes: those without a bye before those with one, lowest
    ranked first."""
    if count == 0:
        yield frozenset()
        return
    bottom_up = sorted(reversed(ranked), key=lambda p: p in had_bye)
    for chosen in combinations(bottom_up, count):
        yield frozenset(chosen)
