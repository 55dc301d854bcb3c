"""What a seat (or a spectator) may see, and the prompts of the decisions.

Behind a screen: cubes, law cards in hand, bought building tiles ("placez-la derrière votre
écran") and spare workers; a seat sees only its own, the others only how many tiles each
bought, until the end of the game shows every tile and total. (A purchase itself happens in the
open: the ``tile_bought`` event says which tile left the mat, as everyone at a table sees it.) Face-down
building tiles show their value only; face-down law cards show only that a card is there.
Transactions with the store, the craftsmen and other players happen in the open, so events may
name the colours paid; the running holdings stay hidden.
"""

from __future__ import annotations

from domain.engine import JSON
from domain.games.keythedral import market
from domain.games.keythedral.data import COLOURS, CRAFTS, FIELD_TYPES, ROW_VALUES, TILES, law_id
from domain.games.keythedral.scoring import tile_points
from domain.games.keythedral.state import State

PROMPTS = {
    "lay_field": "Lay the field tile you drew next to a field, cottage or the Keythedral.",
    "lay_cottage": "Lay one of your cottages in an empty gap next to a field.",
    "work_order": "Place the next work-order marker on a free number.",
    "place_workers": "Place the worker(s) of this cottage or house on free adjacent fields.",
    "harvest_colour": "Choose the colour of a cube from your chosen field type.",
    "action": "Take one action, play a law card, or pass.",
    "pay_tile": "Choose exactly which cubes you pay for the building tile.",
    "pay": "Choose which cubes you pay.",
    "pay_colour": "Choose how many cubes of this colour you pay.",
    "take_cube": "Choose a resource cube from the store.",
    "keytown": "Visit a craftsman, the Trader or the Law Master.",
    "choose_house": "Choose the cottage that becomes a house.",
    "fence": "Build one of your fences on a free slot, or remove a fence.",
    "replace_cottage": "Your fenced-in cottage must move: choose its new gap.",
    "law_window": "Every seat holding law cards may play one now, or pass.",
    "bid": "Bid cubes for the right to choose the next start player, or pass (0).",
    "choose_start": "Name the new start player.",
}
"""The English prompt of each decision kind, addressed to whoever decides (``Decision.seats``
says who): no seat number in the text, like every translation (``prompt.<kind>``)."""


def cube_map(counts: list[int]) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(counts)}


PHASES = ("setup", "work_order", "harvest", "actions", "new_laws", "start_player")
"""Phase names by phase number (0 = laying the field tiles), as the static data lists them."""


def own_tiles(st: State, seat: int) -> list[JSON]:
    return [{"id": TILES[t].id, "value": TILES[t].value} for t in st.bought[seat]]


def view_state(st: State, viewer: int | None) -> dict[str, JSON]:
    """The decision and the legal choices are not repeated here: they are the game's top-level
    ``decision`` and ``GET /v1/games/{id}/choices``."""
    fx = st.fx
    rows: list[JSON] = []
    for r, tiles in enumerate(st.rows):
        up = st.face_up(r)
        rows.append(
            {
                "value": ROW_VALUES[r],
                "face_up": up,
                "tiles": [market.tile_public(st, t) if up else {"value": ROW_VALUES[r]} for t in tiles],
                "unused": len(st.pools[r]),
            }
        )
    players = []
    for s in range(st.players):
        player: dict[str, JSON] = {
            "seat": s,
            "tiles_bought": len(st.bought[s]),
            "law_cards": len(st.hands[s]),
            "fences_left": st.fences_left[s],
            "procured_law": st.out[s] if st.phase == 3 else False,
            "cottages": [
                {
                    "number": i + 1,
                    "x": None if pos is None else pos[0],
                    "y": None if pos is None else pos[1],
                    "house": st.house[s][i],
                }
                for i, pos in enumerate(st.cottage_pos[s])
            ],
        }
        if st.over:  # the screens come down: every player's tiles and their total
            player["tiles"] = own_tiles(st, s)
            player["tile_points"] = tile_points(st, s)
        players.append(player)
    data: dict[str, JSON] = {
        "round": st.round,
        "phase": PHASES[st.phase],
        "phase_number": st.phase,
        "start_player": st.start,
        "over": st.over,
        "options": {
            "length": st.length,
            "face_up_tiles": st.face_up_tiles,
            "law_cards_face_up": st.law_cards_face_up,
            "optional_placement": st.optional_placement,
        },
        "keythedral": [0, 0],
        "fields": [{"x": x, "y": y, "field": FIELD_TYPES[k]} for (x, y), k in st.fields.items()],
        "field_stack": len(st.field_stack),
        "fences": [
            {"gx": a, "gy": b, "fx": c, "fy": d, "seat": o} for (a, b, c, d), o in sorted(st.fences.items())
        ],
        "workers": [{"x": x, "y": y, "seat": s} for (x, y), s in sorted(st.workers.items())],
        "work_order": list(st.markers),
        "store": cube_map(st.store),
        "craftsmen": {COLOURS[c]: st.craftsmen[i] for i, c in enumerate(CRAFTS)},
        "rows": rows,
        "laws": {
            "deck": len(st.deck),
            "spaces": [
                {"filled": bool(card), "card": law_id(card) if card and st.law_cards_face_up else None}
                for card in st.spaces
            ],
            "played": [law_id(c) for c in st.discard],
        },
        "effects": {
            "work_order_by": None if fx.work_order < 0 else fx.work_order,
            "right_of_way": list(fx.right_of_way),
            "building_restriction_by": None if fx.restriction < 0 else fx.restriction,
            "bumper_harvest": FIELD_TYPES[fx.bumper] if fx.bumper >= 0 else None,
            "blight": FIELD_TYPES[fx.blight] if fx.blight >= 0 else None,
            "choice_of_harvest": [FIELD_TYPES[t] if t >= 0 else None for t in fx.harvest_choice],
            "hard_worker": [None if h is None else list(h) for h in fx.hard_worker],
            "renumbered": [None if r is None else list(r) for r in fx.renumber],
        },
        "turn": {"seat": st.cur, "passes": st.streak} if st.phase == 3 else None,
        "players": players,
    }
    if viewer is not None:
        data["you"] = {
            "seat": viewer,
            "cubes": cube_map(st.cubes[viewer]),
            "law_cards": [law_id(c) for c in sorted(st.hands[viewer])],
            "tiles": own_tiles(st, viewer),
            "tile_points": tile_points(st, viewer),
        }
    return data
