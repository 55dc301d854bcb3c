"""The special land tiles of Abbey & Mayor, each placed next to the start tile and scored."""

from __future__ import annotations

from domain.games.carcassonne.board import find
from tests.unit.carcassonne.support import game, place


def test_well_road_is_complete_only_when_all_three_branches_are_closed() -> None:
    st = game(["AM/Rrr", "BA/LR", "BA/LR", "BA/LR"])
    place(st, 1, 0, 0, "follower", 0)
    place(st, 1, -1, 0)
    place(st, 2, 0, 90)
    assert st.scores == [0, 0]
    place(st, -1, 0, 270)
    assert st.scores == [5, 0]


def test_tunnel_road_runs_unbroken_through_the_city() -> None:
    st = game(["AM/CRcr+", "BA/LR", "BA/LR"])
    place(st, 1, 0, 90, "follower", 1)
    place(st, 2, 0, 90)
    assert st.scores == [0, 0]
    place(st, -1, 0, 270)
    assert st.scores == [4, 0]


def test_bridge_carries_two_separate_cities() -> None:
    st = game(["AM/CCcc+", "BA/C"])
    place(st, 0, -1, 0, "follower", 0)
    base = st.first_segments[1]
    assert find(st.parent, base) != find(st.parent, base + 1)
    place(st, 0, -2, 180)
    # north-south city: start + bridge + cap = 3 tiles + 1 pennant, complete although the
    # east-west city under the bridge is still open
    assert st.scores == [8, 0]


def test_city_ending_at_the_south_meadow_closes_the_start_city() -> None:
    st = game(["AM/CCc+"])
    place(st, 0, -1, 180, "follower", 0)
    assert st.scores == [6, 0]  # 2 tiles + 1 pennant, doubled


def test_road_into_a_city_gate_ends_there() -> None:
    st = game(["AM/RC", "BA/LR"])
    place(st, 1, 0, 0, "follower", 1)
    place(st, -1, 0, 270)
    assert st.scores == [3, 0]


def test_dead_end_road_stops_at_the_house() -> None:
    st = game(["AM/R", "BA/LR"])
    place(st, 1, 0, 90, "follower", 0)
    place(st, -1, 0, 270)
    assert st.scores == [3, 0]


def test_cloister_crossing_ends_four_separate_roads() -> None:
    st = game(["AM/LRRRR", "BA/LR"])
    place(st, 1, 0, 0, "follower", 4)
    place(st, -1, 0, 270)
    assert st.scores == [3, 0]


def test_two_pennant_city_counts_both_coats_of_arms() -> None:
    st = game(["AM/C++"], abbey_end_round="none")
    place(st, 0, -1, 0, "follower", 0)
    assert st.phase == "over"
    assert st.scores == [4, 0]  # unfinished: 2 tiles + 2 pennants


def test_single_side_city_with_pennant_closes_the_start_city() -> None:
    st = game(["AM/C!+"])
    place(st, 0, -1, 270, "follower", 0)
    assert st.scores == [6, 0]


def test_gate_tile_with_two_caps_keeps_its_cities_and_roads_apart() -> None:
    st = game(["AM/CCRR"])
    place(st, 0, -1, 180)
    base = st.first_segments[1]
    roots = {find(st.parent, base + i) for i in range(7)}
    assert len(roots) == 7


def test_road_touching_the_city_wall_cuts_off_a_small_field_beside_the_city() -> None:
    st = game(["AM/CRr"], abbey_end_round="none")
    place(st, 0, -1, 180, "follower", 3)  # the small field between road and wall
    assert st.phase == "over"  # the tile closed the start city; final farm scoring: 3
    assert st.scores == [3, 0]


def test_field_on_the_far_side_of_the_wall_road_touches_no_city() -> None:
    st = game(["AM/CRr"], abbey_end_round="none")
    place(st, 0, -1, 180, "follower", 4)
    assert st.phase == "over"
    assert st.scores == [0, 0]
