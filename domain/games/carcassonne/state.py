"""The game state: what is stored (``dump_state``, ``load_state``), the board structures derived
from the placements (rebuilt by ``board.restore`` after a load), the codes they use, and copying.

Board squares are ints ``(x + OFFSET) * STRIDE + (y + OFFSET)`` (y grows southwards), so the
neighbours of a square are additions. A placed tile is an *oriented tile* (``tiles.oriented``:
its type and quarter turns in one int). Every segment of every placed tile (its roads, cities,
fields and cloister, in its type's order) has a global id: the first segment id of that tile
plus the segment's local index. A union-find over those ids joins segments into features; a
feature is named by its root, its first-placed segment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NamedTuple

from domain.engine import JSON, Choice, Stored
from domain.games.carcassonne.tiles import (
    OT_TILE,
    TILE_TYPES,
    TYPE_BY_ID,
    FeatureKind,
    oriented,
    quarter_turns,
)

STRIDE = 256
OFFSET = 128
NORTH, EAST, SOUTH, WEST = -1, STRIDE, 1, -STRIDE
DELTA = (NORTH, EAST, SOUTH, WEST)
"""The step to the neighbouring square on each side (N, E, S, W)."""
AROUND = (-1, 1, -STRIDE, STRIDE, -STRIDE - 1, -STRIDE + 1, STRIDE - 1, STRIDE + 1)
"""The steps to the eight squares around a square."""
NINE = (0, *AROUND)
"""A square and the eight around it."""


def square_of(x: int, y: int) -> int:
    return (x + OFFSET) * STRIDE + (y + OFFSET)


def xy_of(square: int) -> tuple[int, int]:
    return square // STRIDE - OFFSET, square % STRIDE - OFFSET


class FigureKind(IntEnum):
    """A figure's kind, also its index in a seat's supply."""

    FOLLOWER = 0
    MAYOR = 1
    WAGON = 2
    BARN = 3


FOLLOWER = FigureKind.FOLLOWER
MAYOR = FigureKind.MAYOR
WAGON = FigureKind.WAGON
BARN = FigureKind.BARN
SUPPLY_ABBEY = 4
"""Index of the abbey tile in a seat's supply, after the four figure kinds."""
FOLLOWERS_PER_PLAYER = 7
FIGURE_NAMES = ("follower", "mayor", "wagon", "barn")
FIGURE_BY_NAME = {name: FigureKind(i) for i, name in enumerate(FIGURE_NAMES)}
SUPPLY_NAMES = ("followers", "mayor", "wagon", "barn", "abbey")

NO_TILE = -1
"""``State.drawn_tile`` when no tile is drawn; ``State.placed_tile`` outside the figure and
scoring steps of a turn."""
NO_CORNER = -1
"""``Figure.corner`` of every figure but a barn."""
NOBODY = -1
"""``State.last_placer`` before any land tile was placed."""

START, PLACE, FIGURE, WAGON_MOVE, END_ABBEY, OVER = (
    "start",
    "place",
    "figure",
    "wagon",
    "end_abbey",
    "over",
)
"""Phases: the abbey-or-draw choice, placing the drawn tile, the figure step, a wagon move, the
end-of-game abbey round, the game over."""

CATEGORIES = ("roads", "cities", "cloisters", "fields", "barns", "abbeys")
"""Score sources; ``abbeys``: a monk on an abbey tile (a cloister of the expansion), told apart
from the land tiles' cloisters on the end screen. A game stored before it had no ``abbeys``: read
as 0."""


class Figure(NamedTuple):
    """A figure on the board; stored as ``[id, owner, kind, tile, segment, corner]``."""

    owner: int
    kind: FigureKind
    tile: int
    """Index of the placed tile it stands on."""
    segment: int
    """The local segment of that tile it stands on (a barn: the field of its corner)."""
    corner: int
    """A barn's corner (``tiles.Corner``), else ``NO_CORNER``."""


