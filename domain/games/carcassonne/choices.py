"""Legal choices: tile positions, abbey holes, figure placements and wagon moves."""

from __future__ import annotations

from domain.engine import Choice
from domain.games.carcassonne.board import find, is_complete
from domain.games.carcassonne.state import (
    BARN,
    FOLLOWER,
    MAYOR,
    NINE,
    OFFSET,
    STRIDE,
    WAGON,
    State,
    xy_of,
)
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CITY,
    CORNER_NAMES,
    CORNERS,
    FIELD,
    FITS,
    IS_HOLE,
    KIND_NAMES,
    OT_CORNER_FIELD,
    OT_TILE,
    Corner,
)

ROTATIONS = (0, 90, 180, 270)
"""Degrees of each number of quarter turns, as choices name a rotation."""

CORNER_MATES = (
    ((-STRIDE, Corner.NE), (-1, Corner.SW), (-STRIDE - 1, Corner.SE)),
    ((STRIDE, Corner.NW), (-1, Corner.SE), (STRIDE - 1, Corner.SW)),
    ((STRIDE, Corner.SW), (1, Corner.NE), (STRIDE + 1, Corner.NW)),
    ((-STRIDE, Corner.SE), (1, Corner.NW), (-STRIDE + 1, Corner.NE)),
)
"""For each corner of a tile (NW, NE, SE, SW): the other three tiles meeting there, as (square
offset, the corner of that tile at the meeting point)."""


def has_placement(st: State, tile: int) -> bool:
    """Whether tile type ``tile`` fits anywhere on the board."""
    fits = FITS[tile]
    return any(fits[code] for code in st.frontier.values())


def placement_choices(st: State, tile: int) -> list[Choice]:
    fits = FITS[tile]
    frontier = st.frontier
    out: list[Choice] = []
    for square in sorted(frontier):
        rotations = fits[frontier[square]]
        if rotations:
            x, y = square // STRIDE - OFFSET, square % STRIDE - OFFSET  # xy_of, inlined: a hot loop
            for turns in rotations:
                out.append({"action": "place", "x": x, "y": y, "rotation": ROTATIONS[turns]})
    return out


def hole_squares(st: State) -> list[int]:
    """Empty squares with all four neighbours placed, where an abbey may go."""
    return sorted(square for square, code in st.frontier.items() if IS_HOLE[code])


def abbey_choices(st: State) -> list[Choice]:
    out: list[Choice] = []
    for square in hole_squares(st):
        x, y = xy_of(square)
        out.append({"action": "abbey", "x": x, "y": y})
    return out


def barn_corners(st: State, idx: int) -> list[Corner]:
    """Corners of placed tile ``idx`` where a barn may stand (4 field-only corners meeting)."""
    tile_at, oriented_tiles = st.tile_at, st.oriented_tiles
    square = st.tile_squares[idx]
    own = OT_CORNER_FIELD[oriented_tiles[idx]]
    out = []
    for corner in CORNERS:
        local = own[corner]
        if local < 0:
            continue
        ok = True
        for delta, theirs in CORNER_MATES[corner]:
            j = tile_at.get(square + delta)
            if j is None or OT_CORNER_FIELD[oriented_tiles[j]][theirs] < 0:
                ok = False
                break
        if not ok:
            continue
        if not st.options["barn_on_barn_field"]:
            root = find(st.parent, st.first_segments[idx] + local)
            figures = st.figures
            if any(figures[f].kind == BARN for f in st.feature_figures[root]):
                continue
        out.append(corner)
    return out


def figure_choices(st: State, seat: int) -> list[Choice]:
    """Every figure the active seat may put on the tile just placed, plus "none"."""
    idx = st.placed_tile
    ot = st.oriented_tiles[idx]
    tile = OT_TILE[ot]
    supply = st.supply[seat]
    out: list[Choice] = [{"action": "none"}]
    followers, mayors, wagons = supply[FOLLOWER], supply[MAYOR], supply[WAGON]
    if followers or mayors or wagons:
        base = st.first_segments[idx]
        parent, feature_figures = st.parent, st.feature_figures
        for local, kind in enumerate(tile.kinds):
            if feature_figures[find(parent, base + local)]:
                continue
            name = KIND_NAMES[kind]
            if followers:
                out.append({"action": "place", "figure": "follower", "segment": local, "feature": name})
            if kind == FIELD:
                continue
            if mayors and kind == CITY:
                out.append({"action": "place", "figure": "mayor", "segment": local, "feature": name})
            if wagons:
                out.append({"action": "place", "figure": "wagon", "segment": local, "feature": name})
    if supply[BARN] and ot != ABBEY_OT:
        for corner in barn_corners(st, idx):
            out.append({"action": "place", "figure": "barn", "corner": CORNER_NAMES[corner]})
    return out


def wagon_targets(st: State, fid: int) -> list[Choice]:
    """Moves of a wagon whose feature was just scored (empty: it must go home)."""
    wagon = st.figures[fid]
    parent, feature_figures, first_segments = st.parent, st.feature_figures, st.first_segments
    segment_kinds = st.segment_kinds
    candidates: list[int] = []
    if st.classic_wagon:
        links = st.wagon_links[find(parent, first_segments[wagon.tile] + wagon.segment)]
        candidates = sorted(links) if links else []
    else:
        here = st.tile_squares[wagon.tile]
        tile_at = st.tile_at
        for square in sorted(here + d for d in NINE if here + d in tile_at):
            j = tile_at[square]
            base = first_segments[j]
            for local in range(len(OT_TILE[st.oriented_tiles[j]].kinds)):
                candidates.append(base + local)
    out: list[Choice] = []
    seen_segments: set[int] = set()
    for g in candidates:
        if g in seen_segments or segment_kinds[g] == FIELD:
            continue
        seen_segments.add(g)
        root = find(parent, g)
        if feature_figures[root] or is_complete(st, root):
            continue
        j = st.segment_tiles[g]
        x, y = xy_of(st.tile_squares[j])
        out.append(
            {
                "action": "move",
                "x": x,
                "y": y,
                "segment": g - first_segments[j],
                "feature": KIND_NAMES[segment_kinds[g]],
            }
        )
    if out:
        out.insert(0, {"action": "return"})
    return out
