"""Hand-worked scenarios for every character card."""

from __future__ import annotations

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
    set_thalers,
)

# ----------------------------------------------------------------------------- Messenger


def test_messenger_takes_eight_thalers_from_the_bank() -> None:
    s = new_game(4)
    pick(s, p0="messenger", p1="messenger", p2="messenger", p3="messenger")
    assert s.thalers == [12, 11 + 1, 11, 11] and s.bank == 49  # +1: round 2 income


def test_messenger_takes_what_is_left_when_bank_runs_short() -> None:
    s = new_game(4)
    set_thalers(s, 3, 74)  # leaves 10 in the bank
    events = pick(s, p0="messenger", p1="messenger", p2="messenger", p3="messenger")
    paid = [e.data["thalers"] for e in events if e.type == "messenger"]
    assert paid == [8, 2, 0, 0]
    assert s.thalers[:3] == [12, 5 + 1, 3] and s.bank == 0


# ----------------------------------------------------------------------------- Trader


def test_trader_places_on_a_free_cart_and_production_pays_tribute_to_the_watchtower() -> None:
    s = new_game(4)
    pick(s, p0="trader", p1="trader", p2="messenger", p3="messenger")
    assert kind(s) == "trader"
    assert E.legal_choices(s, 0) == [
        {"action": "place", "post": "sand"},
        {"action": "place", "post": "wood"},
        {"action": "place", "post": "clay"},
        {"action": "place", "post": "stone"},
        {"action": "pass"},
    ]
    act(s, {"action": "place", "post": "sand"})
    act(s, {"action": "place", "post": "wood"})
    # 4 sand (1 to the tower) and 3 wood (1 to the tower)
    assert s.res[0] == [1 + 3, 1, 0, 0, 0]
    assert s.res[1] == [1, 1 + 2, 0, 0, 0]
    assert s.tower == [2, 2, 1, 1, 1]
    assert s.supply[:2] == [15 - 4, 13 - 3]
    assert s.helpers[:2] == [5, 5]


def test_every_trader_helper_produces_even_if_its_owner_did_not_play_a_trader() -> None:
    s = new_game(4)
    s.posts = [2, 3, 1, 0, 1]
    s.helpers = [5, 4, 5, 5]
    pick(s, p0="trader", p1="messenger", p2="messenger", p3="messenger")
    assert kind(s) == "trader"
    act(s, {"action": "pass"})
    assert s.res[2][0] == 1 + 3  # sand
    assert s.res[3][1] == 1 + 2  # wood
    assert s.res[1][2] == 1 and s.res[1][4] == 1  # clay 2-1, silver 2-1
    assert s.res[0][3] == 1  # stone 2-1
    assert s.tower == [2, 2, 2, 2, 2]


def test_no_production_when_no_trader_is_revealed() -> None:
    s = new_game(4)
    s.posts = [2, 3, 1, 0, -1]
    s.helpers = [5, 5, 5, 5]
    pick(s, p0="messenger", p1="messenger", p2="messenger", p3="messenger")
    assert [r[:4] for r in s.res] == [[1, 1, 0, 0]] * 4
    assert s.tower == [1, 1, 1, 1, 1]


def test_trader_may_take_the_rider_or_displace_only_when_all_carts_are_occupied() -> None:
    s = new_game(4)
    s.posts = [2, 3, 1, 0, -1]
    s.helpers = [5, 5, 5, 5]
    pick(s, p0="trader", p1="messenger", p2="messenger", p3="messenger")
    assert E.legal_choices(s, 0) == [
        {"action": "place", "post": "silver"},
        {"action": "displace", "post": "sand"},
        {"action": "displace", "post": "wood"},
        {"action": "displace", "post": "clay"},
        {"action": "pass"},
    ]  # never his own helper on the stone cart
    act(s, {"action": "displace", "post": "wood"})
    assert s.posts == [2, 0, 1, 0, -1]
    assert s.helpers == [4, 5, 5, 6]  # the displaced helper went home
    assert s.res[0][1] == 1 + 2  # 3 wood, 1 to the tower


def test_a_helper_placed_this_round_can_never_be_displaced() -> None:
    s = new_game(4)
    s.posts = [2, 3, 2, -1, 1]
    s.helpers = [6, 5, 4, 5]
    pick(s, p0="trader", p1="trader", p2="messenger", p3="messenger")
    act(s, {"action": "place", "post": "stone"})
    assert E.legal_choices(s, 1) == [
        {"action": "displace", "post": "sand"},
        {"action": "displace", "post": "wood"},
        {"action": "displace", "post": "clay"},
        {"action": "pass"},
    ]


