"""Single elimination, seeded by rating: the winner of each table goes on, the others are out.

Seeds: rating, then id (1 is the best). A round with ``n`` players and tables of ``size`` brings
the field down to the largest power of ``size`` below ``n`` (at most one table of ``size`` when
``n`` fits at one): as many full tables as that takes, one smaller table for what is left over
(never below the game's fewest seats), and the best seeds have byes. Tables are dealt from the
remaining seeds like cards, there and back (at tables of two: best against worst). Each later
round re-seeds: the players left, in seed order, dealt the same way. A table whose first place is
shared sends on the better seed; a withdrawn player is out."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from domain.tournaments.model import Entrant, History, Pairing, PairingImpossible, Seating, StandingRow
from domain.tournaments.round_robin import seeded
from domain.tournaments.scoring import ranked_rows, totals
from domain.tournaments.seats import seat_order


def elimination_rounds(entrants: int, seating: Seating) -> int:
    rounds = 0
    field = entrants
    while field > 1:
        field = _target(field, seating.most)
        rounds += 1
    return rounds


def _target(field: int, size: int) -> int:
    if field <= size:
        return 1
    target = 1
    while target * size < field:
        target *= size
    return target


def field_for(entrants: Sequence[Entrant], history: History, round_no: int) -> list[Entrant]:
    """Who is still in at ``round_no`` (best seed first): everyone in round 1, then the winners and
    the byes of the round before; withdrawn players are out."""
    order = seeded(entrants)
    if round_no == 1:
        return [e for e in order if not e.withdrawn]
    seed = {e.id: i for i, e in enumerate(order)}
    going_on = {b.player for b in history.byes if b.round == round_no - 1}
    for table in history.tables:
        if table.round == round_no - 1 and table.ranks is not None:
            going_on.add(_winner(table.players, table.ranks, seed))
    return [e for e in order if e.id in going_on and not e.withdrawn]


def _winner(players: Sequence[str], ranks: Sequence[int], seed: dict[str, int]) -> str:
    best = min(ranks)
    return min((p for p, r in zip(players, ranks, strict=True) if r == best), key=lambda p: seed[p])


def pair_elimination(
    entrants: Sequence[Entrant], history: History, round_no: int, seating: Seating
) -> Pairing:
    field = field_for(entrants, history, round_no)
    if len(field) < 2:
        raise PairingImpossible("the elimination is decided")
    size = seating.most
    target = _target(len(field), size)
    out = len(field) - target
    full, left = divmod(out, size - 1)
    sizes = [size] * full + ([left + 1] if left else [])
    if sizes and sizes[-1] < seating.fewest:
        raise PairingImpossible(f"a table of {sizes[-1]} is below the game's {seating.fewest} seats")
    byes = len(field) - sum(sizes)
    dealt: list[list[str]] = [[] for _ in sizes]
    forward = True
    players = iter(e.id for e in field[byes:])
    while any(len(t) < s for t, s in zip(dealt, sizes, strict=True)):
        indices = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for i in indices:
            if len(dealt[i]) < sizes[i]:
                dealt[i].append(next(players))
        forward = not forward
    tables = tuple(seat_order(t, history, i) for i, t in enumerate(dealt))
    return Pairing(round_no, tables, tuple(e.id for e in field[:byes]))


def elimination_standings(entrants: Sequence[Entrant], history: History) -> list[StandingRow]:
    """Best first: the round reached, then the place at one's last table (the winner of the last
    table first), then seed."""
    order = seeded(entrants)
    seed = {e.id: i for i, e in enumerate(order)}
    points = totals(history)
    reached: dict[str, int] = {}
    place: dict[str, int] = {}
    out: set[str] = set()
    for table in sorted(history.tables, key=lambda t: t.round):
        for i, player in enumerate(table.players):
            reached[player] = table.round
            place[player] = table.ranks[i] if table.ranks else 0
        if table.ranks is not None:
            winner = _winner(table.players, table.ranks, seed)
            out.update(p for p in table.players if p != winner)
    for bye in history.byes:
        if reached.get(bye.player, 0) < bye.round:
            reached[bye.player] = bye.round
            place[bye.player] = 1
    rows = [
        StandingRow(
            rank=0,
            player=e.id,
            points=points.get(e.id, Fraction(0)),
            games=sum(1 for t in history.tables if e.id in t.players and t.ranks is not None),
            byes=sum(1 for b in history.byes if b.player == e.id),
            buchholz=Fraction(0),
            sonneborn_berger=Fraction(0),
            rating=e.rating,
            withdrawn=e.withdrawn,
            reached=reached.get(e.id, 0),
            eliminated=e.id in out or e.withdrawn,
        )
        for e in order
    ]

    def key(row: StandingRow) -> tuple[int, int, int]:
        return (-row.reached, int(row.eliminated), place.get(row.player, 0) if row.eliminated else 0)

    rows.sort(key=lambda r: (*key(r), seed[r.player]))
    return ranked_rows(rows, lambda r: (key(r), seed[r.player]))
