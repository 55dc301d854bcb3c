"""Final scoring (E-2) and the tie-break (Q8)."""

from __future__ import annotations

from domain.engine import Outcome
from domain.games.keythedral.data import CUBE_POINTS, TILES
from domain.games.keythedral.state import State


def tile_points(st: State, seat: int) -> int:
    return sum(TILES[t].value for t in st.bought[seat])


def cube_points(st: State, seat: int) -> int:
    return sum(n * p for n, p in zip(st.cubes[seat], CUBE_POINTS, strict=True))


def outcome(st: State) -> Outcome:
    """Most points wins; ties go to the higher sum of building-tile values, then are shared."""
    tiles = [tile_points(st, s) for s in range(st.players)]
    cubes = [cube_points(st, s) for s in range(st.players)]
    scores = tuple(t + c for t, c in zip(tiles, cubes, strict=True))
    best = max((scores[s], tiles[s]) for s in range(st.players))
    winners = tuple(s for s in range(st.players) if (scores[s], tiles[s]) == best)
    return Outcome(
        scores,
        winners,
        {
            "tiles": tiles,
            "cubes": cubes,
            "abnormal_end": st.abnormal,
            "rounds": st.round,
        },
    )
