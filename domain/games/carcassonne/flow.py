"""Turn flow: drawing, placing, figures, scoring steps, wagon moves, the end of the game."""

from __future__ import annotations

from domain.engine import Event
from domain.games.carcassonne.board import find, neighbours_filled, place_tile
from domain.games.carcassonne.choices import figure_choices, has_placement, wagon_targets
from domain.games.carcassonne.scoring import (
    final_scoring,
    has_barn,
    return_figure,
    score_completed,
    score_field_now,
)
from domain.games.carcassonne.state import (
    ABBEY_TILE,
    BARN,
    DELTA,
    END_ABBEY,
    FIGURE,
    FIGURE_NAMES,
    NINE,
    OVER,
    PLACE,
    START,
    WAGON_MOVE,
    CarcState,
    xy_of,
)
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CITY,
    FIELD,
    IS_HOLE,
    OT_CORNER_FIELD,
    OT_SIDE_SEG,
    ROAD,
    TILE_TYPES,
)

CORNERS = ("NW", "NE", "SE", "SW")


def start_turn(st: CarcState, seat: int, events: list[Event]) -> None:
    st.active = seat
    st.turn += 1
    st.tile = -1
    st.placed = -1
    if st.expansion and st.supply[seat][ABBEY_TILE] and st.holes:
        st.phase = START
        return
    draw(st, events)


def draw(st: CarcState, events: list[Event]) -> None:
    """Draw until a placeable tile turns up; unplaceable tiles leave the game."""
    pile = st.pile
    while pile:
        tile = pile.pop()
        if has_placement(st, tile):
            st.tile = tile
            st.phase = PLACE
            events.append(
                Event("tile_drawn", {"seat": st.active, "tile": TILE_TYPES[tile].id, "pile": len(pile)})
            )
            return
        st.discarded.append(tile)
        events.append(
            Event("tile_discarded", {"seat": st.active, "tile": TILE_TYPES[tile].id, "pile": len(pile)})
        )
    end_of_tiles(st, events)


def put_tile(st: CarcState, pos: int, ot: int, events: list[Event]) -> None:
    """Place a land tile or the abbey, then offer the figure step (or skip it)."""
    idx = place_tile(st, pos, ot)
    st.placed = idx
    x, y = xy_of(pos)
    if ot == ABBEY_OT:
        st.supply[st.active][ABBEY_TILE] -= 1
        events.append(Event("abbey_placed", {"seat": st.active, "x": x, "y": y}))
    else:
        st.last_placer = st.active
        events.append(
            Event(
                "tile_placed",
                {
                    "seat": st.active,
                    "tile": TILE_TYPES[ot >> 2].id,
                    "x": x,
                    "y": y,
                    "rotation": (ot & 3) * 90,
                },
            )
        )
    st.tile = -1
    choices = figure_choices(st, st.active)
    if len(choices) > 1:
        st.phase = FIGURE
        st.cache = choices
        return
    resolve(st, -1, events)


def put_figure(st: CarcState, figure: str, segment: int, corner: str | None, events: list[Event]) -> int:
    seat = st.active
    idx = st.placed
    kind = FIGURE_NAMES.index(figure)
    if kind == BARN:
        assert corner is not None
        c = CORNERS.index(corner)
        segment = OT_CORNER_FIELD[st.t_ot[idx]][c]
    else:
        c = -1
    fid = st.next_fid
    st.next_fid += 1
    st.figures[fid] = [seat, kind, idx, segment, c]
    st.supply[seat][kind] -= 1
    st.figs[find(st.parent, st.tbase[idx] + segment)].append(fid)
    x, y = xy_of(st.t_pos[idx])
    data: dict[str, object] = {
        "id": fid,
        "seat": seat,
        "figure": figure,
        "x": x,
        "y": y,
        "feature_id": find(st.parent, st.tbase[idx] + segment),
    }
    if kind == BARN:
        data["corner"] = corner
    else:
        data["segment"] = segment
    events.append(Event("figure_placed", data))
    return fid


