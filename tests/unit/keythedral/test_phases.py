"""Phases 1, 2, 4 and 5 worked by hand on the small board of ``support``."""

from __future__ import annotations

from domain.games.keythedral import ENGINE
from domain.games.keythedral.state import State
from tests.unit.keythedral.support import (
    act,
    cubes,
    deal_law,
    decision,
    give,
    kinds,
    law,
    phase,
    run,
    scenario,
)

Q, F, L, M, V = (1, 1), (-1, -1), (1, -1), (-1, 1), (3, 1)
TWO = {(0, 1): (2, 0), (0, 2): (0, -2), (1, 1): (0, 2), (1, 3): (-2, 0)}


def spot(cell: tuple[int, int]) -> dict[str, list[list[int]]]:
    return {"fields": [[cell[0], cell[1]]]}


def test_work_order_markers_go_a_b_a_b_a_and_workers_follow_the_marker_placer() -> None:
    st = scenario(2, TWO)
    run(st, phase(1))
    assert decision(st) == (0, "work_order")
    act(st, 0, {"number": 1})
    # seat 0's cottage 1 at (2,0) sees vineyard, quarry and lake
    assert decision(st) == (0, "place_workers")
    assert ENGINE.legal_choices(st, 0) == [spot(V), spot(Q), spot(L)]
    act(st, 0, spot(Q))
    # seat 1's cottage 1 at (0,2): the quarry is taken, only the farm is left: placed at once
    assert st.workers == {Q: 0, M: 1}
    assert decision(st) == (1, "work_order")
    act(st, 1, {"number": 3})
    assert st.workers[F] == 1  # cottage 3 at (-2,0): farm taken, forest left
    assert decision(st) == (0, "work_order")
    act(st, 0, {"number": 2})
    assert st.workers[L] == 0
    assert decision(st) == (1, "work_order")
    events = act(st, 1, {"number": 4})
    assert st.markers == [1, 3, 2, 4, 5]  # the fifth marker takes the last number by itself
    assert "phase_started" in kinds(events)
    # phase 2 ran on: each worker brought one cube of its field
    assert st.cubes[0] == cubes(black=1, blue=1)
    assert st.cubes[1] == cubes(green=1, brown=1)
    assert st.store[0] == 19 and st.store[1] == 19


def test_a_house_places_two_workers_on_two_different_fields() -> None:
    st = scenario(2, TWO)
    st.house[0][0] = True
    run(st, phase(1))
    act(st, 0, {"number": 1})
    legal = ENGINE.legal_choices(st, 0)
    assert legal == [
        {"fields": [[3, 1], [1, 1]]},
        {"fields": [[3, 1], [1, -1]]},
        {"fields": [[1, 1], [1, -1]]},
    ]
    act(st, 0, {"fields": [[3, 1], [1, -1]]})
    assert st.workers[V] == 0 and st.workers[L] == 0


def test_a_fence_of_any_colour_keeps_that_cottages_workers_out_of_that_field() -> None:
    st = scenario(2, TWO)
    st.fences[(2, 0, 1, 1)] = 1
    st.fences[(2, 0, 3, 1)] = 0
    run(st, phase(1))
    act(st, 0, {"number": 1})
    # only the lake is open to cottage 1: placed without asking
    assert st.workers[L] == 0
    # the fences do not stop seat 1's cottage at (0,2) from entering the quarry
    assert decision(st) == (1, "place_workers")
    assert spot(Q) in ENGINE.legal_choices(st, 1)


def test_workers_with_no_free_field_stay_idle() -> None:
    st = scenario(2, {(0, 1): (0, 2), (1, 1): (2, 2)})
    st.workers[Q] = 1
    st.workers[M] = 1
    run(st, phase(1))
    events = act(st, 0, {"number": 1})
    assert {"type": "workers_idle", "seat": 0} in [
        {"type": e.type, "seat": e.data["seat"]} for e in events if e.type == "workers_idle"
    ]
    assert st.workers[V] == 1  # seat 1's cottage at (2,2) took the vineyard


def test_collection_goes_in_turn_order_and_the_harvest_fails_when_the_store_is_empty() -> None:
    st = scenario(3, {})
    st.start = 2
    st.workers = {Q: 0, (1, -1): 1, (-1, -1): 2}
    st.store[0] = 0  # no black cube in the store
    st.store[2] = 1
    events = run(st, phase(2))
    failed = [e.data for e in events if e.type == "harvest_failed"]
    assert failed == [{"seat": 0, "colour": "black", "missing": 1}]
    assert st.cubes[1] == cubes(blue=1)
    assert st.cubes[2] == cubes(brown=1)
    harvested = [e.data["seat"] for e in events if e.type == "harvested"]
    assert harvested == [2, 1]  # seat 2 starts; seat 0 got nothing


