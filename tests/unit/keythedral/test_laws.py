"""Each of the 20 law cards in its window, worked by hand (2 players unless stated)."""

from __future__ import annotations

from typing import Any

from domain.games.keythedral import ENGINE
from domain.games.keythedral.state import State
from tests.unit.keythedral.support import (
    COTTAGES,
    act,
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

DECLINE = {"action": "pass"}


def board(**options: Any) -> State:
    st = scenario(2, COTTAGES, **options)
    st.rows[0] = [tile("T04-1"), tile("T04-3")]
    st.pools[0] = [t for t in range(6) if t not in st.rows[0]]
    return st


def start_of(p: int) -> dict[str, object]:
    return {"t": "phase", "p": p, "s": 0}


def play(card: str, **params: object) -> dict[str, object]:
    return {"action": "play", "card": card, **params}


def test_l01_work_order_lets_its_player_choose_every_marker_number_this_round() -> None:
    st = board()
    deal_law(st, 1, "L01")
    run(st, start_of(1))
    assert decision(st) == (1, "law_window")
    assert ENGINE.legal_choices(st, 1) == [DECLINE, play("L01")]
    act(st, 1, play("L01"))
    assert decision(st) == (1, "work_order")  # marker 1 is seat 0's, but seat 1 chooses
    act(st, 1, {"number": 2})
    # workers still leave in turn order from the marker's owner: seat 0's cottage 2 first
    assert decision(st) == (0, "place_workers")
    act(st, 0, {"fields": [[1, -1]]})
    act(st, 1, {"fields": [[-1, -1]]})  # then seat 1's cottage 2 at (-2,0)
    assert st.workers == {(1, -1): 0, (-1, -1): 1}
    assert decision(st) == (1, "work_order")  # and seat 1 chooses marker 2 as well


def test_l02_price_increase_stops_the_buyer_who_keeps_his_action() -> None:
    st = board()
    give(st, 0, brown=2, black=1, green=1)
    give(st, 1, red=1)
    deal_law(st, 1, "L02")
    run(st, phase(3))
    act(st, 0, {"action": "buy", "tile": "T04-1"})
    assert decision(st) == (1, "law_window")
    assert ENGINE.legal_choices(st, 1) == [DECLINE, play("L02")]
    act(st, 1, play("L02"))
    assert st.mods[tile("T04-1")] == [1, 0]
    assert decision(st) == (0, "pay_tile")
    assert ENGINE.legal_choices(st, 0) == [
        {"action": "pay", "cubes": {"black": 1, "brown": 2}},
        {"action": "decline"},
    ]
    events = act(st, 0, {"action": "decline"})
    assert "purchase_stopped" in kinds(events)
    assert decision(st) == (0, "action")  # the stopped buyer has not used his action
    act(st, 0, {"action": "buy", "tile": "T04-1"})  # the card stays under the tile
    # one price only now (no new card was played, so no way to decline): paid at once
    assert st.bought[0] == [tile("T04-1")] and st.cubes[0] == cubes(green=1)
    assert tile("T04-1") not in st.mods and law("L02") in st.discard


def test_l02_cannot_be_played_by_the_buyer_himself() -> None:
    st = board()
    give(st, 0, brown=1, black=1)
    deal_law(st, 0, "L02")
    run(st, phase(3))
    act(st, 0, {"action": "buy", "tile": "T04-1"})
    # the buyer holds a card, so the purchase window asks him, but he may only pass
    assert decision(st) == (0, "law_window")
    assert ENGINE.legal_choices(st, 0) == [DECLINE]
    pass_window(st)
    # one way to pay, asked all the same: with Substitution (L05) he could have had more
    assert ENGINE.legal_choices(st, 0) == [{"action": "pay", "cubes": {"black": 1, "brown": 1}}]
    act(st, 0, {"action": "pay", "cubes": {"black": 1, "brown": 1}})
    assert st.bought[0] == [tile("T04-1")]


def test_l03_price_decrease_takes_one_non_yellow_cube_off_the_chosen_tile() -> None:
    st = board()
    give(st, 0, black=1, red=1)
    deal_law(st, 0, "L03")
    run(st, phase(3))
    act(st, 0, play("L03", tile="T04-1"))
    assert st.mods[tile("T04-1")] == [0, 1]
    assert decision(st) == (0, "action")  # playing a card is not the action
    act(st, 0, {"action": "buy", "tile": "T04-1"})
    assert st.bought[0] == [tile("T04-1")] and st.cubes[0] == cubes(red=1)


def test_l04_free_house_turns_a_cottage_into_a_house_at_once() -> None:
    st = board()
    give(st, 0, red=1)
    deal_law(st, 0, "L04")
    run(st, phase(3))
    assert play("L04", number=1) in ENGINE.legal_choices(st, 0)
    act(st, 0, play("L04", number=1))
    assert st.house[0][0] and st.cubes[0] == cubes(red=1)


def test_l05_substitution_pays_other_resource_types_for_a_tile() -> None:
    st = board()
    give(st, 0, blue=2)
    deal_law(st, 0, "L05")
    run(st, phase(3))
    act(st, 0, {"action": "buy", "tile": "T04-1"})  # printed 1 brown 1 black
    pass_windows(st)
    assert ENGINE.legal_choices(st, 0) == [{"action": "pay", "cubes": {"blue": 2}, "substitution": True}]
    events = act(st, 0, {"action": "pay", "cubes": {"blue": 2}, "substitution": True})
    assert st.bought[0] == [tile("T04-1")]
    assert st.cubes[0] == cubes() and law("L05") in st.discard
    assert [e.data for e in events if e.type == "law_played"] == [
        {"seat": 0, "card": "L05", "cubes": {"blue": 2}}
    ]


def test_l06_renumbering_sends_another_cottages_worker_with_the_chosen_number() -> None:
    st = board()
    deal_law(st, 0, "L06")
    run(st, phase(1))
    act(st, 0, {"number": 1})
    assert decision(st) == (0, "law_window")
    assert ENGINE.legal_choices(st, 0) == [DECLINE, play("L06", number=2)]
    act(st, 0, play("L06", number=2))
    act(st, 0, {"fields": [[1, 1]]})  # cottage 1 at (2,0)
    # cottage 2 at (0,-2) placed now: lake or forest
    assert decision(st) == (0, "place_workers")
    act(st, 0, {"fields": [[1, -1]]})
    assert st.workers[(1, -1)] == 0
    assert st.workers == {(1, 1): 0, (1, -1): 0, (-1, 1): 1}
    assert decision(st) == (1, "work_order")
    events = act(st, 1, {"number": 2})
    # when number 2 comes up, seat 0's cottage 2 places nothing more
    placed = [e.data["seat"] for e in events if e.type == "workers_placed"]
    assert placed == [1] and st.workers[(-1, -1)] == 1


def test_l07_craft_dealer_swaps_a_resource_cube_for_a_used_craft_cube_in_the_store() -> None:
    st = board()
    st.craftsmen[0] = 9
    st.store[5] = 1  # one used white cube lies in the store
    give(st, 0, black=1, red=1)
    deal_law(st, 0, "L07")
    run(st, phase(3))
    assert play("L07", take="white", give="black") in ENGINE.legal_choices(st, 0)
    assert all(c.get("take") != "purple" for c in ENGINE.legal_choices(st, 0))
    act(st, 0, play("L07", take="white", give="black"))
    assert st.cubes[0] == cubes(white=1, red=1) and st.store[5] == 0 and st.store[0] == 20


def test_l08_choice_of_harvest_takes_any_colours_for_one_field_type() -> None:
    st = board()
    st.workers = {(1, 1): 0, (-1, -1): 1}
    deal_law(st, 0, "L08")
    run(st, start_of(2))
    assert ENGINE.legal_choices(st, 0) == [DECLINE, play("L08", field="quarry")]
    act(st, 0, play("L08", field="quarry"))
    assert decision(st) == (0, "harvest_colour")
    act(st, 0, {"colour": "red"})
    assert st.cubes[0] == cubes(red=1) and st.cubes[1] == cubes(brown=1)


def test_l09_right_of_way_lets_workers_ignore_fences_this_round() -> None:
    st = board()
    st.fences = {(2, 0, 1, 1): 1, (2, 0, 3, 1): 1}
    deal_law(st, 0, "L09")
    run(st, start_of(1))
    act(st, 0, play("L09"))
    act(st, 0, {"number": 1})
    assert ENGINE.legal_choices(st, 0) == [{"fields": [[3, 1]]}, {"fields": [[1, 1]]}, {"fields": [[1, -1]]}]
    assert st.fences == {(2, 0, 1, 1): 1, (2, 0, 3, 1): 1}  # the fences stay


def test_l10_veto_cancels_the_card_just_played() -> None:
    st = board()
    give(st, 0, red=1)
    deal_law(st, 0, "L04")
    deal_law(st, 1, "L10")
    run(st, phase(3))
    act(st, 0, play("L04", number=1))
    assert decision(st) == (1, "law_window")
    assert ENGINE.legal_choices(st, 1) == [DECLINE, play("L10")]
    events = act(st, 1, play("L10"))
    assert "law_vetoed" in kinds(events)
    assert not st.house[0][0]
    assert st.discard[-2:] == [law("L04"), law("L10")]
    assert decision(st) == (0, "action")


def test_l11_dangerous_fence_removes_a_fence_for_good() -> None:
    st = board()
    st.fences[(2, 0, 3, 1)] = 1
    st.fences_left[1] = 2
    give(st, 0, red=1)
    deal_law(st, 0, "L11")
    run(st, phase(3))
    act(st, 0, play("L11", gx=2, gy=0, fx=3, fy=1))
    assert st.fences == {} and st.fences_left[1] == 2


def test_l12_building_restriction_stops_other_players_building_houses() -> None:
    st = board()
    give(st, 0, black=1, brown=1)
    give(st, 1, black=1, brown=1)
    deal_law(st, 1, "L12")
    run(st, start_of(3))
    assert decision(st) == (1, "law_window")
    act(st, 1, play("L12"))
    assert decision(st) == (0, "action")
    assert {"action": "house"} not in ENGINE.legal_choices(st, 0)
    act(st, 0, {"action": "pass"})
    assert {"action": "house"} in ENGINE.legal_choices(st, 1)


def test_l13_change_of_style_swaps_the_tile_being_bought_and_the_buyer_keeps_his_action() -> None:
    st = board()
    give(st, 0, brown=1, black=1)
    deal_law(st, 1, "L13")
    run(st, phase(3))
    act(st, 0, {"action": "buy", "tile": "T04-1"})
    assert ENGINE.legal_choices(st, 1) == [DECLINE, play("L13", tile="T04-1")]
    events = act(st, 1, play("L13", tile="T04-1"))
    swapped = next(e.data for e in events if e.type == "tile_swapped")
    assert swapped["removed"] == "T04-1"
    assert tile("T04-1") in st.pools[0] and tile("T04-1") not in st.rows[0]
    placed: Any = swapped["placed"]
    assert tile(str(placed["id"])) in st.rows[0]
    assert st.bought[0] == [] and "purchase_stopped" in kinds(events)
    assert decision(st) == (0, "action")


def test_l14_hard_worker_doubles_one_workers_cubes() -> None:
    st = board()
    st.workers = {(1, 1): 0, (1, -1): 0}
    deal_law(st, 0, "L14")
    run(st, start_of(2))
    assert ENGINE.legal_choices(st, 0) == [DECLINE, play("L14", x=1, y=-1), play("L14", x=1, y=1)]
    act(st, 0, play("L14", x=1, y=1))
    assert st.cubes[0] == cubes(black=2, blue=1)


def test_l15_good_deal_gives_two_resource_cubes_for_one() -> None:
    st = board()
    give(st, 0, black=1)
    deal_law(st, 0, "L15")
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})
    act(st, 0, {"visit": "trader", "card": "L15"})
    assert decision(st) == (0, "take_cube")
    act(st, 0, {"colour": "red"})
    act(st, 0, {"colour": "green"})
    assert st.cubes[0] == cubes(red=1, green=1) and st.store[0] == 20


