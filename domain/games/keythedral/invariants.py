"""The invariants a Keythedral state keeps after every step, as readable violations.

Conservation: every cube of a colour is in the store, on its craftsman or behind a screen; every
building tile is on the mat, in its unused pile or bought; every law card is in the deck, on a
new-law space, in a hand, in the discard or under a tile. No count is negative; fences, workers,
cottages and the gap index agree with the board.
"""

from __future__ import annotations

from domain.games.keythedral.board import diagonal
from domain.games.keythedral.data import (
    COLOURS,
    COTTAGES,
    CUBE_TOTALS,
    FENCES_PER_PLAYER,
    LAWS,
    ROW_VALUES,
    TILES,
)
from domain.games.keythedral.state import KEYTHEDRAL, State

_TILE_COUNT = len(TILES)
_LAW_COUNT = len(LAWS)


def check_invariants(st: State) -> list[str]:
    """Every broken invariant of ``st`` in words; empty when the state is sound."""
    problems: list[str] = []
    _cubes(st, problems)
    _board(st, problems)
    _tiles_and_laws(st, problems)
    pending = st.pending
    if pending is not None:
        lists = list(pending.seats.values()) if pending.seats is not None else [pending.choices]
        if any(not choices for choices in lists):
            problems.append(f"decision {pending.kind} asks a seat with no choice")
        elif len(pending.choices) < 2 and pending.seats is None and not pending.held:
            problems.append(f"decision {pending.kind} asked with a single choice")
    if st.over and st.pending is not None:
        problems.append("the game is over but a decision is pending")
    return problems


def _cubes(st: State, problems: list[str]) -> None:
    cubes = st.cubes
    for c in range(8):
        held = 0
        for seat in range(st.players):
            n = cubes[seat][c]
            if n < 0:
                problems.append(f"seat {seat} holds {n} {COLOURS[c]} cubes")
            held += n
        craftsman = st.craftsmen[c - 5] if c >= 5 else 0
        if st.store[c] < 0:
            problems.append(f"the store holds {st.store[c]} {COLOURS[c]} cubes")
        if craftsman < 0:
            problems.append(f"the {COLOURS[c]} craftsman holds {craftsman} cubes")
        if st.store[c] + craftsman + held != CUBE_TOTALS[c]:
            problems.append(
                f"{COLOURS[c]} cubes not conserved: store {st.store[c]} + craftsman {craftsman} "
                f"+ players {held} != {CUBE_TOTALS[c]}"
            )


def _board(st: State, problems: list[str]) -> None:
    built = [0] * st.players
    for (gx, gy, fx, fy), owner in st.fences.items():
        if not 0 <= owner < st.players:
            problems.append(f"fence at {(gx, gy, fx, fy)} has no owner seat ({owner})")
            continue
        built[owner] += 1
        if (fx, fy) not in st.fields or (fx, fy) not in diagonal((gx, gy)):
            problems.append(f"fence at {(gx, gy, fx, fy)} is not between a gap and a field")
    for seat in range(st.players):
        left = st.fences_left[seat]
        if left < 0 or built[seat] + left > FENCES_PER_PLAYER:
            problems.append(f"seat {seat}: {built[seat]} fences built and {left} left")
    for cell, seat in st.workers.items():
        if cell not in st.fields:
            problems.append(f"a worker of seat {seat} stands off the fields at {cell}")
    if st.gap_occ.get(KEYTHEDRAL) != (-1, 0):
        problems.append("the Keythedral is not at (0, 0)")
    placed = 0
    for seat in range(st.players):
        for i, pos in enumerate(st.cottage_pos[seat]):
            if pos is None:
                continue
            placed += 1
            if st.gap_occ.get(pos) != (seat, i + 1):
                problems.append(f"cottage {i + 1} of seat {seat} at {pos} is not indexed there")
            if pos in st.fields:
                problems.append(f"cottage {i + 1} of seat {seat} sits on a field cell {pos}")
            if st.phase and [seat, i + 1] in st.off_board:
                problems.append(f"cottage {i + 1} of seat {seat} is both placed and off the board")
    if placed + 1 != len(st.gap_occ):
        problems.append(f"{len(st.gap_occ)} occupied gaps for {placed} cottages and the Keythedral")
    if st.phase and placed + len(st.off_board) != COTTAGES * st.players:
        problems.append(f"{placed} cottages placed and {len(st.off_board)} off the board")


def _tiles_and_laws(st: State, problems: list[str]) -> None:
    tiles = [t for r in st.rows for t in r] + [t for p in st.pools for t in p]
    tiles += [t for b in st.bought for t in b]
    if sorted(tiles) != list(range(_TILE_COUNT)):
        problems.append("building tiles are lost or duplicated between the mat, piles and screens")
    for r, row in enumerate(st.rows):
        for t in row + st.pools[r]:
            if TILES[t].value != ROW_VALUES[r]:
                problems.append(f"tile {TILES[t].id} lies in the row of value {ROW_VALUES[r]}")
    under = 0
    for tile, (inc, dec) in st.mods.items():
        if inc < 0 or dec < 0:
            problems.append(f"tile {TILES[tile].id} has negative law cards under it")
        under += inc + dec
    cards = st.deck + [c for c in st.spaces if c] + [c for h in st.hands for c in h] + st.discard
    if len(cards) + under != _LAW_COUNT or len(set(cards)) != len(cards):
        problems.append(
            f"law cards not conserved: {len(cards)} in deck, spaces, hands and discard, {under} under tiles"
        )
    if any(not 1 <= c <= _LAW_COUNT for c in cards):
        problems.append("a law card number is out of range")