def test_a_trader_without_helpers_in_supply_is_not_asked() -> None:
    s = new_game(4)
    s.helpers[0] = 0
    s.spaces[0:2] = [0, 0]
    s.spaces[2:4] = [0, 0]
    s.spaces[4:6] = [0, 0]
    s.built[2] = 0
    pick(s, p0="trader", p1="messenger", p2="messenger", p3="messenger")
    assert s.round == 2


def test_an_empty_cart_yields_nothing_and_a_short_one_what_is_left() -> None:
    s = new_game(4)
    set_res(s, 3, sand=1, wood=1, clay=14, stone=13)  # clay cart empty, stone cart 1
    s.posts = [-1, -1, 1, 2, -1]
    s.helpers = [6, 5, 5, 6]
    pick(s, p0="trader", p1="messenger", p2="messenger", p3="messenger")
    act(s, {"action": "pass"})
    assert s.res[1][2] == 0 and s.tower[2] == 1
    assert s.res[2][3] == 0 and s.tower[3] == 2  # got 1 stone, paid it as tribute
    assert s.supply[2:4] == [0, 0]


# ----------------------------------------------------------------------------- Bricklayer


def test_bricklayer_takes_a_tower_kind_builds_for_thalers_and_places_helpers() -> None:
    s = new_game(4)
    set_res(s, 0, sand=3, wood=2, clay=2, stone=1)
    set_thalers(s, 0, 20)
    pick(s, p0="bricklayer", p1="messenger", p2="messenger", p3="messenger")
    assert E.legal_choices(s, 0)[-1] == {"action": "skip"}
    act(s, {"action": "take", "resource": "clay"}, "watchtower")
    assert s.res[0] == [3, 2, 3, 1, 0] and s.tower == [1, 1, 0, 1, 1]
    act(s, build_choice("house", sand=2, wood=1, clay=1), "build")
    assert s.thalers[0] == 24 and s.vp[0] == 0
    act(s, build_choice("small_tower", sand=1, clay=1, stone=1), "build")
    assert s.thalers[0] == 27
    assert s.supply[:4] == [13 + 3, 12 + 1, 12 + 2, 13 + 1]
    # Two buildings built: at most two helpers, at most one per building.
    act(s, {"action": "place", "space": "market.0", "from": "supply"}, "place_helpers")
    spaces = {c.get("space") for c in E.legal_choices(s, 0)}
    assert "market.1" not in spaces and {"forge.0", "forge.1"} <= spaces
    act(s, {"action": "place", "space": "forge.1", "from": "supply"}, "place_helpers")
    assert s.thalers[0] == 27 - 12 and s.helpers[0] == 4
    assert s.spaces[:4] == [0, -1, -1, 0]
    assert s.round == 2


def test_bricklayer_who_builds_nothing_may_not_place_helpers() -> None:
    s = new_game(4)
    set_thalers(s, 0, 20)
    pick(s, p0="bricklayer", p1="messenger", p2="messenger", p3="messenger")
    act(s, {"action": "take", "resource": "stone"}, "watchtower")
    assert s.res[0] == [1, 1, 0, 1, 0]
    act(s, {"action": "done"}, "build")  # he could build a house, but does not
    assert s.round == 2 and s.spaces.count(0) == 0


def test_a_helper_can_move_from_a_cart_into_the_castle() -> None:
    s = new_game(4)
    set_res(s, 0, sand=1, wood=1, stone=1)
    set_thalers(s, 0, 10)
    s.posts[0] = 0
    s.helpers[0] = 5
    pick(s, p0="bricklayer", p1="messenger", p2="messenger", p3="messenger")
    act(s, {"action": "skip"}, "watchtower")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    choices = E.legal_choices(s, 0)
    assert {"action": "place", "space": "market.0", "from": "sand"} in choices
    act(s, {"action": "place", "space": "market.0", "from": "sand"}, "place_helpers")
    assert s.posts[0] == -1 and s.spaces[0] == 0 and s.helpers[0] == 5


