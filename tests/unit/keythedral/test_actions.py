"""Phase 3: each action with its exact cost, the fenced-in cottage, and the end of the phase."""

from __future__ import annotations

from typing import Any

from domain.games.keythedral import ENGINE
from domain.games.keythedral.choices import turn_choices
from domain.games.keythedral.state import State
from tests.support.json_values import untyped
from tests.unit.keythedral.support import (
    COTTAGES,
    act,
    asked,
    cubes,
    deal_law,
    decision,
    give,
    kinds,
    law,
    pass_window,
    pass_windows,
    phase,
    run,
    scenario,
    tile,
)


def spending(**options: Any) -> State:
    st = scenario(2, COTTAGES, **options)
    st.rows[0] = [tile("T04-1"), tile("T04-3")]
    st.pools[0] = [t for t in range(6) if t not in st.rows[0]]
    return st


def test_buying_a_tile_pays_exactly_its_printed_cubes_to_the_store() -> None:
    st = spending()
    give(st, 0, brown=1, black=1, blue=1)
    run(st, phase(3))
    assert decision(st) == (0, "action")
    legal = ENGINE.legal_choices(st, 0)
    assert {"action": "buy", "tile": "T04-1"} in legal  # 1 brown 1 black
    assert {"action": "buy", "tile": "T04-3"} in legal  # 1 black 1 blue
    events = act(st, 0, {"action": "buy", "tile": "T04-1"})
    assert st.bought[0] == [tile("T04-1")]
    assert st.cubes[0] == cubes(blue=1)
    assert st.store[:3] == [20, 20, 14]
    bought = [e.data for e in events if e.type == "tile_bought"]
    assert bought == [{"seat": 0, "tile": "T04-1", "value": 4, "paid": {"black": 1, "brown": 1}}]
    # seat 1 holds no cube: his only option, passing, is taken for him
    assert decision(st) == (0, "action") and st.streak == 1


def test_buying_the_last_tile_of_a_row_turns_up_the_next_row() -> None:
    st = spending()
    st.rows[0] = [tile("T04-1")]
    give(st, 0, brown=1, black=1)
    give(st, 1, red=1)
    run(st, phase(3))
    events = act(st, 0, {"action": "buy", "tile": "T04-1"})
    revealed = [untyped(e.data) for e in events if e.type == "row_revealed"]
    assert revealed and revealed[0]["value"] == 6 and len(revealed[0]["tiles"]) == 4
    assert all("cost" in t for t in revealed[0]["tiles"])
    assert st.current_row() == 1


def test_a_cottage_becomes_a_house_for_one_black_and_one_brown() -> None:
    st = spending()
    give(st, 0, black=1, brown=1, red=1)
    run(st, phase(3))
    act(st, 0, {"action": "house"})
    assert decision(st) == (0, "choose_house")
    act(st, 0, {"number": 2})
    assert st.house[0] == [False, True, False, False, False]
    assert st.cubes[0] == cubes(red=1)


def test_a_fence_costs_one_brown_and_each_player_has_only_three() -> None:
    st = spending()
    give(st, 0, brown=2)
    st.fences_left[0] = 1
    run(st, phase(3))
    act(st, 0, {"action": "fence"})
    legal = ENGINE.legal_choices(st, 0)
    assert {"fence": "build", "gx": 2, "gy": 0, "fx": 3, "fy": 1} in legal
    assert all(c["fence"] == "build" for c in legal)
    act(st, 0, {"fence": "build", "gx": 2, "gy": 0, "fx": 3, "fy": 1})
    assert st.fences == {(2, 0, 3, 1): 0} and st.fences_left[0] == 0
    assert st.cubes[0] == cubes(brown=1)
    st.cur = 0
    assert {"action": "fence"} not in turn_choices(st, 0)


