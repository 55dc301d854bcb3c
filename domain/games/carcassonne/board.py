"""The board: tile placement and the incremental feature structure.

Every feature segment of every placed tile gets a global id. A union-find over those ids keeps,
at each root, the feature's open road/city edges, its distinct tiles, pennants, figures, the city
segments its fields touch and (classic wagon rule only) the segments it is linked to. Placing a
tile only touches its own segments and its 4 neighbours, so nothing is ever flood-filled.
"""

from __future__ import annotations

from domain.games.carcassonne.state import AROUND, DELTA, CarcState
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CLOISTER,
    FIELD,
    IS_HOLE,
    OT_EDGES,
    OT_PORT_SEG,
    OT_SIDE_SEG,
    TILE_TYPES,
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


def _union(st: CarcState, a: int, b: int) -> None:
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
    st.opens[a] += st.opens[b]
    st.pennants[a] += st.pennants[b]
    _merge_sets(st.ftiles, a, b)
    _merge_sets(st.fcities, a, b)
    _merge_sets(st.links, a, b)
    if st.figs[b]:
        st.figs[a].extend(st.figs[b])
        st.figs[b] = []


def place_tile(st: CarcState, pos: int, ot: int) -> int:
    """Put oriented tile ``ot`` on square ``pos`` and merge its features; returns its index."""
    tile = TILE_TYPES[ot >> 2]
    idx = len(st.t_pos)
    st.t_pos.append(pos)
    st.t_ot.append(ot)
    board = st.board
    board[pos] = idx
    parent = st.parent
    base = len(parent)
    st.tbase.append(base)
    classic = st.classic_wagon
    count = len(tile.kinds)
    parent.extend(range(base, base + count))
    st.size.extend(ONES[count])
    st.kind.extend(tile.kinds)
    st.opens.extend(ZEROS[count])
    st.pennants.extend(tile.pennants)
    st.figs.extend([] for _ in range(count))
    st.stile.extend([idx] * count)
    ftiles, fcities = st.ftiles, st.fcities
    for local, kind in enumerate(tile.kinds):
        if kind == FIELD:
            ftiles.append(None)
            cities = tile.cities[local]
            fcities.append({base + c for c in cities} if cities else None)
        else:
            ftiles.append({pos} if kind != CLOISTER else None)
            fcities.append(None)
    if classic:
        st.links.extend(set() if kind != FIELD else None for kind in tile.kinds)
    else:
        st.links.extend(NONES[count])
    if classic:
        for a, b in tile.links:
            la, lb = st.links[base + a], st.links[base + b]
            assert la is not None and lb is not None
            la.add(base + b)
            lb.add(base + a)

    frontier = st.frontier
    code = frontier.pop(pos, UNCONSTRAINED)
    if IS_HOLE[code]:
        st.holes -= 1
    t_ot = st.t_ot
    tbase = st.tbase
    opens = st.opens
    if ot == ABBEY_OT:
        g = base
        for s in range(4):
            k = board[pos + DELTA[s]]
            ns = OT_SIDE_SEG[t_ot[k]][(s + 2) & 3]
            if ns >= 0:
                r = find(parent, tbase[k] + ns)
                opens[r] -= 1
                if classic:
                    lr, lg = st.links[r], st.links[g]
                    assert lr is not None and lg is not None
                    lr.add(g)
                    lg.add(tbase[k] + ns)
        return idx

    edges = OT_EDGES[ot]
    side_seg = OT_SIDE_SEG[ot]
    port_seg = OT_PORT_SEG[ot]
    neighbours: list[tuple[int, int]] = []
    for s in range(4):
        npos = pos + DELTA[s]
        j = board.get(npos)
        if j is None:
            ss = side_seg[s]
            if ss >= 0:
                opens[base + ss] += 1
            old = frontier.get(npos, UNCONSTRAINED)
            new = old - ((3 - edges[s]) << (2 * ((s + 2) & 3)))
            frontier[npos] = new
            if IS_HOLE[new]:
                st.holes += 1
        elif t_ot[j] != ABBEY_OT:
            neighbours.append((s, j))
    for s, j in neighbours:
        n_ot = t_ot[j]
        nb = tbase[j]
        ss = side_seg[s]
        if ss >= 0:
            rn = find(parent, nb + OT_SIDE_SEG[n_ot][(s + 2) & 3])
            opens[rn] -= 1
            _union(st, find(parent, base + ss), rn)
        n_ports = OT_PORT_SEG[n_ot]
        for p in (2 * s, 2 * s + 1):
            fs = port_seg[p]
            if fs >= 0:
                nf = n_ports[((p + 4) & 7) ^ 1]
                _union(st, find(parent, base + fs), find(parent, nb + nf))
    return idx


def neighbours_filled(st: CarcState, pos: int) -> int:
    board = st.board
    return sum(1 for d in AROUND if pos + d in board)


def is_complete(st: CarcState, root: int) -> bool:
    kind = st.kind[root]
    if kind == CLOISTER:
        return neighbours_filled(st, st.t_pos[st.stile[root]]) == 8
    if kind == FIELD:
        return False
    return st.opens[root] == 0


def tile_count(st: CarcState, root: int) -> int:
    tiles = st.ftiles[root]
    return len(tiles) if tiles is not None else 1


def rebuild(st: CarcState) -> None:
    """Recompute every derived structure from the stored placements and figures."""
    placements = list(zip(st.t_pos, st.t_ot, strict=True))
    st.t_pos, st.t_ot = [], []
    st.board, st.tbase, st.parent, st.size, st.kind = {}, [], [], [], []
    st.opens, st.pennants, st.ftiles, st.fcities, st.links = [], [], [], [], []
    st.figs, st.stile, st.frontier, st.holes, st.cache = [], [], {}, 0, None
    for pos, ot in placements:
        place_tile(st, pos, ot)
    for fid in sorted(st.figures):
        fig = st.figures[fid]
        st.figs[find(st.parent, st.tbase[fig[2]] + fig[3])].append(fid)


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