def test_two_player_one_helper_per_building_per_round_across_both_cards() -> None:
    """Rules reference 2.9 and player aid S7: "A player may add only 1 helper to any one
    building per round."

    Seat 0 plays Bricklayer and Stonemason in one round. The Bricklayer builds a house and puts
    a helper on the Market (6 thalers); the Stonemason builds another house and may place on
    the Forge, but not on the Market's second space this round.
    """
    s = new_game(2)
    set_res(s, 0, sand=2, wood=2, stone=2)
    set_thalers(s, 0, 30)
    pick(s, p0=("bricklayer", "stonemason"), p1=("messenger", "trader"))
    act(s, {"action": "pass"}, "trader")
    act(s, {"action": "skip"}, "watchtower")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    act(s, {"action": "done"}, "build")
    act(s, {"action": "place", "space": "market.0", "from": "supply"}, "place_helpers")
    act(s, {"action": "done"}, "place_helpers")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    spaces = {c.get("space") for c in E.legal_choices(s, 0)}
    assert "market.1" not in spaces and {"forge.0", "forge.1"} <= spaces
    act(s, {"action": "place", "space": "forge.0", "from": "supply"}, "place_helpers")
    assert s.spaces[:4] == [0, -1, 0, -1]


def test_the_per_round_building_limit_starts_afresh_next_round() -> None:
    """S7's limit is per round: the next round the same player may take the Market's other space."""
    s = new_game(2)
    set_res(s, 0, sand=2, wood=2, stone=2)
    set_thalers(s, 0, 30)
    pick(s, p0=("bricklayer", "messenger"), p1=("messenger", "trader"))
    act(s, {"action": "pass"}, "trader")
    act(s, {"action": "skip"}, "watchtower")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    act(s, {"action": "done"}, "build")
    act(s, {"action": "place", "space": "market.0", "from": "supply"}, "place_helpers")
    act(s, {"action": "done"}, "place_helpers")
    assert s.round == 2
    pick(s, p0=("trader", "stonemason"), p1=("bricklayer", "master_builder"))
    act(s, {"action": "pass"}, "trader")
    act(s, {"action": "skip"}, "watchtower")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    assert {"action": "place", "space": "market.1", "from": "supply"} in E.legal_choices(s, 0)


# ----------------------------------------------------------------------------- Stonemason


def test_stonemason_buys_one_piece_per_worker_card_paying_its_owner_and_scores_full_vp() -> None:
    s = new_game(4)
    set_thalers(s, 0, 10)
    pick(s, p0="stonemason", p1="worker_1", p2="worker_2", p3="messenger")
    assert [w[2:] for w in s.workers] == [[1, 1, 0, 1, 0], [1, 0, 1, 1, 0]]
    act(s, {"action": "buy", "seat": 1, "card": "worker_1", "resource": "stone"})
    assert all(c.get("seat") != 1 for c in E.legal_choices(s, 0))
    act(s, {"action": "buy", "seat": 2, "card": "worker_2", "resource": "clay"})
    assert s.thalers[:3] == [8, 4, 4]
    assert s.res[0] == [1, 1, 1, 1, 0]
    act(s, build_choice("small_gate", sand=1, wood=1, clay=1, stone=1), "build")
    assert s.vp[0] == 6
    act(s, {"action": "place", "space": "small_gate.0", "from": "supply"}, "place_helpers")
    assert s.thalers[0] == 3
    # Worker I (seat 1) collects sand + wood: only two kinds, no building.
    assert s.res[1] == [2, 2, 0, 0, 0]
    # Worker II (seat 2) collects sand + stone and builds a house for half its VP.
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    assert s.vp[2] == 3
    assert s.round == 2


def test_stonemason_never_takes_the_last_piece_of_a_worker_card() -> None:
    s = new_game(4)
    for seat in (0, 1, 3):
        set_res(s, seat)
    pick(s, p0="stonemason", p1="stonemason", p2="worker_1", p3="stonemason")
    act(s, {"action": "buy", "seat": 2, "card": "worker_1", "resource": "stone"})
    act(s, {"action": "buy", "seat": 2, "card": "worker_1", "resource": "sand"})
    # The third Stonemason finds one piece left and is not asked at all.
    assert s.round == 2
    assert s.res[2] == [1, 2, 0, 0, 0]
    assert s.thalers == [4 - 1, 3 - 1 + 1, 3 + 2, 3]  # seat 1 also got round 2's coin


def test_stonemason_may_not_buy_from_his_own_worker_card_in_two_player() -> None:
    s = new_game(2)
    pick(s, p0=("stonemason", "worker_1"), p1=("messenger", "worker_2"))
    choices = E.legal_choices(s, 0)
    assert {c["seat"] for c in choices if c["action"] == "buy"} == {1}


