"""The game's invariants as readable violations, cheap enough to check after every step.

The same properties the playout tests assert: tile and figure conservation, no negative counts,
scores equal to their breakdown, edges that match, a union-find that agrees with a recount of the
board from scratch, figures standing where their kind may stand, and a flow state that makes sense
for the phase. Each check stops at its first few violations so a broken state stays readable.
"""

from __future__ import annotations

from collections import Counter

from domain.games.carcassonne.board import find, is_complete
from domain.games.carcassonne.choices import has_placement
from domain.games.carcassonne.state import (
    ABBEY_TILE,
    BARN,
    CATEGORIES,
    DELTA,
    END_ABBEY,
    FIGURE,
    FOLLOWERS_PER_PLAYER,
    MAYOR,
    OVER,
    PLACE,
    START,
    WAGON,
    WAGON_MOVE,
    CarcState,
    pos_of,
    xy_of,
)
from domain.games.carcassonne.tiles import (
    ABBEY,
    ABBEY_OT,
    CITY,
    FIELD,
    IS_HOLE,
    OT_CORNER_FIELD,
    OT_EDGES,
    OT_PORT_SEG,
    OT_SIDE_SEG,
    ROAD,
    START_TYPE,
    TILE_TYPES,
)

PHASES = (START, PLACE, FIGURE, WAGON_MOVE, END_ABBEY, OVER)
MAX_REPORTED = 5


def full_tile_set(expansion: bool) -> Counter[int]:
    """Every land tile of the game, the start tile included."""
    return Counter(
        {t.index: t.count for t in TILE_TYPES if t.index != ABBEY and (expansion or t.expansion == "base")}
    )


def unseen_tiles(st: CarcState) -> list[int]:
    """The land tiles nobody has seen yet, sorted: the public content of the face-down pile.

    Computed from public facts only (the tile set, the board, the discards and the drawn tile), so
    it never looks at the pile itself.
    """
    left = full_tile_set(st.expansion)
    for ot in st.t_ot:
        if ot != ABBEY_OT:
            left[ot >> 2] -= 1
    for tile in st.discarded:
        left[tile] -= 1
    if st.tile >= 0:
        left[st.tile] -= 1
    return sorted(left.elements())


def check_invariants(st: CarcState) -> list[str]:
    problems: list[str] = []
    for check in (_counts, _tiles, _board, _features, _figures, _flow):
        try:
            found = check(st)
        except (IndexError, KeyError, TypeError, ValueError, AttributeError) as exc:
            found = [f"{check.__name__.strip('_')} check failed on a malformed state: {exc!r}"]
        problems.extend(found[:MAX_REPORTED])
    return problems


def _counts(st: CarcState) -> list[str]:
    out = []
    n = st.players
    if not (len(st.scores) == len(st.breakdown) == len(st.supply) == n):
        return [
            f"{n} players but {len(st.scores)} scores, {len(st.breakdown)} breakdowns, "
            f"{len(st.supply)} supplies"
        ]
    for seat in range(n):
        if st.scores[seat] < 0:
            out.append(f"seat {seat} has a negative score {st.scores[seat]}")
        parts = st.breakdown[seat]
        if any(parts.get(c, 0) < 0 for c in CATEGORIES) or set(parts) != set(CATEGORIES):
            out.append(f"seat {seat} has a malformed score breakdown {parts}")
        elif sum(parts.values()) != st.scores[seat]:
            out.append(
                f"seat {seat} scores {st.scores[seat]} but its breakdown sums to {sum(parts.values())}"
            )
        if len(st.supply[seat]) != 5 or any(v < 0 for v in st.supply[seat]):
            out.append(f"seat {seat} has a negative or malformed supply {st.supply[seat]}")
    return out


def _tiles(st: CarcState) -> list[str]:
    accounted = Counter(ot >> 2 for ot in st.t_ot if ot != ABBEY_OT)
    accounted.update(st.discarded)
    accounted.update(st.pile)
    if st.tile >= 0:
        accounted[st.tile] += 1
    expected = full_tile_set(st.expansion)
    out = []
    for tile in sorted(set(accounted) | set(expected)):
        if accounted[tile] != expected[tile]:
            out.append(
                f"tile {TILE_TYPES[tile].id}: {accounted[tile]} accounted for (board, "
                f"discards, pile, drawn) instead of {expected[tile]}"
            )
    if not st.t_ot or st.t_ot[0] != START_TYPE * 4 or st.t_pos[0] != pos_of(0, 0):
        out.append("the start tile is not the first tile, at (0, 0) city north")
    return out


