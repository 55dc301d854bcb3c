"""What a seat (or a spectator) may see: the public board plus that seat's own secrets."""

from __future__ import annotations

from typing import Any

from .data import (
    BUILDABLE_TILES,
    BUILDING_TYPES,
    CARDS,
    KINDS,
    SPACES,
    TILE_OF_SPACE,
    TILE_TYPE,
)
from .state import BOARD, NOBODY, State


def _kinds(values: list[int]) -> dict[str, int]:
    return dict(zip(KINDS, values, strict=True))


def _owner(value: int) -> int | None:
    return None if value == NOBODY else value


def view_state(s: State, viewer: int | None) -> dict[str, Any]:
    """Names and texts are not repeated here: they are in the static game data, by id, in the
    client's language (``GET /v1/game-types/im-schutze-der-burg``)."""
    players = []
    for seat in range(s.n):
        players.append(
            {
                "seat": seat,
                "thalers": s.thalers[seat],
                "resources": _kinds(s.res[seat]),
                "vp": s.vp[seat],
                "helpers": s.helpers[seat],
                "guests": s.guests[seat],
                "hand": [c.id for c in CARDS if s.hand[seat] >> c.index & 1],
                "played": [c.id for c in CARDS if not s.hand[seat] >> c.index & 1],
            }
        )
    out: dict[str, Any] = {
        "players": players,
        "round": s.round,
        "rounds": s.rounds,
        "start_player": s.start,
        "phase": s.phase,
        "game_over": s.over,
        "bank": s.bank,
        "round_track": s.track,
        "supply": _kinds(s.supply),
        "watchtower": _kinds(s.tower),
        "forge_silver": s.forge,
        "posts": {
            KINDS[k]: {"seat": _owner(s.posts[k]), "placed_this_round": s.posts_new[k]} for k in range(5)
        },
        "buildings": [
            {
                "tile": t,
                "building": BUILDING_TYPES[TILE_TYPE[t]].id,
                "built": s.built[t] != NOBODY,
                "built_by": None if s.built[t] in (NOBODY, BOARD) else s.built[t],
            }
            for t in range(len(TILE_TYPE))
        ],
        "unbuilt_tiles": sum(1 for t in BUILDABLE_TILES if s.built[t] == NOBODY),
        "helper_spaces": [
            {
                "space": sp.id,
                "building": BUILDING_TYPES[sp.btype].id,
                "fee": sp.fee,
                "available": s.built[TILE_OF_SPACE[sp.index]] != NOBODY,
                "seat": _owner(s.spaces[sp.index]),
            }
            for sp in SPACES
        ],
        "worker_cards": [{"seat": e[0], "card": CARDS[e[1]].id, "pieces": _kinds(e[2:])} for e in s.workers],
        "round_buildings": list(s.round_builds),
    }
    if s.revealed:
        out["picks"] = {str(seat): [CARDS[c].id for c in s.picks[seat]] for seat in range(s.n)}
    elif viewer is not None and 0 <= viewer < s.n and s.picks:
        out["my_picks"] = [CARDS[c].id for c in s.picks[viewer]]
    if s.winter:
        out["winter"] = {
            "revealed": [{"card": c} for c in s.winter_seen],
            "cards_left": len(s.winter_deck),
            "guest_house_open": s.guest_house,
            "this_round": list(s.round_flags),
        }
    return out
