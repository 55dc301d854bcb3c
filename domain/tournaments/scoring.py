"""Points by finishing place, and the standings of a round-robin or a Swiss with their stated
tie-breaks.

Points: at a table of ``n`` seats, place ``p`` (1 best) is worth ``(n - p) / (n - 1)``: the winner
1, the last 0, the places between evenly spaced; players who share a place share the points of the
places they cover. At a table of two that is the chess score: win 1, draw ½ each, loss 0. A bye
counts as a win.

Order: points, then Buchholz (the sum, over one's games, of the opponents' mean final points), then
Sonneborn–Berger (the sum, over one's games, of one's points in the game times the opponents' mean
final points), then rating, then the entrant's id so the order is total. At tables of two these are
the classic Buchholz and Sonneborn–Berger; a bye adds nothing to either."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from domain.tournaments.model import BYE_POINTS, Entrant, History, StandingRow, Table


def place_points(ranks: Sequence[int]) -> tuple[Fraction, ...]:
    """The points each seat of a finished table earns from its rank."""
    n = len(ranks)
    worth = [Fraction(n - place, n - 1) for place in range(1, n + 1)]
    points: list[Fraction] = []
    for rank in ranks:
        sharing = sum(1 for other in ranks if other == rank)
        covered = worth[rank - 1 : rank - 1 + sharing]
        points.append(sum(covered, Fraction(0)) / sharing)
    return tuple(points)


def totals(history: History) -> dict[str, Fraction]:
    """Each player's points from finished tables and byes."""
    points: dict[str, Fraction] = {}
    for table in history.tables:
        if table.ranks is None:
            continue
        for player, earned in zip(table.players, place_points(table.ranks), strict=True):
            points[player] = points.get(player, Fraction(0)) + earned
    for bye in history.byes:
        points[bye.player] = points.get(bye.player, Fraction(0)) + BYE_POINTS
    return points


def standings(entrants: Sequence[Entrant], history: History) -> list[StandingRow]:
    """The table of a round-robin or a Swiss, best first (see the module's docstring)."""
    points = totals(history)
    finished = [t for t in history.tables if t.ranks is not None]
    rows: list[StandingRow] = []
    for entrant in entrants:
        mine = [t for t in finished if entrant.id in t.players]
        buchholz = Fraction(0)
        berger = Fraction(0)
        for table in mine:
            others = _opponents_mean(table, entrant.id, points)
            buchholz += others
            berger += _earned(table, entrant.id) * others
        rows.append(
            StandingRow(
                rank=0,
                player=entrant.id,
                points=points.get(entrant.id, Fraction(0)),
                games=len(mine),
                byes=sum(1 for b in history.byes if b.player == entrant.id),
                buchholz=buchholz,
                sonneborn_berger=berger,
                rating=entrant.rating,
                withdrawn=entrant.withdrawn,
            )
        )
    rows.sort(key=lambda r: (-r.points, -r.buchholz, -r.sonneborn_berger, -r.rating, r.player))
    return ranked_rows(rows, lambda r: (r.points, r.buchholz, r.sonneborn_berger, r.rating))


def ranked_rows(rows: list[StandingRow], keyed: Callable[[StandingRow], object]) -> list[StandingRow]:
    """Ranks 1..n; rows equal on every tie-break (the id aside) share a rank."""
    ranked: list[StandingRow] = []
    for index, row in enumerate(rows):
        rank = index + 1
        if ranked and keyed(ranked[-1]) == keyed(row):
            rank = ranked[-1].rank
        ranked.append(with_rank(row, rank))
    return ranked


def with_rank(row: StandingRow, rank: int) -> StandingRow:
    return StandingRow(
        rank=rank,
        player=row.player,
        points=row.points,
        games=row.games,
        byes=row.byes,
        buchholz=row.buchholz,
        sonneborn_berger=row.sonneborn_berger,
        rating=row.rating,
        withdrawn=row.withdrawn,
        reached=row.reached,
        eliminated=row.eliminated,
    )


def _earned(table: Table, player: str) -> Fraction:
    assert table.ranks is not None
    return place_points(table.ranks)[table.players.index(player)]


def _opponents_mean(table: Table, player: str, points: dict[str, Fraction]) -> Fraction:
    others = [p for p in table.players if p != player]
    return sum((points.get(p, Fraction(0)) for p in others), Fraction(0)) / len(others)