def test_two_player_stonemason_buys_one_piece_from_each_of_the_opponents_two_worker_cards() -> None:
    """Rules 2.4.4.1a: "From each Worker card revealed this round ... at most 1 resource"; 2.14:
    "each card is equipped separately and the Stonemason rule applies per card".

    Seat 1 plays Worker I (sand, wood, stone) and Worker II (sand, clay, stone); seat 0's
    Stonemason buys the stone of Worker I, is then offered Worker II's pieces only, buys its clay,
    and pays 1 thaler to seat 1 for each.
    """
    s = new_game(2)
    set_thalers(s, 0, 10)
    pick(s, p0=("messenger", "stonemason"), p1=("worker_1", "worker_2"))
    owners = {(c["seat"], c["card"]) for c in E.legal_choices(s, 0) if c["action"] == "buy"}
    assert owners == {(1, "worker_1"), (1, "worker_2")}
    act(s, {"action": "buy", "seat": 1, "card": "worker_1", "resource": "stone"}, "stonemason_buy")
    offered = {(c["card"], c["resource"]) for c in E.legal_choices(s, 0) if c["action"] == "buy"}
    assert offered == {("worker_2", "sand"), ("worker_2", "clay"), ("worker_2", "stone")}
    act(s, {"action": "buy", "seat": 1, "card": "worker_2", "resource": "clay"}, "stonemason_buy")
    assert s.thalers[:2] == [10 + 8 - 2, 3 + 2]
    assert [w[2:] for w in s.workers] == [[1, 1, 0, 0, 0], [1, 0, 0, 1, 0]]
    assert kind(s) == "build"  # both cards bought from: nothing more to buy


# ----------------------------------------------------------------------------- Workers


def test_worker_three_gets_a_stone_and_two_chosen_pieces_before_the_stonemasons_buy() -> None:
    s = new_game(4)
    pick(s, p0="worker_3", p1="messenger", p2="messenger", p3="messenger")
    assert kind(s) == "worker_resources"
    assert E.legal_choices(s, 0) == [
        {"resources": r}
        for r in (
            ["sand", "sand"],
            ["sand", "wood"],
            ["sand", "clay"],
            ["wood", "wood"],
            ["wood", "clay"],
            ["clay", "clay"],
        )
    ]
    act(s, {"resources": ["clay", "clay"]})
    assert s.res[0] == [1, 1, 2, 1, 0]
    assert kind(s) == "build"  # 1 + 2 + 4 + 5 = 12, or 1 + 2 + 5 = 8, ...


def test_worker_equipping_delivers_less_when_the_stock_is_short() -> None:
    s = new_game(4)
    set_res(s, 1, sand=16, wood=14, clay=14, stone=13)  # stock: 1 stone left only
    pick(s, p0="worker_3", p1="messenger", p2="messenger", p3="messenger")
    # Nothing to choose: the card only gets the last stone.
    assert s.res[0] == [1, 1, 0, 1, 0] and s.supply[:4] == [0, 0, 0, 0]


def test_two_player_two_workers_are_equipped_separately() -> None:
    s = new_game(2)
    set_res(s, 0)
    pick(s, p0=("worker_1", "worker_2"), p1=("messenger", "trader"))
    act(s, {"action": "pass"}, "trader")
    assert [w[:2] for w in s.workers] == [[0, 4], [0, 5]]
    # Worker I gives sand, wood, stone -> a house, then Worker II.
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    assert s.res[0] == [1, 0, 1, 1, 0]  # nothing left to build with: Worker II collected
    act(s, build_choice("small_tower", sand=1, clay=1, stone=1), "build")
    assert s.vp[0] == 3 + 4


# ----------------------------------------------------------------------------- Master Builder


def test_master_builder_scores_five_per_building_by_others_and_takes_cards_back() -> None:
    s = new_game(4)
    s.hand[0] = hand_without("messenger", "trader")
    pick(s, p0="master_builder", p1="worker_1", p2="worker_2", p3="messenger")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    act(s, build_choice("small_tower", sand=1, clay=1, stone=1), "build")
    assert s.vp == [10, 3, 4, 0]
    assert s.hand[0] == (1 << 8) - 1


def test_two_player_master_builder_ignores_buildings_of_his_own_other_card() -> None:
    s = new_game(2)
    s.hand[0] = hand_without("messenger", "trader")
    pick(s, p0=("worker_1", "master_builder"), p1=("worker_2", "messenger"))
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    act(s, build_choice("small_tower", sand=1, clay=1, stone=1), "build")
    assert s.vp == [3 + 5, 4]
    assert s.hand[0] == (1 << 8) - 1
    refresh(s)
    assert {"cards": ["messenger", "trader"]} in E.legal_choices(s, 0)
