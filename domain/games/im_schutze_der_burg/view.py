"""What a seat (or a spectator) may see: the public board plus that seat's own secrets; and the
prompt of each decision kind."""

from __future__ import annotations

from typing import Any

from domain.games.im_schutze_der_burg.data import (
    BUILDABLE_TILES,
    BUILDING_TYPES,
    CARDS,
    KINDS,
    SPACES,
    TILE_OF_SPACE,
    TILE_TYPE,
)
from domain.games.im_schutze_der_burg.state import BOARD, NOBODY, State

PROMPTS = {
    "pick_cards": "Choose your character card(s) for this round",
    "damsel_bid": "Damsel: bid thalers in secret",
    "firewood": "Firewood: return 1 wood or pay 2 thalers",
    "worker_resources": "Worker III: choose the two extra resources for the card",
    "trader": "Trader: place a helper on a cart or the rider, or pass",
    "watchtower": "Bricklayer: take all pieces of one kind from the watchtower",
    "stonemason_buy": "Stonemason: buy a piece from a Worker card, or finish",
    "build": "Choose a building to erect (then its payment), or finish building",
    "build_payment": "Pay the building exactly (cheapest payment first), or go back",
    "place_helpers": "Place a helper in the castle, or finish",
}
"""The English prompt of each decision kind (clients show ``prompt.<kind>`` in their language)."""


def _kinds(values: list[int]) -> dict[str, int]:
    return dict(zip(KINDS, values, strict=True))


def _owner(value: int) -> int | None:
    return None if value == NOBODY else value


def view_state(st: State, viewer: int | None) -> dict[str, Any]:
    """Names and texts are not repeated here: they are in the static game data, by id, in the
    client's language (``GET /v1/game-types/im-schutze-der-burg``)."""
    players = []
    for seat in range(st.n):
        players.append(
            {
                "seat": seat,
                "thalers": st.thalers[seat],
                "resources": _kinds(st.res[seat]),
                "vp": st.vp[seat],
                "helpers": st.helpers[seat],
                "guests": st.guests[seat],
                "hand": [c.id for c in CARDS if st.hand[seat] >> c.index & 1],
                "played": [c.id for c in CARDS if not st.hand[seat] >> c.index & 1],
            }
        )
    out: dict[str, Any] = {
        "players": players,
        "round": st.round,
        "rounds": st.rounds,
        "start_player": st.start,
        "phase": st.phase,
        "game_over": st.over,
        "bank": st.bank,
        "round_track": st.track,
        "supply": _kinds(st.supply),
        "watchtower": _kinds(st.tower),
        "forge_silver": st.forge,
        "posts": {
            KINDS[k]: {"seat": _owner(st.posts[k]), "placed_this_round": st.posts_new[k]} for k in range(5)
        },
        "buildings": [
            {
                "tile": t,
                "building": BUILDING_TYPES[TILE_TYPE[t]].id,
                "built": st.built[t] != NOBODY,
                "built_by": None if st.built[t] in (NOBODY, BOARD) else st.built[t],
            }
            for t in range(len(TILE_TYPE))
        ],
        "unbuilt_tiles": sum(1 for t in BUILDABLE_TILES if st.built[t] == NOBODY),
        "helper_spaces": [
            {
                "space": sp.id,
                "building": BUILDING_TYPES[sp.btype].id,
                "fee": sp.fee,
                "available": st.built[TILE_OF_SPACE[sp.index]] != NOBODY,
                "seat": _owner(st.spaces[sp.index]),
            }
            for sp in SPACES
        ],
        "worker_cards": [{"seat": e[0], "card": CARDS[e[1]].id, "pieces": _kinds(e[2:])} for e in st.workers],
        "round_buildings": list(st.round_builds),
    }
    if st.revealed:
        out["picks"] = {str(seat): [CARDS[c].id for c in st.picks[seat]] for seat in range(st.n)}
    elif viewer is not None and 0 <= viewer < st.n and st.picks:
        out["my_picks"] = [CARDS[c].id for c in st.picks[viewer]]
    if st.winter:
        out["winter"] = {
            "revealed": [{"card": c} for c in st.winter_seen],
            "cards_left": len(st.winter_deck),
            "guest_house_open": st.guest_house,
            "this_round": list(st.round_flags),
        }
    return out
