"""The board: tile placement and the incremental feature structure, and its rebuilding on load.

Every feature segment of every placed tile gets a global id. A union-find over those ids keeps,
at each root, the feature's open road/city edges, its distinct tiles, pennants, figures, the city
segments its fields touch and (classic wagon rule only) the segments it is linked to. Placing a
tile only touches its own segments and its 4 neighbours, so nothing is ever flood-filled.

Replaying every placement (``rebuild``) costs about 1 ms for a full board; copying the derived
structures costs a tenth of that. The search bot loads the same few boards over and over (one
dump per candidate choice), so ``restore`` keeps a small cache of rebuilt boards, never handed
out, and copies from it.
"""

from __future__ import annotations

from functools import lru_cache

from domain.games.carcassonne.state import AROUND, DELTA, State, copy_board
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    ANY_EDGE,
    CLOISTER,
    FIELD,
    IS_HOLE,
    OT_EDGES,
    OT_PORT_SEG,
    OT_SIDE_SEG,
    OT_TILE,
    UNCONSTRAINED,
)

ONES = tuple((1,) * n for n in range(10))
ZEROS = tuple((0,) * n for n in range(10))
NONES: tuple[tuple[None, ...], ...] = tuple((None,) * n for n in range(10))


def find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _union(st: State, a: int, b: int) -> None:
    """Merge the features rooted at ``a`` and ``b`` (both roots).

    The older root (the lower segment id) stays the root, so a feature's root is always its
    first-placed segment: that is the feature id views and events publish, stable while the
    feature grows (path halving in ``find`` keeps the trees shallow without union by size)."""
    if a == b:
        return
    size = st.size
    if b < a:
        a, b = b, a
    st.parent[b] = a
    size[a] += size[b]
    st.open_edges[a] += st.open_edges[b]
    st.pennants[a] += st.pennants[b]
    _merge_sets(st.feature_squares, a, b)
    _merge_sets(st.field_cities, a, b)
    _merge_sets(st.wagon_links, a, b)
    if st.feature_figures[b]:
        st.feature_figures[a].extend(st.feature_figures[b])
        st.feature_figures[b] = []


def place_tile(st: State, square: int, ot: int) -> int:
    """Put oriented tile ``ot`` on square ``square`` and merge its features; returns its index."""
    tile = OT_TILE[ot]
    idx = len(st.tile_squares)
    st.tile_squares.append(square)
    st.oriented_tiles.append(ot)
    tile_at = st.tile_at
    tile_at[square] = idx
    parent = st.parent
    base = len(parent)
    st.first_segments.append(base)
    classic = st.classic_wagon
    count = len(tile.kinds)
    parent.extend(range(base, base + count))
    st.size.extend(ONES[count])
    st.segment_kinds.extend(tile.kinds)
    st.open_edges.extend(ZEROS[count])
    st.pennants.extend(tile.pennants)
    st.feature_figures.extend([] for _ in range(count))
    st.segment_tiles.extend([idx] * count)
    feature_squares, field_cities = st.feature_squares, st.field_cities
    for local, kind in enumerate(tile.kinds):
        if kind == FIELD:
            feature_squares.append(None)
            cities = tile.cities[local]
            field_cities.append({base + c for c in cities} if cities else None)
        else:
            feature_squares.append({square} if kind != CLOISTER else None)
            field_cities.append(None)
    if classic:
        st.wagon_links.extend(set() if kind != FIELD else None for kind in tile.kinds)
    else:
        st.wagon_links.extend(NONES[count])
    if classic:
        for a, b in tile.links:
            links_a, links_b = st.wagon_links[base + a], st.wagon_links[base + b]
            assert links_a is not None and links_b is not None
            links_a.add(base + b)
            links_b.add(base + a)

    frontier = st.frontier
    code = frontier.pop(square, UNCONSTRAINED)
    if IS_HOLE[code]:
        st.holes -= 1
    oriented_tiles = st.oriented_tiles
    first_segments = st.first_segments
    open_edges = st.open_edges
    if ot == ABBEY_OT:
        # the abbey fills a hole: it closes the facing side of each of its four neighbours
        for side in range(4):
            other = tile_at[square + DELTA[side]]
            facing = OT_SIDE_SEG[oriented_tiles[other]][(side + 2) & 3]  # their opposite side
            if facing >= 0:
                root = find(parent, first_segments[other] + facing)
                open_edges[root] -= 1
                if classic:
                    theirs, ours = st.wagon_links[root], st.wagon_links[base]
                    assert theirs is not None and ours is not None
                    theirs.add(base)
                    ours.add(first_segments[other] + facing)
        return idx

    edges = OT_EDGES[ot]
    side_segment = OT_SIDE_SEG[ot]
    port_segment = OT_PORT_SEG[ot]
    neighbours: list[tuple[int, int]] = []
    for side in range(4):
        next_square = square + DELTA[side]
        neighbour = tile_at.get(next_square)
        if neighbour is None:
            segment = side_segment[side]
            if segment >= 0:
                open_edges[base + segment] += 1
            # the empty square's side facing this tile (2 bits, ANY_EDGE until now) takes its edge
            old = frontier.get(next_square, UNCONSTRAINED)
            new = old - ((ANY_EDGE - edges[side]) << (2 * ((side + 2) & 3)))
            frontier[next_square] = new
            if IS_HOLE[new]:
                st.holes += 1
        elif oriented_tiles[neighbour] != ABBEY_OT:
            neighbours.append((side, neighbour))
    for side, neighbour in neighbours:
        their_ot = oriented_tiles[neighbour]
        their_base = first_segments[neighbour]
        segment = side_segment[side]
        if segment >= 0:
            their_root = find(parent, their_base + OT_SIDE_SEG[their_ot][(side + 2) & 3])
            open_edges[their_root] -= 1
            _union(st, find(parent, base + segment), their_root)
        their_ports = OT_PORT_SEG[their_ot]
        for port in (2 * side, 2 * side + 1):
            field = port_segment[port]
            if field >= 0:
                facing = their_ports[((port + 4) & 7) ^ 1]  # the port across the shared side
                _union(st, find(parent, base + field), find(parent, their_base + facing))
    return idx


