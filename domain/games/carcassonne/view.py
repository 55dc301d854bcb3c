"""What a seat (or a spectator) may see, and the prompts of the decisions.

The whole board is public (the pile order is not): the view is the same for every viewer.
"""

from __future__ import annotations

from domain.engine import JSON
from domain.games.carcassonne.board import find, is_complete
from domain.games.carcassonne.state import FIGURE_NAMES, NO_CORNER, NO_TILE, SUPPLY_NAMES, State, xy_of
from domain.games.carcassonne.tiles import (
    CLOISTER,
    CORNER_NAMES,
    FIELD,
    KIND_NAMES,
    OT_SEG_PLACES,
    OT_TILE,
    PORT_NAMES,
    SIDE_NAMES,
    TILE_TYPES,
    quarter_turns,
)

PROMPTS = {
    "abbey_or_draw": "Place your abbey in a hole, or draw a land tile.",
    "place_tile": "Place the drawn tile.",
    "place_figure": "Place a figure on the tile you just placed, or none.",
    "move_wagon": "Move your wagon to a nearby unfinished, unoccupied feature, or take it back.",
    "end_abbey": "Last chance to place your abbey.",
}
"""The English prompt of each decision kind (clients show ``prompt.<kind>`` in their language)."""


def view_state(st: State, viewer: int | None) -> dict[str, JSON]:
    """Every segment of every placed tile names its feature (``features``: the feature id of
    each segment, in the tile type's segment order); ``features`` lists them with their kind
    and whether they are complete; figures say which feature they stand on."""
    parent = st.parent
    board: list[JSON] = []
    for idx, (square, ot) in enumerate(zip(st.tile_squares, st.oriented_tiles, strict=True)):
        x, y = xy_of(square)
        base = st.first_segments[idx]
        tile = OT_TILE[ot]
        board.append(
            {
                "x": x,
                "y": y,
                "tile": tile.id,
                "rotation": quarter_turns(ot) * 90,
                "features": [find(parent, base + k) for k in range(len(tile.kinds))],
            }
        )
    features: list[JSON] = [
        {"id": g, "kind": KIND_NAMES[st.segment_kinds[g]], "complete": is_complete(st, g)}
        for g in range(len(parent))
        if parent[g] == g
    ]
    figures: list[JSON] = []
    for fid in sorted(st.figures):
        fig = st.figures[fid]
        x, y = xy_of(st.tile_squares[fig.tile])
        item: dict[str, JSON] = {
            "id": fid,
            "seat": fig.owner,
            "figure": FIGURE_NAMES[fig.kind],
            "x": x,
            "y": y,
            "segment": fig.segment,
            "feature": KIND_NAMES[OT_TILE[st.oriented_tiles[fig.tile]].kinds[fig.segment]],
            "feature_id": find(parent, st.first_segments[fig.tile] + fig.segment),
            "corner": CORNER_NAMES[fig.corner] if fig.corner != NO_CORNER else None,
            "pending_move": fid in st.wagon_queue,
        }
        figures.append(item)
    placed: JSON = None
    if st.placed_tile != NO_TILE:
        placed = tile_segments(st.oriented_tiles[st.placed_tile])
    return {
        "phase": st.phase,
        "active": st.active,
        "turn": st.turn,
        "options": dict(st.options),
        "pile_count": len(st.pile),
        "tile": TILE_TYPES[st.drawn_tile].id if st.drawn_tile != NO_TILE else None,
        "board": board,
        "features": features,
        "placed_tile_segments": placed,
        "figures": figures,
        "discarded": [TILE_TYPES[t].id for t in st.discarded],
        "players": [
            {
                "seat": seat,
                "score": st.scores[seat],
                "breakdown": dict(st.breakdown[seat]),
                "supply": dict(zip(SUPPLY_NAMES, st.supply[seat], strict=True)),
            }
            for seat in range(st.players)
        ],
    }


def tile_segments(ot: int) -> list[JSON]:
    """The segments of an oriented tile, as a client needs them to read figure choices: a field
    by its ports, a road or city by its sides, a cloister by nothing more."""
    tile = OT_TILE[ot]
    out: list[JSON] = []
    for local, kind in enumerate(tile.kinds):
        places = OT_SEG_PLACES[ot][local]
        item: dict[str, JSON] = {"segment": local, "feature": KIND_NAMES[kind]}
        if kind == FIELD:
            item["ports"] = [PORT_NAMES[p] for p in places]
        elif kind != CLOISTER:
            item["sides"] = [SIDE_NAMES[s] for s in places]
        out.append(item)
    return out