def test_removing_a_fence_costs_two_red_and_the_fence_leaves_the_game() -> None:
    st = spending()
    st.fences[(2, 0, 3, 1)] = 1
    st.fences_left[1] = 2
    give(st, 0, red=2)
    run(st, phase(3))
    events = act(st, 0, {"action": "fence"})
    # the only fence on the board was the only option: it went at once
    removed = [e.data for e in events if e.type == "fence_removed"]
    assert removed == [{"seat": 0, "gx": 2, "gy": 0, "fx": 3, "fy": 1}]
    assert st.fences == {} and st.fences_left[1] == 2 and st.cubes[0] == cubes()
    assert st.store[4] == 15


def test_a_fully_fenced_cottage_is_re_placed_by_its_owner_and_a_house_stays_a_house() -> None:
    st = spending()
    st.house[1][0] = True  # seat 1's house 1 at (0,2) touches the quarry and the farm
    st.fences[(0, 2, 1, 1)] = 1
    give(st, 0, brown=1)
    give(st, 1, red=1)
    run(st, phase(3))
    act(st, 0, {"action": "fence"})
    events = act(st, 0, {"fence": "build", "gx": 0, "gy": 2, "fx": -1, "fy": 1})
    assert "cottage_fenced_out" in kinds(events)
    assert st.cottage_pos[1][0] is None and (0, 2) not in st.gap_occ
    assert decision(st) == (1, "replace_cottage")
    legal = ENGINE.legal_choices(st, 1)
    assert {"x": 0, "y": 2} not in legal  # the fences left behind still count
    assert {"x": 2, "y": 2} in legal and {"x": 0, "y": 0} not in legal
    act(st, 1, {"x": 2, "y": 2})
    assert st.cottage_pos[1][0] == (2, 2) and st.house[1][0]
    assert st.fences == {(0, 2, 1, 1): 1, (0, 2, -1, 1): 0}
    assert decision(st) == (1, "action")  # seat 0's action is done, seat 1's turn


def test_a_white_cube_costs_two_cubes_of_any_colour() -> None:
    st = spending()
    give(st, 0, green=2, blue=1)
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})
    assert ENGINE.legal_choices(st, 0) == [
        {"visit": "craftsman", "colour": "white"},
        {"visit": "craftsman", "colour": "purple"},
        {"visit": "trader"},
        {"visit": "law_master", "space": 0},
    ]
    act(st, 0, {"visit": "craftsman", "colour": "white"})
    assert ENGINE.legal_choices(st, 0) == [{"cubes": {"blue": 1, "green": 1}}, {"cubes": {"green": 2}}]
    act(st, 0, {"cubes": {"blue": 1, "green": 1}})
    assert st.cubes[0] == cubes(green=1, white=1)
    assert st.craftsmen == [9, 10, 10]
    assert st.store[2] == 15 and st.store[3] == 14


def test_an_empty_craftsman_refills_from_the_used_cubes_in_the_store() -> None:
    st = spending()
    st.craftsmen[2] = 0
    st.store[7] = 3  # three used yellow cubes lie in the store
    give(st, 0, black=4)
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})
    act(st, 0, {"visit": "craftsman", "colour": "yellow"})
    assert st.cubes[0] == cubes(yellow=1)
    assert st.craftsmen[2] == 2 and st.store[7] == 0 and st.store[0] == 20


def test_the_trader_gives_one_resource_cube_for_two_cubes() -> None:
    st = spending()
    give(st, 0, white=1, black=1)
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})
    act(st, 0, {"visit": "trader"})
    assert decision(st) == (0, "take_cube")
    act(st, 0, {"colour": "red"})
    assert st.cubes[0] == cubes(red=1)
    assert st.store[5] == 1  # the white cube went to the store, not to the craftsman


