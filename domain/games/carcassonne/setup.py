"""A new game: the shuffled pile, the supplies, the start tile and the first turn."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import JSON, Event
from domain.games.carcassonne.board import place_tile
from domain.games.carcassonne.flow import start_turn
from domain.games.carcassonne.state import (
    CATEGORIES,
    FOLLOWERS_PER_PLAYER,
    State,
    set_option_flags,
    square_of,
)
from domain.games.carcassonne.tiles import ABBEY, START_TYPE, TILE_TYPES, oriented


def new_game(players: int, options: Mapping[str, JSON], rng: random.Random) -> tuple[State, list[Event]]:
    """``options`` are complete (every option named): the state stores them."""
    opts = dict(options)
    expansion = bool(opts["abbey_and_mayor"])
    pile: list[int] = []
    for tile in TILE_TYPES:
        if tile.index == ABBEY or (tile.expansion != "base" and not expansion):
            continue
        pile.extend([tile.index] * (tile.count - (1 if tile.index == START_TYPE else 0)))
    rng.shuffle(pile)
    extra = 1 if expansion else 0
    st = State(
        players=players,
        options=opts,
        pile=pile,
        scores=[0] * players,
        breakdown=[dict.fromkeys(CATEGORIES, 0) for _ in range(players)],
        supply=[[FOLLOWERS_PER_PLAYER, extra, extra, extra, extra] for _ in range(players)],
    )
    set_option_flags(st)
    place_tile(st, square_of(0, 0), oriented(START_TYPE, 0))
    events = [
        Event(
            "start_tile_placed",
            {"start_tile": TILE_TYPES[START_TYPE].id, "x": 0, "y": 0, "rotation": 0, "pile": len(pile)},
        )
    ]
    start_turn(st, 0, events)
    return st, events
