"""A new game: components laid out as in S-1 to S-8, all chance drawn from the given rng."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import JSON, Event
from domain.errors import InvalidOptions
from domain.games.keythedral.data import (
    COTTAGES,
    CUBE_TOTALS,
    FENCES_PER_PLAYER,
    FIELD_TYPES,
    LAWS,
    RESOURCES,
    ROW_SIZES,
    ROW_VALUES,
    TILES,
    field_tiles,
    law_spaces,
)
from domain.games.keythedral.flow import advance
from domain.games.keythedral.state import KEYTHEDRAL, LawEffects, State


def first_player(option: JSON, players: int, rng: random.Random) -> int:
    """S-7: the youngest player names the start player; here an option, random by default."""
    if option == "random":
        return rng.randrange(players)
    seat = int(str(option))
    if seat >= players:
        raise InvalidOptions(
            "{field} {first_player} names no seat of a {players}-player game",
            field="first_player",
            first_player=seat,
            players=players,
        )
    return seat


def new_game(players: int, options: Mapping[str, JSON], rng: random.Random) -> tuple[State, list[Event]]:
    st = State(
        players=players,
        length=str(options["length"]),
        face_up_tiles=bool(options["face_up_tiles"]),
        law_cards_face_up=bool(options["law_cards_face_up"]),
        optional_placement=bool(options["optional_placement"]),
        seed=rng.getrandbits(32),
    )
    starts, rest = field_tiles(players)
    for x, y, kind in starts:
        st.fields[(x, y)] = kind
    rng.shuffle(rest)
    st.field_stack = rest
    st.gap_occ[KEYTHEDRAL] = (-1, 0)
    st.cottage_pos = [[None] * COTTAGES for _ in range(players)]
    st.house = [[False] * COTTAGES for _ in range(players)]
    st.fences_left = [FENCES_PER_PLAYER] * players
    st.cubes = [[0] * 8 for _ in range(players)]
    st.store = [CUBE_TOTALS[c] if c in RESOURCES else 0 for c in range(8)]
    st.craftsmen = [CUBE_TOTALS[5], CUBE_TOTALS[6], CUBE_TOTALS[7]]
    sizes = ROW_SIZES[st.length]
    for row in range(len(ROW_VALUES)):
        ids = [i for i, t in enumerate(TILES) if t.row == row]
        rng.shuffle(ids)
        st.rows.append(ids[: sizes[row]])
        st.pools.append(sorted(ids[sizes[row] :]))
    st.bought = [[] for _ in range(players)]
    st.deck = [card.number for card in LAWS]
    rng.shuffle(st.deck)
    st.spaces = [st.deck.pop() for _ in range(law_spaces(players))]
    st.hands = [[] for _ in range(players)]
    st.fx = LawEffects.fresh(players)
    st.out = [False] * players
    st.start = first_player(options.get("first_player", "random"), players, rng)
    st.stack = [{"t": "setup", "i": 0}]
    events = [
        Event(
            "game_set_up",
            {
                "players": players,
                "options": dict(options),
                "fields": [{"x": x, "y": y, "field": FIELD_TYPES[k]} for x, y, k in starts],
                "field_stack": len(st.field_stack),
                "law_spaces": len(st.spaces),
                "start": st.start,
            },
        )
    ]
    advance(st, events)
    return st, events