@dataclass(slots=True)
class State:
    """A game in progress. Fields above the marker are stored; the rest is derived."""

    players: int
    options: dict[str, Any]
    pile: list[int]
    """Tile types face down, drawn from the end."""
    scores: list[int]
    breakdown: list[dict[str, int]]
    """Per seat: points by category (``CATEGORIES``)."""
    supply: list[list[int]]
    """Per seat: pieces left, indexed by ``FigureKind`` then ``SUPPLY_ABBEY``."""
    phase: str = START
    active: int = 0
    """The seat whose turn it is."""
    drawn_tile: int = NO_TILE
    """The tile type drawn, to be placed."""
    placed_tile: int = NO_TILE
    """Index of the tile placed this turn, during its figure and scoring steps."""
    last_placer: int = NOBODY
    """The seat that placed the last land tile (the end-of-game abbey round starts after it)."""
    turn: int = 0
    next_figure_id: int = 0
    in_end_round: bool = False
    discarded: list[int] = field(default_factory=list)
    figures: dict[int, Figure] = field(default_factory=dict)
    """The figures on the board, by figure id."""
    wagon_queue: list[int] = field(default_factory=list)
    """Ids of the wagons of a scored feature still to move, in the order they are asked."""
    end_queue: list[int] = field(default_factory=list)
    """Seats still to be offered the abbey in the end-of-game abbey round."""
    tile_squares: list[int] = field(default_factory=list)
    """Per placed tile, in placement order: its square."""
    oriented_tiles: list[int] = field(default_factory=list)
    """Per placed tile: its oriented tile."""

    # ---- derived, rebuilt from the placements and figures on load ----
    expansion: bool = False
    classic_wagon: bool = False
    tile_at: dict[int, int] = field(default_factory=dict)
    """Square -> index of the placed tile on it."""
    first_segments: list[int] = field(default_factory=list)
    """Per placed tile: the global id of its first segment."""
    segment_tiles: list[int] = field(default_factory=list)
    """Per segment: the index of its placed tile."""
    segment_kinds: list[FeatureKind] = field(default_factory=list)
    """Per segment: its ``FeatureKind``."""
    parent: list[int] = field(default_factory=list)
    """Per segment: its union-find parent (``board.find`` gives the feature)."""
    size: list[int] = field(default_factory=list)
    """Per feature root: how many segments it joins."""
    open_edges: list[int] = field(default_factory=list)
    """Per road or city root: its sides still facing an empty square."""
    pennants: list[int] = field(default_factory=list)
    """Per city root: its pennants."""
    feature_squares: list[set[int] | None] = field(default_factory=list)
    """Per road or city root: the squares of the tiles it spans (None elsewhere)."""
    field_cities: list[set[int] | None] = field(default_factory=list)
    """Per field root: the city segments it touches on its own tiles (None when none)."""
    wagon_links: list[set[int] | None] = field(default_factory=list)
    """Per road, city or cloister root, classic wagon rule only: the segments a wagon on it may
    move to (tile links and abbey sides); None otherwise."""
    feature_figures: list[list[int]] = field(default_factory=list)
    """Per feature root: the ids of the figures standing on it."""
    frontier: dict[int, int] = field(default_factory=dict)
    """Empty square next to the board -> its constraint code (``tiles.FITS``)."""
    holes: int = 0
    """Frontier squares with all four neighbours placed (where an abbey may go)."""
    cache: list[Choice] | None = None
    """The legal choices of the current decision, once computed."""


def set_option_flags(st: State) -> None:
    """The flags derived from the options, read on the hot path."""
    st.expansion = bool(st.options["abbey_and_mayor"])
    st.classic_wagon = st.expansion and st.options["wagon_move"] == "classic"


DUMP_VERSION = 1


def dump_state(st: State) -> dict[str, JSON]:
    """The stored fields only: ``load_state`` and ``board.restore`` rebuild the rest."""
    board: list[JSON] = []
    for square, ot in zip(st.tile_squares, st.oriented_tiles, strict=True):
        x, y = xy_of(square)
        board.append([x, y, OT_TILE[ot].id, quarter_turns(ot) * 90])
    return {
        "version": DUMP_VERSION,
        "players": st.players,
        "options": dict(st.options),
        "pile": [TILE_TYPES[t].id for t in st.pile],
        "board": board,
        "discarded": [TILE_TYPES[t].id for t in st.discarded],
        "scores": list(st.scores),
        "breakdown": [dict(b) for b in st.breakdown],
        "supply": [list(s) for s in st.supply],
        "figures": [
            [fid, fig.owner, int(fig.kind), fig.tile, fig.segment, fig.corner]
            for fid, fig in ((fid, st.figures[fid]) for fid in sorted(st.figures))
        ],
        "next_fid": st.next_figure_id,
        "phase": st.phase,
        "active": st.active,
        "tile": TILE_TYPES[st.drawn_tile].id if st.drawn_tile != NO_TILE else None,
        "placed": st.placed_tile,
        "last_placer": st.last_placer,
        "turn": st.turn,
        "in_end_round": st.in_end_round,
        "wagon_queue": list(st.wagon_queue),
        "end_queue": list(st.end_queue),
    }