def test_procuring_a_law_card_costs_one_cube_and_ends_the_players_phase_three() -> None:
    st = spending()
    card = st.spaces[0]
    give(st, 0, black=3)
    give(st, 1, black=3)
    run(st, phase(3))
    events = act(st, 0, {"action": "keytown"})
    events = act(st, 0, {"visit": "law_master", "space": 0})
    procured = next(e for e in events if e.type == "law_procured")
    assert procured.data == {"seat": 0, "space": 0}
    assert procured.private == {0: {"card": f"L{card:02d}"}}
    assert st.hands[0] == [card] and st.spaces == [0] and st.cubes[0] == cubes(black=2)
    assert st.out[0]
    # seat 0 now holds a card: a law window before seat 1's turn asks it (it may play it)
    assert ENGINE.decision(st).seats == (0,)  # type: ignore[union-attr]
    pass_window(st)
    act(st, 1, {"action": "pass"})
    # seat 0 is out: seat 1's pass alone ends phase 3
    assert st.phase > 3


def test_phase_three_ends_when_every_remaining_player_has_passed_in_a_row() -> None:
    st = spending()
    give(st, 0, black=1, brown=1)
    give(st, 1, black=1, brown=1, red=1)
    run(st, phase(3))
    act(st, 0, {"action": "pass"})
    act(st, 1, {"action": "house"})  # an action: the passes start again
    act(st, 1, {"number": 2})
    assert decision(st) == (0, "action") and st.streak == 0
    act(st, 0, {"action": "pass"})
    assert decision(st) == (1, "action")
    act(st, 1, {"action": "pass"})
    assert st.phase == 5


def test_a_player_who_passed_may_act_again_on_his_next_turn() -> None:
    st = spending()
    give(st, 0, black=2, brown=2)
    give(st, 1, red=1)
    run(st, phase(3))
    act(st, 0, {"action": "pass"})
    act(st, 1, {"action": "keytown"})  # the law master takes seat 1's only cube
    assert st.out[1]
    pass_windows(st)  # seat 1 holds a card: asked before seat 0's turn
    assert decision(st) == (0, "action")
    act(st, 0, {"action": "house"})
    assert law("L01") >= 1


def test_in_the_face_up_variant_only_the_lowest_unfinished_row_may_be_bought() -> None:
    st = spending(face_up_tiles=True)
    give(st, 0, brown=2, black=1, blue=1)
    run(st, phase(3))
    buys = [c["tile"] for c in ENGINE.legal_choices(st, 0) if c["action"] == "buy"]
    assert buys == ["T04-1", "T04-3"]
    view = untyped(ENGINE.view(st, 0))
    assert all(row["face_up"] for row in view["rows"])


def test_purchase_responses_are_asked_clockwise_from_the_buyers_left() -> None:
    st = scenario(3, COTTAGES)
    st.rows[0] = [tile("T04-1")]
    give(st, 0, brown=1, black=1)
    deal_law(st, 2, "L13")
    deal_law(st, 1, "L02")
    run(st, phase(3))
    act(st, 0, {"action": "buy", "tile": "T04-1"})
    d = ENGINE.decision(st)
    assert d is not None and d.kind == "law_window" and d.simultaneous
    assert d.seats == (1, 2)  # both holders at once, listed clockwise from the buyer's left
    # both play: the first in order (seat 1, L02) plays; seat 2's L13 lapses unseen
    events = ENGINE.apply(
        st, {1: {"action": "play", "card": "L02"}, 2: {"action": "play", "card": "L13", "tile": "T04-1"}}
    )
    assert [e.data["card"] for e in events if e.type == "law_played"] == ["L02"]
    assert law("L13") in st.hands[2]
    # a Veto window for the others holding a card (L10 has not been seen played)
    assert asked(st) == ((2,), "law_window")
    assert ENGINE.decision(st).data == {"window": "veto"}  # type: ignore[union-attr]
    pass_window(st)
    assert st.mods[tile("T04-1")] == [1, 0]
    # the purchase window opens again (seat 1 holds no card now) before the buyer pays
    assert asked(st) == ((2,), "law_window")
    events = pass_window(st)
    # the buyer cannot pay the raised price: stopped, he keeps his action
    assert "purchase_stopped" in kinds(events)
    assert st.bought[0] == [] and decision(st) == (0, "action")
