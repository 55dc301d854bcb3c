"""What a seat (or a spectator) may see, and the prompts of the decisions.

Behind a screen: cubes, law cards in hand and spare workers; a seat sees only its own. Face-down
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
    "law_window": "You may play a law card now, or decline.",
    "bid": "Bid cubes for the right to choose the next start player, or pass (0).",
    "choose_start": "Name the new start player.",
}


_PROMPT_CACHE: dict[tuple[str, int], str] = {}


def prompt(kind: str, seat: int) -> str:
    text = _PROMPT_CACHE.get((kind, seat))
    if text is None:
        text = _PROMPT_CACHE[(kind, seat)] = f"Seat {seat}: {PROMPTS[kind]}"
    return text


def cube_map(counts: list[int]) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(counts)}


def view(st: State, viewer: int | None) -> dict[str, JSON]:
    fx = st.fx
    current = st.current_row()
    rows = []
    for r, tiles in enumerate(st.rows):
        up = st.face_up_tiles or r == current
        rows.append({
            "value": ROW_VALUES[r],
            "face_up": up,
            "tiles": [market.tile_public(st, t) if up else {"value": ROW_VALUES[r]}
                      for t in tiles],
            "unused": len(st.pools[r]),
        })
    players = []
    for s in range(st.players):
        players.append({
            "seat": s,
            "tiles": [{"id": TILES[t].id, "value": TILES[t].value} for t in st.bought[s]],
            "tile_points": tile_points(st, s),
            "law_cards": len(st.hands[s]),
            "fences_left": st.fences_left[s],
            "procured_law": st.out[s] if st.phase == 3 else False,
            "cottages": [
                {"number": i + 1, "x": None if pos is None else pos[0],
                 "y": None if pos is None else pos[1], "house": st.house[s][i]}
                for i, pos in enumerate(st.cottage_pos[s])
            ],
        })
    data: dict[str, JSON] = {
        "round": st.round,
        "phase": st.phase,
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
        "fences": [{"gx": a, "gy": b, "fx": c, "fy": d, "seat": o}
                   for (a, b, c, d), o in sorted(st.fences.items())],
        "workers": [{"x": x, "y": y, "seat": s} for (x, y), s in sorted(st.workers.items())],
        "work_order": list(st.markers),
        "store": cube_map(st.store),
        "craftsmen": {COLOURS[c]: st.craftsmen[i] for i, c in enumerate(CRAFTS)},
        "rows": rows,
        "laws": {
            "deck": len(st.deck),
            "spaces": [
                {"filled": bool(card),
                 "card": law_id(card) if card and st.law_cards_face_up else None}
                for card in st.spaces
            ],
            "played": [law_id(c) for c in st.discard],
        },
        "effects": {
            "work_order_by": fx.work_order,
            "right_of_way": list(fx.right_of_way),
            "building_restriction_by": fx.restriction,
            "bumper_harvest": FIELD_TYPES[fx.bumper] if fx.bumper >= 0 else None,
            "blight": FIELD_TYPES[fx.blight] if fx.blight >= 0 else None,
            "choice_of_harvest": [FIELD_TYPES[t] if t >= 0 else None for t in fx.harvest_choice],
            "hard_worker": [None if h is None else list(h) for h in fx.hard_worker],
            "renumbered": [None if r is None else list(r) for r in fx.renumber],
        },
        "turn": {"seat": st.cur, "passes": st.streak} if st.phase == 3 else None,
        "players": players,
    }
    pending = st.pending
    data["decision"] = (
        None if pending is None
        else {"seat": pending.seat, "kind": pending.kind, "prompt": prompt(pending.kind,
                                                                            pending.seat)}
    )
    if viewer is not None:
        data["you"] = {
            "seat": viewer,
            "cubes": cube_map(st.cubes[viewer]),
            "law_cards": [law_id(c) for c in st.hands[viewer]],
        }
        data["legal_choices"] = (
            list(pending.choices) if pending is not None and pending.seat == viewer else []
        )
    return data
