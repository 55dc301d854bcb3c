"""Shared builders for the Keythedral scenario tests: a small hand-made board and shortcuts."""

from __future__ import annotations

import random
from typing import Any

from domain.engine import Choice, Event
from domain.games.keythedral import ENGINE
from domain.games.keythedral.board import place_cottage
from domain.games.keythedral.data import COLOURS, CUBE_TOTALS, FIELD_INDEX, LAW_NUMBER, TILE_INDEX
from domain.games.keythedral.flow import advance
from domain.games.keythedral.state import KEYTHEDRAL, Frame, LawEffects, State

# A small board around the Keythedral (0, 0):
#   fields  Q(1,1) quarry, F(-1,-1) forest, L(1,-1) lake, M(-1,1) farm, V(3,1) vineyard
#   gap (2,0) touches V, Q, L; gap (0,2) touches Q, M; gap (-2,0) touches M, F;
#   gap (0,-2) touches L, F; gap (2,2) touches V, Q.
FIELDS = {(1, 1): "quarry", (-1, -1): "forest", (1, -1): "lake", (-1, 1): "farm", (3, 1): "vineyard"}


def cubes(**by_colour: int) -> list[int]:
    return [by_colour.get(c, 0) for c in COLOURS]


def law(card: str) -> int:
    return LAW_NUMBER[card]


def tile(tile_id: str) -> int:
    return TILE_INDEX[tile_id]


COTTAGES = {(0, 1): (2, 0), (0, 2): (0, -2), (1, 1): (0, 2), (1, 2): (-2, 0)}
"""Two cottages per seat on the small board, for the phase-3 scenarios."""


def scenario(
    players: int = 2,
    cottages: dict[tuple[int, int], tuple[int, int]] | None = None,
    fields: dict[tuple[int, int], str] | None = None,
    **options: Any,
) -> State:
    """A state after tile laying with a known board, empty hands and no cubes held."""
    st, _ = ENGINE.setup(players, ENGINE.meta.resolve_options(options), random.Random(7))
    st.stack = []
    st.pending = None
    st.fields = {cell: FIELD_INDEX[kind] for cell, kind in (fields or FIELDS).items()}
    st.field_stack = []
    st.gap_occ = {KEYTHEDRAL: (-1, 0)}
    st.cottage_pos = [[None] * 5 for _ in range(players)]
    st.house = [[False] * 5 for _ in range(players)]
    for (seat, number), cell in (cottages or {}).items():
        place_cottage(st, seat, number, cell)
    st.cubes = [[0] * 8 for _ in range(players)]
    st.store = [CUBE_TOTALS[c] if c < 5 else 0 for c in range(8)]
    st.craftsmen = [10, 10, 10]
    st.hands = [[] for _ in range(players)]
    st.round = 1
    st.start = 0
    st.fx = LawEffects.fresh(players)
    st.out = [False] * players
    return st


def give(st: State, seat: int, **by_colour: int) -> None:
    """Move cubes from the store (or a craftsman) to a seat, keeping every colour conserved."""
    for name, n in by_colour.items():
        c = COLOURS.index(name)
        if c < 5:
            st.store[c] -= n
        else:
            st.craftsmen[c - 5] -= n
        st.cubes[seat][c] += n


def deal_law(st: State, seat: int, card: str) -> None:
    """Put a law card in a seat's hand, taken from the deck or a new-law space."""
    n = law(card)
    if n in st.deck:
        st.deck.remove(n)
    elif n in st.spaces:
        st.spaces[st.spaces.index(n)] = 0
    st.hands[seat].append(n)


def run(st: State, *frames: Frame) -> list[Event]:
    """Start the flow at the given frames (the last one runs first)."""
    st.stack = list(frames)
    events: list[Event] = []
    advance(st, events)
    return events


def phase(p: int, s: int = 1) -> Frame:
    return {"t": "phase", "p": p, "s": s}


PASS: Choice = {"action": "pass"}


def act(st: State, seat: int, choice: Choice) -> list[Event]:
    """Apply ``seat``'s choice; in a law window every other asked seat passes."""
    legal = ENGINE.legal_choices(st, seat)
    assert choice in legal, f"{choice} not in {legal}"
    d = ENGINE.decision(st)
    assert d is not None
    joint = {s: PASS for s in d.seats} if d.simultaneous else {}
    return ENGINE.apply(st, {**joint, seat: choice})


def pass_window(st: State) -> list[Event]:
    """Every seat asked in the current law window passes."""
    d = ENGINE.decision(st)
    assert d is not None and d.kind == "law_window", d
    return ENGINE.apply(st, {s: PASS for s in d.seats})


def pass_windows(st: State) -> list[Event]:
    """Pass every law window until another kind of decision is due."""
    events: list[Event] = []
    while (d := ENGINE.decision(st)) is not None and d.kind == "law_window":
        events += pass_window(st)
    return events


def asked(st: State) -> tuple[tuple[int, ...], str]:
    d = ENGINE.decision(st)
    assert d is not None
    return d.seats, d.kind


def kinds(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def decision(st: State) -> tuple[int, str]:
    d = ENGINE.decision(st)
    assert d is not None
    return d.seats[0], d.kind
