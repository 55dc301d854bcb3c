"""State changes, each with its public event: laying a tile or the abbey, putting a figure on the
tile just placed, moving a wagon or sending it home. Scorings live in ``scoring``; what comes next
in the turn in ``flow``.
"""

from __future__ import annotations

from domain.engine import JSON, Event
from domain.games.carcassonne.board import find, place_tile
from domain.games.carcassonne.scoring import return_figure
from domain.games.carcassonne.state import (
    BARN,
    FIGURE_BY_NAME,
    NO_CORNER,
    NO_TILE,
    SUPPLY_ABBEY,
    Figure,
    State,
    xy_of,
)
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CORNER_NAMES,
    OT_CORNER_FIELD,
    OT_TILE,
    quarter_turns,
)


def lay_tile(st: State, square: int, ot: int, events: list[Event]) -> None:
    """The active seat lays a land tile (the drawn one) or its abbey on ``square``."""
    st.placed_tile = place_tile(st, square, ot)
    x, y = xy_of(square)
    if ot == ABBEY_OT:
        st.supply[st.active][SUPPLY_ABBEY] -= 1
        events.append(Event("abbey_placed", {"seat": st.active, "x": x, "y": y}))
    else:
        st.last_placer = st.active
        events.append(
            Event(
                "tile_placed",
                {
                    "seat": st.active,
                    "tile": OT_TILE[ot].id,
                    "x": x,
                    "y": y,
                    "rotation": quarter_turns(ot) * 90,
                },
            )
        )
    st.drawn_tile = NO_TILE


def put_figure(st: State, figure: str, segment: int, corner: str | None, events: list[Event]) -> int:
    """The active seat puts a figure on a segment (a barn: on a corner) of the tile it just
    placed; returns the figure's id."""
    seat = st.active
    idx = st.placed_tile
    kind = FIGURE_BY_NAME[figure]
    if kind == BARN:
        assert corner is not None
        at = CORNER_NAMES.index(corner)
        segment = OT_CORNER_FIELD[st.oriented_tiles[idx]][at]
    else:
        at = NO_CORNER
    fid = st.next_figure_id
    st.next_figure_id += 1
    st.figures[fid] = Figure(seat, kind, idx, segment, at)
    st.supply[seat][kind] -= 1
    root = find(st.parent, st.first_segments[idx] + segment)
    st.feature_figures[root].append(fid)
    x, y = xy_of(st.tile_squares[idx])
    data: dict[str, JSON] = {"id": fid, "seat": seat, "figure": figure, "x": x, "y": y, "feature_id": root}
    if kind == BARN:
        data["corner"] = corner
    else:
        data["segment"] = segment
    events.append(Event("figure_placed", data))
    return fid


def move_wagon(st: State, square: int, segment: int, events: list[Event]) -> None:
    """The first queued wagon moves to ``segment`` of the tile on ``square``."""
    fid = st.wagon_queue.pop(0)
    wagon = st.figures[fid]
    st.feature_figures[find(st.parent, st.first_segments[wagon.tile] + wagon.segment)].remove(fid)
    j = st.tile_at[square]
    st.figures[fid] = wagon._replace(tile=j, segment=segment)
    root = find(st.parent, st.first_segments[j] + segment)
    st.feature_figures[root].append(fid)
    x, y = xy_of(square)
    events.append(
        Event(
            "wagon_moved",
            {"id": fid, "seat": wagon.owner, "x": x, "y": y, "segment": segment, "feature_id": root},
        )
    )


def return_wagon(st: State, events: list[Event]) -> None:
    """The first queued wagon goes back to its owner's supply."""
    send_wagon_home(st, st.wagon_queue.pop(0), events)


def send_wagon_home(st: State, fid: int, events: list[Event]) -> None:
    owner = st.figures[fid].owner
    return_figure(st, fid)
    events.append(Event("wagon_returned", {"id": fid, "seat": owner}))
