"""Round-robin: everyone meets everyone.

At tables of two it is the circle method (the Berger tables' rotation): entrants in seed order
(rating, then id) take fixed places, the first stays, the others turn one place a round; with an
odd number one place is empty and its neighbour has the bye; ``n − 1`` rounds (``n`` when odd). An
entrant who withdrew keeps its place, and whoever it would have met has a bye.

At tables of three to five there is no such rotation for every count, so each round is searched
(``search.group_tables``, seed order instead of points): no two players together again while
avoidable. There are ``⌈(n − 1) / (size − 1)⌉`` rounds, the fewest in which each player could meet
every other once."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from domain.tournaments.model import Entrant, History, Pairing, Seating
from domain.tournaments.seats import seat_order
from domain.tournaments.swiss import pair_ranked


def seeded(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.rating, e.id))


def round_robin_rounds(entrants: int, seating: Seating) -> int:
    if seating.most == 2:
        return entrants - 1 if entrants % 2 == 0 else entrants
    return max(1, -(-(entrants - 1) // (seating.most - 1)))


def pair_round_robin(
    entrants: Sequence[Entrant], history: History, round_no: int, seating: Seating
) -> Pairing:
    order = seeded(entrants)
    if seating.most > 2:
        ranked = [e.id for e in order if not e.withdrawn]
        return pair_ranked(ranked, history, round_no, seating, {p: Fraction(0) for p in ranked})
    places: list[Entrant | None] = list(order)
    if len(places) % 2:
        places.append(None)
    turn = (round_no - 1) % (len(places) - 1)
    rest = places[1:]
    circle = [places[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    half = len(circle) // 2
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for a, b in zip(circle[:half], reversed(circle[half:]), strict=True):
        present = [e for e in (a, b) if e is not None and not e.withdrawn]
        if len(present) == 2:
            pair = [e.id for e in seeded(present)]
            tables.append(seat_order(pair, history, len(tables)))
        else:
            byes.extend(e.id for e in present)
    return Pairing(round_no, tuple(tables), tuple(byes))