def test_l16_craftsmans_discount_sells_gold_for_two_cubes() -> None:
    st = board()
    give(st, 0, black=2)
    deal_law(st, 0, "L16")
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})
    assert {"visit": "craftsman", "colour": "yellow", "card": "L16"} in ENGINE.legal_choices(st, 0)
    act(st, 0, {"visit": "craftsman", "colour": "yellow", "card": "L16"})
    assert st.cubes[0] == cubes(yellow=1) and st.craftsmen[2] == 9


def test_l17_collapse_turns_any_players_house_back_into_a_cottage() -> None:
    st = board()
    st.house[1][1] = True
    give(st, 0, red=1)
    deal_law(st, 0, "L17")
    run(st, phase(3))
    act(st, 0, play("L17", target_seat=1, number=2))
    assert not st.house[1][1]


def test_l18_bumper_harvest_doubles_a_field_type_for_everyone() -> None:
    st = board()
    st.workers = {(-1, -1): 1, (1, 1): 0}
    deal_law(st, 0, "L18")
    run(st, start_of(2))
    act(st, 0, play("L18", field="forest"))
    assert st.cubes[1] == cubes(brown=2) and st.cubes[0] == cubes(black=1)


def test_l19_blight_stops_a_field_type_producing_for_everyone() -> None:
    st = board()
    st.workers = {(-1, -1): 1, (1, 1): 0}
    deal_law(st, 0, "L19")
    run(st, start_of(2))
    act(st, 0, play("L19", field="quarry"))
    assert st.cubes[1] == cubes(brown=1) and st.cubes[0] == cubes()