def resolve(st: CarcState, barn_fid: int, events: list[Event]) -> None:
    """Scoring step of a turn: completed features, barn scorings, then the wagon queue."""
    idx = st.placed
    pos = st.t_pos[idx]
    ot = st.t_ot[idx]
    parent, opens, board, t_ot, tbase = st.parent, st.opens, st.board, st.t_ot, st.tbase
    base = tbase[idx]
    completed: list[int] = []
    if ot == ABBEY_OT:
        for s in range(4):
            k = board[pos + DELTA[s]]
            ns = OT_SIDE_SEG[t_ot[k]][(s + 2) & 3]
            if ns >= 0:
                r = find(parent, tbase[k] + ns)
                if opens[r] == 0 and r not in completed:
                    completed.append(r)
    else:
        for local, kind in enumerate(TILE_TYPES[ot >> 2].kinds):
            if kind in (ROAD, CITY):
                r = find(parent, base + local)
                if opens[r] == 0 and r not in completed:
                    completed.append(r)
    for d in NINE:
        j = board.get(pos + d)
        if j is not None:
            cl = TILE_TYPES[t_ot[j] >> 2].cloister
            if cl >= 0 and neighbours_filled(st, pos + d) == 8:
                completed.append(tbase[j] + cl)
    wagons: list[int] = []
    for root in completed:
        if st.figs[root]:
            wagons.extend(score_completed(st, root, events))
    if barn_fid >= 0:
        fig = st.figures[barn_fid]
        score_field_now(st, find(parent, base + fig[3]), 3, "barn_placed", events)
    if ot != ABBEY_OT:
        for local, kind in enumerate(TILE_TYPES[ot >> 2].kinds):
            if kind == FIELD:
                r = find(parent, base + local)
                if has_barn(st, r):
                    score_field_now(st, r, 1, "barn_connected", events)
    if wagons:
        n, active = st.players, st.active
        wagons.sort(key=lambda f: (st.figures[f][0] - active) % n)
        st.wagon_queue = wagons
    next_wagon(st, events)


def next_wagon(st: CarcState, events: list[Event]) -> None:
    """Ask the next queued wagon owner, sending home wagons with nowhere to go."""
    queue = st.wagon_queue
    while queue:
        fid = queue[0]
        targets = wagon_targets(st, fid)
        if targets:
            st.phase = WAGON_MOVE
            st.cache = targets
            return
        queue.pop(0)
        owner = st.figures[fid][0]
        return_figure(st, fid)
        events.append(Event("wagon_returned", {"id": fid, "seat": owner}))
    end_turn(st, events)


def move_wagon(st: CarcState, pos: int, segment: int, events: list[Event]) -> None:
    fid = st.wagon_queue.pop(0)
    fig = st.figures[fid]
    st.figs[find(st.parent, st.tbase[fig[2]] + fig[3])].remove(fid)
    j = st.board[pos]
    fig[2], fig[3] = j, segment
    root = find(st.parent, st.tbase[j] + segment)
    st.figs[root].append(fid)
    x, y = xy_of(pos)
    events.append(
        Event(
            "wagon_moved", {"id": fid, "seat": fig[0], "x": x, "y": y, "segment": segment, "feature_id": root}
        )
    )


def return_wagon(st: CarcState, events: list[Event]) -> None:
    fid = st.wagon_queue.pop(0)
    owner = st.figures[fid][0]
    return_figure(st, fid)
    events.append(Event("wagon_returned", {"id": fid, "seat": owner}))


def end_turn(st: CarcState, events: list[Event]) -> None:
    st.placed = -1
    if st.in_end_round:
        continue_end_round(st, events)
    elif not st.pile:
        end_of_tiles(st, events)
    else:
        start_turn(st, (st.active + 1) % st.players, events)


def end_of_tiles(st: CarcState, events: list[Event]) -> None:
    """The land tiles are used up: the end-of-game abbey round (if any), then final scoring."""
    st.tile = -1
    if st.expansion and st.options["abbey_end_round"] != "none" and not st.in_end_round:
        st.in_end_round = True
        first = st.last_placer + 1
        st.end_queue = [(first + k) % st.players for k in range(st.players)]
        events.append(Event("abbey_round", {"order": list(st.end_queue)}))
        continue_end_round(st, events)
        return
    finish(st, events)


def continue_end_round(st: CarcState, events: list[Event]) -> None:
    queue = st.end_queue
    while queue:
        seat = queue[0]
        if st.supply[seat][ABBEY_TILE] and st.holes:
            st.active = seat
            if st.holes == 1 and st.options["abbey_end_round"] == "mandatory":
                # a forced abbey with a single hole is placed without asking
                queue.pop(0)
                hole = next(pos for pos, code in st.frontier.items() if IS_HOLE[code])
                put_tile(st, hole, ABBEY_OT, events)
                return
            st.phase = END_ABBEY
            return
        queue.pop(0)
    finish(st, events)


def finish(st: CarcState, events: list[Event]) -> None:
    final_scoring(st, events)
    st.phase = OVER
    st.tile = -1
    st.placed = -1
    events.append(Event("final_scoring", {"scores": list(st.scores)}))


def figure_counts(st: CarcState, seat: int) -> list[int]:
    """Figures of a seat on the board, by kind (for invariant checks)."""
    counts = [0, 0, 0, 0]
    for fig in st.figures.values():
        if fig[0] == seat:
            counts[fig[1]] += 1
    return counts
