"""Exact payments, silver as a joker, the Forge and the cheapest-first marker."""

from __future__ import annotations

from domain.games.im_schutze_der_burg.payments import payments

from .support import E, act, build_choice, kind, new_game, pick, set_res


def test_payment_is_exact_with_at_least_three_kinds() -> None:
    assert payments(8, [3, 2, 1, 1, 0]) == [(2, 1, 1, 0, 0), (1, 1, 0, 1, 0)]
    assert payments(8, [8, 4, 0, 0, 0]) == []  # only two kinds
    assert payments(10, [1, 1, 0, 1, 0]) == []  # 8 < 10, never overpay with 1+4+5...


def test_silver_is_a_joker_for_value_and_kind() -> None:
    # 1 sand + 2 silver as wood and stone = 8; 1 sand + 1 wood + silver as stone = 8; ...
    assert payments(8, [1, 1, 0, 0, 2]) == [
        (1, 0, 0, 0, 2),
        (1, 1, 0, 0, 1),
        (0, 1, 0, 0, 2),
        (1, 1, 0, 0, 2),
    ]
    assert payments(8, [0, 0, 0, 0, 2]) == []  # two silvers make two kinds at most


def test_silver_spent_goes_to_the_forge_not_back_to_the_rider() -> None:
    s = new_game(4)
    set_res(s, 0, sand=1, silver=2)
    rider = s.supply[4]
    pick(s, p0="stonemason", p1="messenger", p2="messenger", p3="messenger")
    act(s, build_choice("house", sand=1, silver=2), "build")
    assert s.forge == 2 and s.supply[4] == rider and s.res[0] == [0, 0, 0, 0, 0]
    assert s.vp[0] == 6


def test_one_payment_per_building_is_marked_as_spending_the_cheapest_pieces_first() -> None:
    s = new_game(4)
    set_res(s, 0, sand=3, wood=2, clay=2, stone=1, silver=1)
    pick(s, p0="stonemason", p1="messenger", p2="messenger", p3="messenger")
    assert kind(s) == "build"
    choices = E.legal_choices(s, 0)
    assert choices[-1] == {"action": "done"}
    marked = [c for c in choices if c.get("cheapest")]
    assert len(marked) == len({c["building"] for c in choices if c["action"] == "build"})
    house = next(c for c in marked if c["building"] == "house")
    assert house == {**build_choice("house", sand=2, wood=1, clay=1), "cheapest": True}
    houses = [c for c in choices if c.get("building") == "house"]
    assert len(houses) == len(payments(8, [3, 2, 2, 1, 1]))
    # Identical tiles are one choice per payment; two buildings are paid separately.
    act(s, build_choice("house", sand=2, wood=1, clay=1), "build")
    assert s.res[0] == [1, 1, 1, 1, 1]
    act(s, build_choice("small_gate", sand=1, wood=1, clay=1, stone=1), "build")
    assert s.vp[0] == 6 + 6 and s.res[0] == [0, 0, 0, 0, 1]
    # Two buildings is the limit: helper placement follows (market fee 6 > 3 thalers: none).
    assert s.round == 2