def test_the_start_player_is_served_first_when_cubes_run_short() -> None:
    st = scenario(2, {})
    st.start = 1
    st.workers = {L: 0, (5, 1): 1}
    st.fields[(5, 1)] = 2  # a second lake
    st.store[2] = 1
    run(st, phase(2))
    assert st.cubes[1][2] == 1 and st.cubes[0][2] == 0


def test_phase_four_brings_workers_home_and_refills_empty_law_spaces() -> None:
    st = scenario(3, {})
    st.workers = {Q: 0}
    st.markers = [1, 2, 3, 4, 5]
    st.spaces = [0, st.spaces[1]]
    deck = len(st.deck)
    run(st, phase(4))
    assert st.workers == {} and st.markers == []
    assert all(st.spaces) and len(st.deck) == deck - 1


def _auction(players: int = 3, **held: dict[str, int]) -> State:
    st = scenario(players, {})
    for seat, colours in held.items():
        give(st, int(seat[1:]), **colours)
    run(st, phase(5))
    return st


def test_nobody_bids_so_the_left_neighbour_of_the_old_start_player_chooses() -> None:
    st = _auction(s2={"black": 1}, s0={"red": 1})
    assert st.start == 1  # the marker went from A (0) to B (1)
    assert decision(st) == (2, "bid")  # C bids first
    act(st, 2, {"bid": 0})
    act(st, 0, {"bid": 0})
    assert decision(st) == (1, "choose_start")  # B had nothing to match
    act(st, 1, {"seat": 0})
    assert st.start == 0 and st.round == 2


def test_the_highest_bidder_pays_b_and_names_the_start_player() -> None:
    st = _auction(s2={"black": 2}, s0={"red": 1})
    assert ENGINE.legal_choices(st, 2) == [{"bid": 0}, {"bid": 1}, {"bid": 2}]
    events = act(st, 2, {"bid": 2})
    # seat 0 cannot outbid with one cube and B holds nothing to match: both pass by themselves
    assert [e.data["bid"] for e in events if e.type == "bid"] == [2, 0, 0]
    assert decision(st) == (2, "choose_start")
    assert st.cubes[2] == cubes() and st.cubes[1] == cubes(black=2)
    act(st, 2, {"seat": 2})
    assert st.start == 2


def test_b_wins_by_matching_and_pays_the_player_whose_bid_he_matched() -> None:
    st = _auction(s2={"black": 2}, s0={"red": 3}, s1={"green": 2, "blue": 2})
    act(st, 2, {"bid": 2})
    assert ENGINE.legal_choices(st, 0) == [{"bid": 0}, {"bid": 3}]
    act(st, 0, {"bid": 3})
    assert ENGINE.legal_choices(st, 1) == [{"bid": 0}, {"bid": 3}]
    act(st, 1, {"bid": 3})
    assert decision(st) == (1, "pay")
    act(st, 1, {"cubes": {"blue": 2, "green": 1}})
    assert st.cubes[0] == cubes(red=3, blue=2, green=1)
    assert st.cubes[2] == cubes(black=2)  # the outbid player pays nothing
    assert decision(st) == (1, "choose_start")


def test_in_two_players_a_bids_once_then_b() -> None:
    st = _auction(2, s0={"black": 1})
    assert st.start == 1
    assert decision(st) == (0, "bid")
    act(st, 0, {"bid": 1})
    assert decision(st) == (0, "choose_start")  # B held nothing to match with
    assert st.cubes[1] == cubes(black=1)


def test_a_phase_start_window_asks_every_seat_holding_a_card_whatever_the_card() -> None:
    st = scenario(3, {})
    deal_law(st, 2, "L20")
    deal_law(st, 1, "L18")  # a phase-2 card: seat 1 cannot play it now, but is asked all the same
    run(st, {"t": "phase", "p": 4, "s": 0})
    d = ENGINE.decision(st)
    assert d is not None and d.kind == "law_window" and d.seats == (1, 2) and d.simultaneous
    assert ENGINE.legal_choices(st, 1) == [{"action": "pass"}]
    assert ENGINE.legal_choices(st, 2) == [
        {"action": "pass"},
        {"action": "play", "card": "L20", "target_seat": 1},
        {"action": "play", "card": "L20", "target_seat": 2},
    ]
    assert law("L20") in st.hands[2]


def test_a_house_with_one_free_field_places_its_one_worker_by_itself() -> None:
    st = scenario(2, TWO)
    st.house[0][0] = True
    st.workers = {V: 1, Q: 1}
    run(st, phase(1))
    act(st, 0, {"number": 1})
    assert st.workers[L] == 0


def test_optional_placement_offers_to_place_nothing_or_a_single_worker_from_a_house() -> None:
    st = scenario(2, TWO, optional_placement=True)
    st.house[0][0] = True
    run(st, phase(1))
    act(st, 0, {"number": 1})
    legal = ENGINE.legal_choices(st, 0)
    assert legal[0] == {"fields": []}
    assert {"fields": [[3, 1]]} in legal and {"fields": [[3, 1], [1, 1]]} in legal
    assert len(legal) == 1 + 3 + 3
