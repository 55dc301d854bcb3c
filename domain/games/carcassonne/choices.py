"""Legal choices: tile positions, abbey holes, figure placements and wagon moves."""

from __future__ import annotations

from typing import Any

from domain.games.carcassonne.board import find, is_complete
from domain.games.carcassonne.state import (
    BARN,
    FOLLOWER,
    MAYOR,
    NINE,
    OFFSET,
    STRIDE,
    WAGON,
    CarcState,
)
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CITY,
    FIELD,
    FITS,
    IS_HOLE,
    KIND_NAMES,
    OT_CORNER_FIELD,
    TILE_TYPES,
)

Choice = dict[str, Any]
ROTATIONS = (0, 90, 180, 270)

# For each corner of a tile (NW, NE, SE, SW): the other three tiles meeting there, as
# (square offset, the corner of that tile at the meeting point).
CORNER_MATES = (
    ((-STRIDE, 1), (-1, 3), (-STRIDE - 1, 2)),
    ((STRIDE, 0), (-1, 2), (STRIDE - 1, 3)),
    ((STRIDE, 3), (1, 1), (STRIDE + 1, 0)),
    ((-STRIDE, 2), (1, 0), (-STRIDE + 1, 1)),
)


def has_placement(st: CarcState, tile: int) -> bool:
    fits = FITS[tile]
    return any(fits[code] for code in st.frontier.values())


def placement_choices(st: CarcState, tile: int) -> list[Choice]:
    fits = FITS[tile]
    frontier = st.frontier
    out: list[Choice] = []
    for pos in sorted(frontier):
        rots = fits[frontier[pos]]
        if rots:
            x, y = pos // STRIDE - OFFSET, pos % STRIDE - OFFSET
            for rot in rots:
                out.append({"action": "place", "x": x, "y": y, "rotation": ROTATIONS[rot]})
    return out


def hole_positions(st: CarcState) -> list[int]:
    frontier = st.frontier
    return sorted(pos for pos, code in frontier.items() if IS_HOLE[code])


def abbey_choices(st: CarcState) -> list[Choice]:
    return [
        {"action": "abbey", "x": pos // STRIDE - OFFSET, "y": pos % STRIDE - OFFSET}
        for pos in hole_positions(st)
    ]


def barn_corners(st: CarcState, idx: int) -> list[int]:
    """Corners of tile ``idx`` where a barn may stand (4 field-only corners meeting)."""
    board, t_ot = st.board, st.t_ot
    pos = st.t_pos[idx]
    ot = t_ot[idx]
    own = OT_CORNER_FIELD[ot]
    out = []
    for c in range(4):
        local = own[c]
        if local < 0:
            continue
        ok = True
        for delta, their in CORNER_MATES[c]:
            j = board.get(pos + delta)
            if j is None or OT_CORNER_FIELD[t_ot[j]][their] < 0:
                ok = False
                break
        if not ok:
            continue
        if not st.options["barn_on_barn_field"]:
            root = find(st.parent, st.tbase[idx] + local)
            figures = st.figures
            if any(figures[f][1] == BARN for f in st.figs[root]):
                continue
        out.append(c)
    return out


def figure_choices(st: CarcState, seat: int) -> list[Choice]:
    """Every figure the active seat may put on the tile just placed, plus "none"."""
    idx = st.placed
    ot = st.t_ot[idx]
    tile = TILE_TYPES[ot >> 2]
    supply = st.supply[seat]
    out: list[Choice] = [{"action": "none"}]
    followers, mayors, wagons = supply[FOLLOWER], supply[MAYOR], supply[WAGON]
    if followers or mayors or wagons:
        base = st.tbase[idx]
        parent, figs = st.parent, st.figs
        for local, kind in enumerate(tile.kinds):
            if figs[find(parent, base + local)]:
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
        names = ("NW", "NE", "SE", "SW")
        for c in barn_corners(st, idx):
            out.append({"action": "place", "figure": "barn", "corner": names[c]})
    return out


def wagon_targets(st: CarcState, fid: int) -> list[Choice]:
    """Moves of a wagon whose feature was just scored (empty: it must go home)."""
    fig = st.figures[fid]
    parent, figs, kind, tbase, t_ot = st.parent, st.figs, st.kind, st.tbase, st.t_ot
    candidates: list[int] = []
    if st.classic_wagon:
        links = st.links[find(parent, tbase[fig[2]] + fig[3])]
        candidates = sorted(links) if links else []
    else:
        pos = st.t_pos[fig[2]]
        board = st.board
        squares = sorted(pos + d for d in NINE if pos + d in board)
        for square in squares:
            j = board[square]
            base = tbase[j]
            for local in range(len(TILE_TYPES[t_ot[j] >> 2].kinds)):
                candidates.append(base + local)
    out: list[Choice] = []
    seen_segments: set[int] = set()
    for g in candidates:
        if g in seen_segments or kind[g] == FIELD:
            continue
        seen_segments.add(g)
        root = find(parent, g)
        if figs[root] or is_complete(st, root):
            continue
        j = st.stile[g]
        pos = st.t_pos[j]
        out.append(
            {
                "action": "move",
                "x": pos // STRIDE - OFFSET,
                "y": pos % STRIDE - OFFSET,
                "segment": g - tbase[j],
                "feature": KIND_NAMES[kind[g]],
            }
        )
    if out:
        out.insert(0, {"action": "return"})
    return out
