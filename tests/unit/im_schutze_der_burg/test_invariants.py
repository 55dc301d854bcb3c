"""The engine's own invariant check: silent on sound states, one clear line per broken rule."""

from __future__ import annotations

import random

import pytest

from domain.games.im_schutze_der_burg.data import CARD_INDEX, SPACE_INDEX, TILE_OF_SPACE
from domain.games.im_schutze_der_burg.state import NOBODY, State

from .support import E, new_game


def _mid_game(players: int, winter: bool, steps: int, seed: int = 2) -> State:
    rng = random.Random(seed)
    s, _ = E.setup(players, {"winter": winter}, random.Random(seed))
    for _ in range(steps):
        d = E.decision(s)
        assert d is not None
        E.apply(s, {seat: rng.choice(E.legal_choices(s, seat)) for seat in d.seats})
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_never_break_an_invariant(players: int) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        s, _ = E.setup(players, {"winter": seed % 2 == 1}, random.Random(seed))
        assert E.check_invariants(s) == []
        while (d := E.decision(s)) is not None:
            E.apply(s, {seat: rng.choice(E.legal_choices(s, seat)) for seat in d.seats})
            assert E.check_invariants(s) == [], d.kind
        assert s.over


def test_a_lost_thaler_is_reported_as_not_conserved() -> None:
    s = new_game(3)
    s.thalers[1] -= 1
    (problem,) = E.check_invariants(s)
    assert problem.startswith("thalers not conserved")


def test_a_piece_moved_to_a_negative_stock_is_reported_twice() -> None:
    s = new_game(4)
    s.supply[2] += s.res[0][2] + 1
    s.res[0][2] = -1
    assert E.check_invariants(s) == ["resources of seat 0[2] is negative (-1)"]
    s.supply[2] += 1
    problems = E.check_invariants(s)
    assert "clay not conserved: 16 pieces in play, expected 15" in problems


def test_a_helper_on_an_unbuilt_building_is_reported() -> None:
    s = new_game(2)
    space = SPACE_INDEX["palace.0"]
    assert s.built[TILE_OF_SPACE[space]] == NOBODY
    s.spaces[space] = 1
    s.helpers[1] -= 1
    assert E.check_invariants(s) == ["helper on space palace.0 of an unbuilt building"]


def test_a_vanished_helper_and_an_unknown_post_owner_are_reported() -> None:
    s = new_game(3)
    s.helpers[2] -= 1
    s.posts[0] = 7
    problems = E.check_invariants(s)
    assert "helpers of seat 2 not conserved: 5 in supply + 0 placed, expected 6" in problems
    assert "post sand held by unknown seat 7" in problems


def test_a_sealed_pick_not_in_the_hand_is_reported() -> None:
    s = new_game(3)
    s.hand[1] &= ~(1 << CARD_INDEX["trader"])
    s.picks = [[CARD_INDEX["messenger"]], [CARD_INDEX["trader"]], [CARD_INDEX["messenger"]]]
    assert E.check_invariants(s) == ["sealed pick of seat 1 is not a legal pick from its hand"]


def test_a_lost_winter_card_and_a_wrong_round_track_are_reported() -> None:
    s = _mid_game(4, True, 3)
    assert E.check_invariants(s) == []
    s.winter_deck.pop()
    s.track += 1
    s.bank -= 1
    problems = E.check_invariants(s)
    assert problems == [
        f"round track holds {s.track} thalers in round {s.round}, expected {s.track - 1}",
        "winter deck and revealed winter cards are not the six winter cards",
    ]