def neighbours_filled(st: State, square: int) -> int:
    tile_at = st.tile_at
    return sum(1 for d in AROUND if square + d in tile_at)


def is_complete(st: State, root: int) -> bool:
    kind = st.segment_kinds[root]
    if kind == CLOISTER:
        return neighbours_filled(st, st.tile_squares[st.segment_tiles[root]]) == 8
    if kind == FIELD:
        return False
    return st.open_edges[root] == 0


def tile_count(st: State, root: int) -> int:
    tiles = st.feature_squares[root]
    return len(tiles) if tiles is not None else 1


def rebuild(st: State) -> None:
    """Recompute every derived structure from the placements and figures by replaying them."""
    placements = list(zip(st.tile_squares, st.oriented_tiles, strict=True))
    st.tile_squares, st.oriented_tiles = [], []
    st.tile_at, st.first_segments, st.parent, st.size, st.segment_kinds = {}, [], [], [], []
    st.open_edges, st.pennants, st.feature_squares, st.field_cities, st.wagon_links = [], [], [], [], []
    st.feature_figures, st.segment_tiles, st.frontier, st.holes, st.cache = [], [], {}, 0, None
    for square, ot in placements:
        place_tile(st, square, ot)
    _stand_figures(st)


BoardKey = tuple[tuple[int, int], ...]
"""The placements of a board in order, as (square, oriented tile)."""


@lru_cache(maxsize=16)
def _empty_board(placements: BoardKey, classic_wagon: bool) -> State:
    """A rebuilt board without figures; only ever read (copied from)."""
    template = State(
        players=0, options={}, pile=[], scores=[], breakdown=[], supply=[], classic_wagon=classic_wagon
    )
    template.tile_squares = [square for square, _ in placements]
    template.oriented_tiles = [ot for _, ot in placements]
    rebuild(template)
    return template


def restore(st: State) -> None:
    """Rebuild the derived structures of a freshly loaded state (placements and figures set)."""
    placements = tuple(zip(st.tile_squares, st.oriented_tiles, strict=True))
    copy_board(_empty_board(placements, st.classic_wagon), st)
    _stand_figures(st)


def _stand_figures(st: State) -> None:
    """List every figure on the feature it stands on, in figure id order."""
    for fid in sorted(st.figures):
        fig = st.figures[fid]
        st.feature_figures[find(st.parent, st.first_segments[fig.tile] + fig.segment)].append(fid)


def _merge_sets(sets: list[set[int] | None], a: int, b: int) -> None:
    """Move root ``b``'s optional set into root ``a``'s (the union-find merge of one attribute)."""
    moved = sets[b]
    if moved is None:
        return
    kept = sets[a]
    if kept is None:
        sets[a] = moved
    else:
        kept |= moved
    sets[b] = None
