"""A new game: the stock, the tower, the prebuilt buildings and the first round, all chance
drawn from the given rng."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import JSON, Event
from domain.errors import InvalidOptions, Range
from domain.games.im_schutze_der_burg import flow
from domain.games.im_schutze_der_burg.data import (
    ALL_CARDS_MASK,
    BUILDING_TYPES,
    FORGE_START,
    PLAYER_COUNTS,
    RESOURCE_TOTAL,
    SPACES,
    START_RESOURCES,
    START_THALERS,
    THALERS_TOTAL,
    TILE_TYPE,
    TOWER_START,
    WINTER_CARDS,
)
from domain.games.im_schutze_der_burg.state import BOARD, NOBODY, State


def new_game(players: int, options: Mapping[str, JSON], rng: random.Random) -> tuple[State, list[Event]]:
    if players not in PLAYER_COUNTS:
        raise InvalidOptions(
            "Im Schutze der Burg needs {players:to} players, got {got}",
            players=Range(min(PLAYER_COUNTS), max(PLAYER_COUNTS)),
            got=players,
        )
    count = PLAYER_COUNTS[players]
    winter = bool(options.get("winter", False))
    deck = [card.id for card in WINTER_CARDS]
    if winter:
        rng.shuffle(deck)
    start = rng.randrange(players)
    supply = [RESOURCE_TOTAL[k] - TOWER_START[k] - players * START_RESOURCES[k] for k in range(5)]
    supply[4] -= FORGE_START
    st = State(
        n=players,
        winter=winter,
        rounds=count.rounds,
        round=1,
        start=start,
        track=count.rounds,
        bank=THALERS_TOTAL - count.rounds - players * START_THALERS,
        supply=supply,
        tower=list(TOWER_START),
        forge=FORGE_START,
        thalers=[START_THALERS] * players,
        res=[list(START_RESOURCES) for _ in range(players)],
        vp=[0] * players,
        helpers=[count.helpers] * players,
        hand=[ALL_CARDS_MASK] * players,
        posts=[NOBODY] * 5,
        posts_new=[False] * 5,
        built=[BOARD if _prebuilt(t) else NOBODY for t in range(len(TILE_TYPE))],
        spaces=[NOBODY] * len(SPACES),
        guests=[0] * players,
        winter_deck=deck if winter else [],
        winter_seen=[],
        guest_house=False,
    )
    events = [
        Event(
            "game_setup",
            {"players": players, "rounds": count.rounds, "winter": winter, "start": start},
        )
    ]
    flow.advance(st, events)
    return st, events


def _prebuilt(tile: int) -> bool:
    return BUILDING_TYPES[TILE_TYPE[tile]].prebuilt