def test_l20_new_start_player_at_the_start_of_a_phase() -> None:
    st = scenario(3, {})
    deal_law(st, 0, "L20")
    run(st, start_of(4))
    events = act(st, 0, play("L20", target_seat=2))
    assert [e.data for e in events if e.type == "law_played"] == [
        {"seat": 0, "card": "L20", "target_seat": 2}
    ]  # who played it, and whom it names
    assert [e.data for e in events if e.type == "start_player"] == [{"seat": 2, "named_by": 0}]
    # phase 5 follows: the new start player (2) hands the marker to his left, seat 0
    assert [e.data for e in events if e.type == "start_marker_passed"] == [{"seat": 0}]


def test_a_window_that_public_information_shows_useless_is_skipped() -> None:
    """Veto windows stop once L10 has been seen played; a seat holding no card is never asked."""
    st = board()
    give(st, 0, red=1)
    deal_law(st, 0, "L04")
    deal_law(st, 1, "L14")
    st.deck.remove(law("L10"))
    st.discard.append(law("L10"))  # played earlier: no one can hold it
    run(st, phase(3))
    act(st, 0, play("L04", number=1))
    assert st.house[0][0]  # no Veto window opened, although seat 1 holds a card
    assert decision(st) == (0, "action")
    act(st, 0, {"action": "pass"})
    assert decision(st) == (1, "action")  # a pass changes nothing: no window after it
