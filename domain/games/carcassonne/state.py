"""The game state: what is stored (dumped) and the derived board structures rebuilt on load."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STRIDE = 256
OFFSET = 128
NORTH, EAST, SOUTH, WEST = -1, STRIDE, 1, -STRIDE
DELTA = (NORTH, EAST, SOUTH, WEST)
"""Board squares are ints ``(x + OFFSET) * STRIDE + (y + OFFSET)``; y grows southwards."""
AROUND = (-1, 1, -STRIDE, STRIDE, -STRIDE - 1, -STRIDE + 1, STRIDE - 1, STRIDE + 1)
NINE = (0, *AROUND)

FOLLOWER, MAYOR, WAGON, BARN, ABBEY_TILE = 0, 1, 2, 3, 4
FOLLOWERS_PER_PLAYER = 7
FIGURE_NAMES = ("follower", "mayor", "wagon", "barn")
SUPPLY_NAMES = ("followers", "mayor", "wagon", "barn", "abbey")

START, PLACE, FIGURE, WAGON_MOVE, END_ABBEY, OVER = (
    "start",
    "place",
    "figure",
    "wagon",
    "end_abbey",
    "over",
)

CATEGORIES = ("roads", "cities", "cloisters", "fields", "barns")


def pos_of(x: int, y: int) -> int:
    return (x + OFFSET) * STRIDE + (y + OFFSET)


def xy_of(pos: int) -> tuple[int, int]:
    return pos // STRIDE - OFFSET, pos % STRIDE - OFFSET


@dataclass(slots=True)
class CarcState:
    """A game in progress. Fields above the marker are stored; the rest is derived."""

    players: int
    options: dict[str, Any]
    pile: list[int]
    scores: list[int]
    breakdown: list[dict[str, int]]
    supply: list[list[int]]
    phase: str = START
    active: int = 0
    tile: int = -1
    placed: int = -1
    last_placer: int = -1
    turn: int = 0
    next_fid: int = 0
    in_end_round: bool = False
    discarded: list[int] = field(default_factory=list)
    figures: dict[int, list[int]] = field(default_factory=dict)
    """fid -> [owner, figure kind, tile index, local segment, corner (barn) or -1]."""
    wagon_queue: list[int] = field(default_factory=list)
    end_queue: list[int] = field(default_factory=list)
    t_pos: list[int] = field(default_factory=list)
    t_ot: list[int] = field(default_factory=list)

    # ---- derived, rebuilt by replaying t_pos/t_ot on load ----
    expansion: bool = False
    classic_wagon: bool = False
    board: dict[int, int] = field(default_factory=dict)
    tbase: list[int] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    size: list[int] = field(default_factory=list)
    kind: list[int] = field(default_factory=list)
    opens: list[int] = field(default_factory=list)
    pennants: list[int] = field(default_factory=list)
    ftiles: list[set[int] | None] = field(default_factory=list)
    fcities: list[set[int] | None] = field(default_factory=list)
    links: list[set[int] | None] = field(default_factory=list)
    figs: list[list[int]] = field(default_factory=list)
    stile: list[int] = field(default_factory=list)
    frontier: dict[int, int] = field(default_factory=dict)
    holes: int = 0
    cache: list[dict[str, Any]] | None = None
