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
    BARN,
    CATEGORIES,
    DELTA,
    END_ABBEY,
    FIGURE,
    FOLLOWERS_PER_PLAYER,
    MAYOR,
    NO_TILE,
    OVER,
    PLACE,
    START,
    SUPPLY_ABBEY,
    WAGON,
    WAGON_MOVE,
    State,
    square_of,
    xy_of,
)
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CITY,
    FIELD,
    IS_HOLE,
    OT_CORNER_FIELD,
    OT_EDGES,
    OT_PORT_SEG,
    OT_SIDE_SEG,
    OT_TILE,
    ROAD,
    START_TYPE,
    TILE_TYPES,
    full_tile_set,
    oriented,
    tile_type,
)

PHASES = (START, PLACE, FIGURE, WAGON_MOVE, END_ABBEY, OVER)
MAX_REPORTED = 5


def check_invariants(st: State) -> list[str]:
    problems: list[str] = []
    for check in (_counts, _tiles, _board, _features, _figures, _flow):
        try:
            found = check(st)
        except (IndexError, KeyError, TypeError, ValueError, AttributeError) as exc:
            found = [f"{check.__name__.strip('_')} check failed on a malformed state: {exc!r}"]
        problems.extend(found[:MAX_REPORTED])
    return problems


def _counts(st: State) -> list[str]:
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


def _tiles(st: State) -> list[str]:
    accounted = Counter(tile_type(ot) for ot in st.oriented_tiles if ot != ABBEY_OT)
    accounted.update(st.discarded)
    accounted.update(st.pile)
    if st.drawn_tile != NO_TILE:
        accounted[st.drawn_tile] += 1
    expected = full_tile_set(st.expansion)
    out = []
    for tile in sorted(set(accounted) | set(expected)):
        if accounted[tile] != expected[tile]:
            out.append(
                f"tile {TILE_TYPES[tile].id}: {accounted[tile]} accounted for (board, "
                f"discards, pile, drawn) instead of {expected[tile]}"
            )
    start = oriented(START_TYPE, 0)
    if not st.oriented_tiles or st.oriented_tiles[0] != start or st.tile_squares[0] != square_of(0, 0):
        out.append("the start tile is not the first tile, at (0, 0) city north")
    return out


def _board(st: State) -> list[str]:
    out = []
    if not (len(st.tile_squares) == len(st.oriented_tiles) == len(st.first_segments)):
        return [
            f"{len(st.tile_squares)} squares, {len(st.oriented_tiles)} tiles, "
            f"{len(st.first_segments)} first segments"
        ]
    if len(st.tile_at) != len(st.tile_squares):
        out.append(f"{len(st.tile_squares)} tiles placed on {len(st.tile_at)} squares (two on one square?)")
    tile_at, oriented_tiles = st.tile_at, st.oriented_tiles
    for idx, square in enumerate(st.tile_squares):
        if tile_at.get(square) != idx:
            out.append(f"tile {idx} at {xy_of(square)} is not on the board map")
            continue
        ot = oriented_tiles[idx]
        if ot == ABBEY_OT:
            if any(square + d not in tile_at for d in DELTA):
                out.append(f"abbey at {xy_of(square)} is not in a hole")
            continue
        edges = OT_EDGES[ot]
        for side in (1, 2):  # east and south: every shared side is seen once
            j = tile_at.get(square + DELTA[side])
            if (
                j is not None
                and oriented_tiles[j] != ABBEY_OT
                and OT_EDGES[oriented_tiles[j]][(side + 2) & 3] != edges[side]
            ):
                out.append(f"tiles at {xy_of(square)} and {xy_of(square + DELTA[side])} do not match")
    holes = 0
    for square, code in st.frontier.items():
        if square in tile_at:
            out.append(f"frontier square {xy_of(square)} is already covered")
        holes += IS_HOLE[code]
    if holes != st.holes:
        out.append(f"hole counter says {st.holes}, the frontier has {holes}")
    return out


