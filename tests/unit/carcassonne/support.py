"""Scenario helpers: a game with a stacked pile, and turns played through the public interface."""

from __future__ import annotations

import random
from typing import Any

from domain.games.carcassonne import ENGINE
from domain.games.carcassonne.flow import start_turn
from domain.games.carcassonne.state import State
from domain.games.carcassonne.tiles import TYPE_BY_ID

E = ENGINE


def game(tiles: list[str], players: int = 2, **options: Any) -> State:
    """A new game whose pile yields ``tiles`` in this order (start tile already on the board)."""
    opts = E.meta.resolve_options(options)
    st, _ = E.setup(players, opts, random.Random(0))
    st.pile = [TYPE_BY_ID[t] for t in reversed(tiles)]
    st.turn = 0
    start_turn(st, 0, [])
    return st


def choose(st: State, choice: dict[str, Any]) -> list[Any]:
    """Apply a choice after checking it is one of the legal ones of the deciding seat."""
    decision = E.decision(st)
    assert decision is not None, "game is over"
    seat = decision.seats[0]
    legal = E.legal_choices(st, seat)
    assert choice in legal, f"{choice} not in {legal}"
    return E.apply(st, {seat: choice})


def place(
    st: State,
    x: int,
    y: int,
    rotation: int = 0,
    figure: str | None = None,
    segment: int | None = None,
    corner: str | None = None,
    tile: str | None = None,
) -> None:
    """Play the drawn tile, then the figure step if it is asked (``figure=None`` = none)."""
    if tile is not None:
        assert E.decision(st) is not None
        assert E.decision(st).data["tile"] == tile  # type: ignore[union-attr]
    if st.phase == "start":
        choose(st, {"action": "draw"})
    choose(st, {"action": "place", "x": x, "y": y, "rotation": rotation})
    figure_step(st, figure, segment, corner)


def figure_step(st: State, figure: str | None, segment: int | None = None, corner: str | None = None) -> None:
    if st.phase != "figure":
        assert figure is None, "no figure step was offered"
        return
    if figure is None:
        choose(st, {"action": "none"})
    elif figure == "barn":
        choose(st, {"action": "place", "figure": "barn", "corner": corner})
    else:
        legal = E.legal_choices(st, st.active)
        match = [c for c in legal if c.get("figure") == figure and c.get("segment") == segment]
        assert match, f"{figure} on {segment} not in {legal}"
        choose(st, match[0])


def abbey(st: State, x: int, y: int, figure: str | None = None, segment: int | None = 0) -> None:
    choose(st, {"action": "abbey", "x": x, "y": y})
    figure_step(st, figure, segment)


def seat_now(st: State) -> int:
    decision = E.decision(st)
    assert decision is not None
    return decision.seats[0]


def played(players: int, steps: int, seed: int, **options: Any) -> State:
    """A game of ``players`` seeded ``seed``, ``steps`` random decisions in."""
    st, _ = ENGINE.setup(players, ENGINE.meta.resolve_options(options), random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(steps):
        decision = ENGINE.decision(st)
        if decision is None:
            break
        ENGINE.apply(st, {s: rng.choice(ENGINE.legal_choices(st, s)) for s in decision.seats})
    return st