def load_state(data: Stored) -> State:
    """The stored fields of a ``dump_state``; the board structures are left to ``board.restore``."""
    st = State(
        players=int(data["players"]),
        options=dict(data["options"]),
        pile=[TYPE_BY_ID[t] for t in data["pile"]],
        scores=list(data["scores"]),
        breakdown=[{**dict.fromkeys(CATEGORIES, 0), **b} for b in data["breakdown"]],
        supply=[list(s) for s in data["supply"]],
        phase=str(data["phase"]),
        active=int(data["active"]),
        drawn_tile=TYPE_BY_ID[data["tile"]] if data["tile"] is not None else NO_TILE,
        placed_tile=int(data["placed"]),
        last_placer=int(data["last_placer"]),
        turn=int(data["turn"]),
        next_figure_id=int(data["next_fid"]),
        in_end_round=bool(data["in_end_round"]),
        discarded=[TYPE_BY_ID[t] for t in data["discarded"]],
        figures={
            int(fid): Figure(int(owner), FigureKind(int(kind)), int(tile), int(segment), int(corner))
            for fid, owner, kind, tile, segment, corner in data["figures"]
        },
        wagon_queue=[int(f) for f in data["wagon_queue"]],
        end_queue=[int(s) for s in data["end_queue"]],
    )
    for x, y, tile_id, rotation in data["board"]:
        st.tile_squares.append(square_of(int(x), int(y)))
        st.oriented_tiles.append(oriented(TYPE_BY_ID[tile_id], int(rotation) // 90))
    set_option_flags(st)
    return st


def copy_state(st: State) -> State:
    """An independent copy of a state, derived structures included (no replay of the board)."""
    copy = State(
        players=st.players,
        options=dict(st.options),
        pile=list(st.pile),
        scores=list(st.scores),
        breakdown=[dict(b) for b in st.breakdown],
        supply=[list(s) for s in st.supply],
        phase=st.phase,
        active=st.active,
        drawn_tile=st.drawn_tile,
        placed_tile=st.placed_tile,
        last_placer=st.last_placer,
        turn=st.turn,
        next_figure_id=st.next_figure_id,
        in_end_round=st.in_end_round,
        discarded=list(st.discarded),
        figures=dict(st.figures),
        wagon_queue=list(st.wagon_queue),
        end_queue=list(st.end_queue),
        expansion=st.expansion,
        classic_wagon=st.classic_wagon,
    )
    copy_board(st, copy)
    return copy


def copy_board(src: State, dst: State) -> None:
    """Give ``dst`` independent copies of the placements and derived structures of ``src``."""
    dst.tile_squares = list(src.tile_squares)
    dst.oriented_tiles = list(src.oriented_tiles)
    dst.tile_at = dict(src.tile_at)
    dst.first_segments = list(src.first_segments)
    dst.segment_tiles = list(src.segment_tiles)
    dst.segment_kinds = list(src.segment_kinds)
    dst.parent = list(src.parent)
    dst.size = list(src.size)
    dst.open_edges = list(src.open_edges)
    dst.pennants = list(src.pennants)
    dst.feature_squares = [None if s is None else set(s) for s in src.feature_squares]
    dst.field_cities = [None if s is None else set(s) for s in src.field_cities]
    dst.wagon_links = [None if s is None else set(s) for s in src.wagon_links]
    dst.feature_figures = [list(f) for f in src.feature_figures]
    dst.frontier = dict(src.frontier)
    dst.holes = src.holes
    dst.cache = None
