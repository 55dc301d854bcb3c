"""How many tables a round has, and who sits in which seat at each.

Sizes: as few tables as the largest size allows, each at least the game's fewest seats, the
bigger tables first; whoever cannot be seated that way has a bye.

Seats: the first seat moves around. In round 1 the top-ranked player of the first table takes the
first seat and each next table turns the order by one (at tables of two: colours alternate by
board, as the FIDE Dutch system does). Later, each player prefers the seats it has had least, and
of those the one it had longest ago; the player whose seats are most uneven (the most times in one
seat against the fewest in another) chooses first, then the higher ranked. At tables of two this is
the Dutch colour allocation: the stronger preference wins, then the higher ranked player's."""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournaments.model import History, PairingImpossible, Seating


def table_sizes(players: int, seating: Seating) -> tuple[list[int], int]:
    """The sizes of a round's tables (largest first) and the number of byes."""
    if players < seating.fewest:
        raise PairingImpossible(f"{players} players cannot fill a table of {seating.fewest}")
    tables = -(-players // seating.most)
    while tables * seating.fewest > players:
        tables -= 1
    seated = min(players, tables * seating.most)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra), players - seated


def seat_order(ranked: Sequence[str], history: History, table_index: int) -> tuple[str, ...]:
    """The players of one table (best ranked first) in seat order."""
    size = len(ranked)
    past: dict[str, list[tuple[int, int]]] = {p: [] for p in ranked}
    for table in history.tables:
        for seat, player in enumerate(table.players):
            if player in past:
                past[player].append((table.round, seat))
    if not any(past.values()):
        turn = table_index % size
        return tuple(ranked[turn:]) + tuple(ranked[:turn])

    def wishes(player: str) -> tuple[int, list[int]]:
        counts = [0] * size
        last = [0] * size
        for round_no, seat in past[player]:
            if seat < size:
                counts[seat] += 1
                last[seat] = max(last[seat], round_no)
        order = sorted(range(size), key=lambda s: (counts[s], last[s], s))
        return max(counts) - min(counts), order

    wanted = {p: wishes(p) for p in ranked}
    choosing = sorted(ranked, key=lambda p: (-wanted[p][0], ranked.index(p)))
    seats: list[str | None] = [None] * size
    for player in choosing:
        seat = next(s for s in wanted[player][1] if seats[s] is None)
        seats[seat] = player
    return tuple(p for p in seats if p is not None)