def _features(st: State) -> list[str]:
    """Recount every feature from the tiles alone and compare with the union-find."""
    n = len(st.parent)
    if not (
        len(st.size)
        == len(st.segment_kinds)
        == len(st.open_edges)
        == len(st.feature_figures)
        == len(st.segment_tiles)
        == n
    ):
        return ["segment arrays have different lengths"]
    comp = list(range(n))
    open_sides = [0] * n  # per segment: its sides facing an empty square
    tile_at, oriented_tiles, first_segments = st.tile_at, st.oriented_tiles, st.first_segments
    for idx, square in enumerate(st.tile_squares):
        ot = oriented_tiles[idx]
        if ot == ABBEY_OT:
            continue
        base = first_segments[idx]
        side_segment, port_segment = OT_SIDE_SEG[ot], OT_PORT_SEG[ot]
        for side in range(4):
            neighbour = tile_at.get(square + DELTA[side])
            segment = side_segment[side]
            if neighbour is None:
                if segment >= 0:
                    open_sides[base + segment] += 1
                continue
            if side == 0 or side == 3 or oriented_tiles[neighbour] == ABBEY_OT:
                continue  # joins are made from the east and south sides only
            their_ot, their_base = oriented_tiles[neighbour], first_segments[neighbour]
            pairs = (
                [(base + segment, their_base + OT_SIDE_SEG[their_ot][(side + 2) & 3])] if segment >= 0 else []
            )
            their_ports = OT_PORT_SEG[their_ot]
            for port in (2 * side, 2 * side + 1):
                if port_segment[port] >= 0:
                    pairs.append((base + port_segment[port], their_base + their_ports[((port + 4) & 7) ^ 1]))
            for a, b in pairs:
                comp[_root(comp, a)] = _root(comp, b)
    engine_root_of = [-1] * n
    members = [0] * n
    open_count = [0] * n
    squares: dict[int, set[int]] = {}
    out = []
    parent, segment_kinds = st.parent, st.segment_kinds
    segment_tiles, tile_squares = st.segment_tiles, st.tile_squares
    for g in range(n):
        mine = _root(comp, g)
        theirs = find(parent, g)
        members[theirs] += 1
        if segment_kinds[g] == ROAD or segment_kinds[g] == CITY:
            open_count[theirs] += open_sides[g]
            squares.setdefault(theirs, set()).add(tile_squares[segment_tiles[g]])
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
        if segment_kinds[r] == ROAD or segment_kinds[r] == CITY:
            if st.open_edges[r] != open_count[r]:
                out.append(
                    f"feature {r} counts {st.open_edges[r]} open edges, the board shows {open_count[r]}"
                )
            if st.feature_squares[r] != squares[r]:
                out.append(f"feature {r} records other tiles than the ones it spans")
    return out


def _root(comp: list[int], x: int) -> int:
    while comp[x] != x:
        comp[x] = comp[comp[x]]
        x = comp[x]
    return x


def _figures(st: State) -> list[str]:
    out = []
    extra = 1 if st.expansion else 0
    on_board = [[0, 0, 0, 0] for _ in range(st.players)]
    listed: Counter[int] = Counter()
    parent = st.parent
    for r, fids in enumerate(st.feature_figures):
        if fids:
            if parent[r] != r:
                out.append(f"segment {r} lists figures but is not a feature root")
            listed.update(fids)
    for fid, (owner, kind, idx, local, corner) in st.figures.items():
        if not (0 <= owner < st.players and 0 <= kind <= BARN and 0 <= idx < len(st.oriented_tiles)):
            out.append(f"figure {fid} is malformed: {st.figures[fid]}")
            continue
        on_board[owner][kind] += 1
        kinds = OT_TILE[st.oriented_tiles[idx]].kinds
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
        if kind == BARN and (not 0 <= corner < 4 or OT_CORNER_FIELD[st.oriented_tiles[idx]][corner] != local):
            out.append(f"barn {fid} is not on a field corner")
        if listed[fid] != 1 or fid not in st.feature_figures[find(st.parent, st.first_segments[idx] + local)]:
            out.append(f"figure {fid} is not listed exactly once, on its own feature")
        if st.phase not in (FIGURE, OVER) and kind != BARN and feature != FIELD:
            root = find(st.parent, st.first_segments[idx] + local)
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
    abbeys = sum(1 for ot in st.oriented_tiles if ot == ABBEY_OT) + sum(s[SUPPLY_ABBEY] for s in st.supply)
    if abbeys != (st.players if st.expansion else 0):
        out.append(f"{abbeys} abbeys in play for {st.players} players")
    return out


def _flow(st: State) -> list[str]:
    out = []
    phase = st.phase
    if phase not in PHASES:
        return [f"unknown phase {phase!r}"]
    if not 0 <= st.active < st.players:
        out.append(f"active seat {st.active} out of range")
    if phase == PLACE and (st.drawn_tile == NO_TILE or not has_placement(st, st.drawn_tile)):
        out.append("a tile must be placed but none placeable is drawn")
    if phase != PLACE and st.drawn_tile != NO_TILE:
        out.append(f"a drawn tile is held in phase {phase}")
    if phase == FIGURE and not 0 <= st.placed_tile < len(st.tile_squares):
        out.append("the figure step has no placed tile")
    if phase == WAGON_MOVE:
        if not st.wagon_queue:
            out.append("a wagon must move but none is queued")
        elif any(f not in st.figures or st.figures[f].kind != WAGON for f in st.wagon_queue):
            out.append(f"the wagon queue holds something else than wagons: {st.wagon_queue}")
    elif st.wagon_queue:
        out.append(f"wagons are queued in phase {phase}")
    if phase == START and not (st.supply[st.active][SUPPLY_ABBEY] and st.holes):
        out.append("the abbey is offered without an abbey or a hole")
    if phase == END_ABBEY and not st.in_end_round:
        out.append("the end abbey round is asked outside the end round")
    if phase == OVER and st.pile:
        out.append(f"the game is over with {len(st.pile)} tiles left in the pile")
    return out
