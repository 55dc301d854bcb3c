"""Final scoring of the castle helpers and the tie-breaks."""

from __future__ import annotations

from typing import Any

from domain.engine import Outcome
from domain.games.im_schutze_der_burg.data import (
    BUILDABLE_TILES,
    BUILDING_TYPES,
    KINDS,
    RESOURCE_VALUE,
    SILVER,
    SPACES,
    TILE_OF_SPACE,
    TILE_TYPE,
    WINTER_BY_ID,
)
from domain.games.im_schutze_der_burg.state import NOBODY, State

# Palace conversion order: silver first (worth its value as any kind), then the dearest pieces.
_PALACE_ORDER = (SILVER, *sorted(range(4), key=lambda k: -RESOURCE_VALUE[k]))


def targets(st: State) -> dict[str, int]:
    """The counts that helper spaces score on."""
    built_spaces = [sp.index for sp in SPACES if st.built[TILE_OF_SPACE[sp.index]] != NOBODY]
    castle_helpers = sum(1 for i in built_spaces if st.spaces[i] != NOBODY)
    towers = houses = unbuilt = 0
    for tile in BUILDABLE_TILES:
        if st.built[tile] == NOBODY:
            unbuilt += 1
            continue
        category = BUILDING_TYPES[TILE_TYPE[tile]].category
        if category == "tower":
            towers += 1
        elif category == "house":
            houses += 1
    return {
        "forge_silver": st.forge,
        "unbuilt_tiles": unbuilt,
        "free_spaces": len(built_spaces) - castle_helpers,
        "castle_helpers": castle_helpers,
        "built_towers": towers,
        "built_houses": houses,
    }


def final_scores(st: State) -> list[dict[str, Any]]:
    """Per seat: game VP, end VP per building, and what is left for the tie-breaks."""
    counts = targets(st)
    rows: list[dict[str, Any]] = []
    for seat in range(st.n):
        thalers = st.thalers[seat]
        held = list(st.res[seat])
        end: dict[str, int] = {}
        for btype in BUILDING_TYPES:
            owned = [i for i in btype.spaces if st.spaces[i] == seat]
            if not owned:
                continue
            points = 0
            if btype.scoring == "market":
                # All his thalers are converted (rules 2.11); with one helper an odd thaler earns
                # nothing, and converted thalers leave the tie-break (2.10).
                per = btype.params["both_helpers_per" if len(owned) >= 2 else "one_helper_per"]
                points = thalers // per
                thalers = 0
            elif btype.scoring == "palace":
                limit = btype.params["pieces_per_helper"] * len(owned)
                for k in _PALACE_ORDER:
                    take = min(limit, held[k])
                    held[k] -= take
                    limit -= take
                    points += take * RESOURCE_VALUE[k]
            elif btype.scoring == "count":
                value = counts[btype.target]
                for i in owned:
                    points += value * SPACES[i].vp // SPACES[i].per
            end[btype.id] = points
        if st.guests[seat]:
            end["guest_house"] = st.guests[seat] * WINTER_BY_ID["guest_house"].params["vp"]
        total = st.vp[seat] + sum(end.values())
        rows.append(
            {
                "seat": seat,
                "game_vp": st.vp[seat],
                "end_vp": end,
                "total": total,
                "tiebreak_thalers": thalers,
                "tiebreak_resources": dict(zip(KINDS, held, strict=True)),
                "tiebreak_value": sum(held[k] * RESOURCE_VALUE[k] for k in range(5)),
            }
        )
    return rows


def outcome(st: State) -> Outcome:
    rows = final_scores(st)
    keys = [(r["total"], r["tiebreak_thalers"], r["tiebreak_value"]) for r in rows]
    best = max(keys)
    winners = tuple(seat for seat, key in enumerate(keys) if key == best)
    return Outcome(
        scores=tuple(r["total"] for r in rows),
        winners=winners,
        details={"players": rows, "targets": targets(st)},
    )