def _board(st: CarcState) -> list[str]:
    out = []
    if not (len(st.t_pos) == len(st.t_ot) == len(st.tbase)):
        return [f"{len(st.t_pos)} positions, {len(st.t_ot)} tiles, {len(st.tbase)} segment bases"]
    if len(st.board) != len(st.t_pos):
        out.append(f"{len(st.t_pos)} tiles placed on {len(st.board)} squares (two on one square?)")
    board, t_ot = st.board, st.t_ot
    for idx, pos in enumerate(st.t_pos):
        if board.get(pos) != idx:
            out.append(f"tile {idx} at {xy_of(pos)} is not on the board map")
            continue
        ot = t_ot[idx]
        if ot == ABBEY_OT:
            if any(pos + d not in board for d in DELTA):
                out.append(f"abbey at {xy_of(pos)} is not in a hole")
            continue
        edges = OT_EDGES[ot]
        for s in (1, 2):  # east and south: every shared side is seen once
            j = board.get(pos + DELTA[s])
            if j is not None and t_ot[j] != ABBEY_OT and OT_EDGES[t_ot[j]][(s + 2) & 3] != edges[s]:
                out.append(f"tiles at {xy_of(pos)} and {xy_of(pos + DELTA[s])} do not match")
    holes = 0
    for pos, code in st.frontier.items():
        if pos in board:
            out.append(f"frontier square {xy_of(pos)} is already covered")
        holes += IS_HOLE[code]
    if holes != st.holes:
        out.append(f"hole counter says {st.holes}, the frontier has {holes}")
    return out


def _features(st: CarcState) -> list[str]:
    """Recount every feature from the tiles alone and compare with the union-find."""
    n = len(st.parent)
    if not (len(st.size) == len(st.kind) == len(st.opens) == len(st.figs) == len(st.stile) == n):
        return ["segment arrays have different lengths"]
    comp = list(range(n))
    opens = [0] * n
    board, t_ot, tbase = st.board, st.t_ot, st.tbase
    for idx, pos in enumerate(st.t_pos):
        ot = t_ot[idx]
        if ot == ABBEY_OT:
            continue
        base = tbase[idx]
        side_seg, port_seg = OT_SIDE_SEG[ot], OT_PORT_SEG[ot]
        for s in range(4):
            j = board.get(pos + DELTA[s])
            seg = side_seg[s]
            if j is None:
                if seg >= 0:
                    opens[base + seg] += 1
                continue
            if s == 0 or s == 3 or t_ot[j] == ABBEY_OT:
                continue  # joins are made from the east and south sides only
            n_ot, nb = t_ot[j], tbase[j]
            pairs = [(base + seg, nb + OT_SIDE_SEG[n_ot][(s + 2) & 3])] if seg >= 0 else []
            n_ports = OT_PORT_SEG[n_ot]
            for p in (2 * s, 2 * s + 1):
                if port_seg[p] >= 0:
                    pairs.append((base + port_seg[p], nb + n_ports[((p + 4) & 7) ^ 1]))
            for a, b in pairs:
                comp[_root(comp, a)] = _root(comp, b)
    engine_root_of = [-1] * n
    members = [0] * n
    open_count = [0] * n
    squares: dict[int, set[int]] = {}
    out = []
    parent, kind, stile, t_pos = st.parent, st.kind, st.stile, st.t_pos
    for g in range(n):
        mine = _root(comp, g)
        theirs = find(parent, g)
        members[theirs] += 1
        if kind[g] == ROAD or kind[g] == CITY:
            open_count[theirs] += opens[g]
            squares.setdefault(theirs, set()).add(t_pos[stile[g]])
        if engine_root_of[mine] < 0:
            engine_root_of[mine] = theirs
        elif engine_root_of[mine] != theirs:
            out.append(f"segment {g} is split from a feature it joins on the board")
    roots = [r for r in engine_root_of if r >= 0]
    if len(set(roots)) != len(roots):
        out.append("two separate features share one union-find root")
    for r in roots:
        if st.size[r] != members[r]:
            out.append(f"feature {r} has size {st.size[r]} but {members[r]} segments")
        if kind[r] == ROAD or kind[r] == CITY:
            if st.opens[r] != open_count[r]:
                out.append(f"feature {r} counts {st.opens[r]} open edges, the board shows {open_count[r]}")
            if st.ftiles[r] != squares[r]:
                out.append(f"feature {r} records other tiles than the ones it spans")
    return out


