"""Setup, round track, start player, picks and the end of the game."""

from __future__ import annotations

import random

import pytest

from domain.games.im_schutze_der_burg.data import BUILDABLE_TILES, BUILDING_INDEX, TILE_TYPE
from tests.support.json_values import untyped

from .support import (
    E,
    act,
    build_choice,
    hand_without,
    kind,
    new_game,
    pick,
    refresh,
    set_res,
)


@pytest.mark.parametrize(
    ("players", "rounds", "helpers", "bank", "sand", "wood"),
    [(2, 12, 7, 87, 17, 15), (3, 15, 6, 81, 16, 14), (4, 12, 6, 81, 15, 13)],
)
def test_setup_fills_supplies_for_each_player_count(
    players: int, rounds: int, helpers: int, bank: int, sand: int, wood: int
) -> None:
    s, events = E.setup(players, {"winter": False}, random.Random(0))
    assert events[0].type == "game_setup"
    assert s.rounds == rounds and s.helpers == [helpers] * players
    assert s.bank == bank
    assert s.track == rounds - 1  # the first coin already went to the start player
    assert sorted(s.thalers) == [3] * (players - 1) + [4]
    assert s.thalers[s.start] == 4
    assert s.supply == [sand, wood, 14, 14, 14]
    assert s.tower == [1, 1, 1, 1, 1]
    assert s.forge == 0
    assert all(r == [1, 1, 0, 0, 0] for r in s.res)


def test_round_track_pays_the_start_player_one_thaler_and_the_marker_passes_clockwise() -> None:
    s = new_game(4)
    pick(s, p0="messenger", p1="messenger", p2="messenger", p3="messenger")
    assert s.round == 2 and s.start == 1 and s.track == 10
    assert s.thalers == [4 + 8, 3 + 8 + 1, 3 + 8, 3 + 8]
    assert s.bank == 81 - 32
    pick(s, p0="trader", p1="trader", p2="trader", p3="trader")
    # Traders resolve from the start player (seat 1) clockwise.
    act(s, {"action": "place", "post": "sand"}, "trader")
    assert s.posts[0] == 1
    act(s, {"action": "pass"}, "trader")
    act(s, {"action": "pass"}, "trader")
    act(s, {"action": "pass"}, "trader")
    assert s.round == 3 and s.start == 2 and s.thalers[2] == 12 and s.track == 9


def test_master_builder_cannot_be_chosen_with_all_eight_cards_in_hand() -> None:
    s = new_game(2)
    assert all("master_builder" not in c["cards"] for c in E.legal_choices(s, 0))
    s.hand[1] = hand_without("messenger")
    refresh(s)
    choices = E.legal_choices(s, 1)
    assert {"cards": ["trader", "master_builder"]} in choices
    assert all("messenger" not in c["cards"] for c in choices)


def test_played_cards_stay_out_of_hand_until_the_master_builder() -> None:
    s = new_game(3)
    pick(s, p0="messenger", p1="messenger", p2="messenger")
    assert {"card": "messenger"} not in E.legal_choices(s, 0)
    assert {"card": "master_builder"} in E.legal_choices(s, 0)
    view = untyped(E.view(s, None))
    assert view["players"][0]["played"] == ["messenger"]


def test_a_seat_whose_pick_is_forced_is_not_asked_but_its_card_is_revealed() -> None:
    s = new_game(3)
    s.hand[2] = hand_without(
        "messenger", "trader", "bricklayer", "stonemason", "worker_1", "worker_2", "worker_3"
    )
    refresh(s)
    d = E.decision(s)
    assert d is not None and d.seats == (0, 1)
    events = pick(s, p0="messenger", p1="messenger")
    reveal = next(e for e in events if e.type == "reveal")
    assert reveal.data["choices"] == {
        "0": {"card": "messenger"},
        "1": {"card": "messenger"},
        "2": {"card": "master_builder"},
    }
    assert s.hand[2] == (1 << 8) - 1


def test_game_ends_after_the_last_round() -> None:
    s = new_game(4)
    s.round = 12
    pick(s, p0="messenger", p1="messenger", p2="messenger", p3="messenger")
    assert s.over and E.decision(s) is None
    assert E.outcome(s) is not None


def test_game_ends_at_the_end_of_the_round_in_which_the_last_building_is_built() -> None:
    s = new_game(4)
    last = BUILDING_INDEX["house"]
    keep_open = next(t for t in BUILDABLE_TILES if TILE_TYPE[t] == last)
    for t in BUILDABLE_TILES:
        if t != keep_open:
            s.built[t] = 3
    set_res(s, 0, sand=1, wood=1, stone=1)
    set_res(s, 1, sand=0, wood=0)
    pick(s, p0="stonemason", p1="worker_1", p2="messenger", p3="messenger")
    act(s, {"action": "done"}, "stonemason_buy")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    # The round goes on: the Worker still collects, then the game ends.
    assert s.over and s.round == 1
    assert s.res[1] == [1, 1, 0, 1, 0]
    assert s.vp[0] == 6
    assert kind(s) is None