def _root(comp: list[int], x: int) -> int:
    while comp[x] != x:
        comp[x] = comp[comp[x]]
        x = comp[x]
    return x


def _figures(st: CarcState) -> list[str]:
    out = []
    extra = 1 if st.expansion else 0
    on_board = [[0, 0, 0, 0] for _ in range(st.players)]
    listed: Counter[int] = Counter()
    parent = st.parent
    for r, fids in enumerate(st.figs):
        if fids:
            if parent[r] != r:
                out.append(f"segment {r} lists figures but is not a feature root")
            listed.update(fids)
    for fid, (owner, kind, idx, local, corner) in st.figures.items():
        if not (0 <= owner < st.players and 0 <= kind <= BARN and 0 <= idx < len(st.t_ot)):
            out.append(f"figure {fid} is malformed: {st.figures[fid]}")
            continue
        on_board[owner][kind] += 1
        kinds = TILE_TYPES[st.t_ot[idx] >> 2].kinds
        if not 0 <= local < len(kinds):
            out.append(f"figure {fid} stands on a missing segment {local}")
            continue
        feature = kinds[local]
        if (
            (kind == MAYOR and feature != CITY)
            or (kind == WAGON and feature == FIELD)
            or (kind == BARN and feature != FIELD)
        ):
            out.append(f"figure {fid} ({kind}) stands on a feature of kind {feature}")
        if kind == BARN and (not 0 <= corner < 4 or OT_CORNER_FIELD[st.t_ot[idx]][corner] != local):
            out.append(f"barn {fid} is not on a field corner")
        if listed[fid] != 1 or fid not in st.figs[find(st.parent, st.tbase[idx] + local)]:
            out.append(f"figure {fid} is not listed exactly once, on its own feature")
        if st.phase not in (FIGURE, OVER) and kind != BARN and feature != FIELD:
            root = find(st.parent, st.tbase[idx] + local)
            if is_complete(st, root) and not (kind == WAGON and fid in st.wagon_queue):
                out.append(f"figure {fid} still stands on a completed feature")
    if set(listed) - set(st.figures):
        out.append(f"unknown figures listed on features: {sorted(set(listed) - set(st.figures))}")
    for seat in range(st.players):
        totals = [st.supply[seat][k] + on_board[seat][k] for k in range(4)]
        if totals != [FOLLOWERS_PER_PLAYER, extra, extra, extra]:
            out.append(
                f"seat {seat} owns {totals} followers/mayor/wagon/barn in supply and on "
                f"the board instead of {[FOLLOWERS_PER_PLAYER, extra, extra, extra]}"
            )
    abbeys = sum(1 for ot in st.t_ot if ot == ABBEY_OT) + sum(s[ABBEY_TILE] for s in st.supply)
    if abbeys != (st.players if st.expansion else 0):
        out.append(f"{abbeys} abbeys in play for {st.players} players")
    return out


def _flow(st: CarcState) -> list[str]:
    out = []
    phase = st.phase
    if phase not in PHASES:
        return [f"unknown phase {phase!r}"]
    if not 0 <= st.active < st.players:
        out.append(f"active seat {st.active} out of range")
    if phase == PLACE and (st.tile < 0 or not has_placement(st, st.tile)):
        out.append("a tile must be placed but none placeable is drawn")
    if phase != PLACE and st.tile >= 0:
        out.append(f"a drawn tile is held in phase {phase}")
    if phase == FIGURE and not 0 <= st.placed < len(st.t_pos):
        out.append("the figure step has no placed tile")
    if phase == WAGON_MOVE:
        if not st.wagon_queue:
            out.append("a wagon must move but none is queued")
        elif any(st.figures.get(f, [0, -1])[1] != WAGON for f in st.wagon_queue):
            out.append(f"the wagon queue holds something else than wagons: {st.wagon_queue}")
    elif st.wagon_queue:
        out.append(f"wagons are queued in phase {phase}")
    if phase == START and not (st.supply[st.active][ABBEY_TILE] and st.holes):
        out.append("the abbey is offered without an abbey or a hole")
    if phase == END_ABBEY and not st.in_end_round:
        out.append("the end abbey round is asked outside the end round")
    if phase == OVER and st.pile:
        out.append(f"the game is over with {len(st.pile)} tiles left in the pile")
    return out
