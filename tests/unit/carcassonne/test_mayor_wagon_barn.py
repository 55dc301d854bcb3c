"""Abbey & Mayor figures worked by hand: mayor strength, wagon moves, barn scorings."""

from __future__ import annotations

from typing import Any

from domain.games.carcassonne.state import BARN, FOLLOWER, MAYOR, WAGON, State
from tests.unit.carcassonne.support import E, choose, game, place, seat_now

# ---- mayor ---------------------------------------------------------------------------------
# Seat 0 puts a knight on a corner city north of the start; seat 1 a mayor on the cap of K east
# of the start; a corner city at (1,-1) joins both into one completed 4-tile city.


def mayor_city(first: str, last: str) -> State:
    st = game([first, "BA/RrC", last])
    place(st, 0, -1, 180, "follower", 0)
    place(st, 1, 0, 0, "mayor", 0)
    place(st, 1, -1, 270)
    return st


def test_mayor_with_two_pennants_outweighs_a_knight() -> None:
    st = mayor_city("BA/Cc+", "BA/Cc+")
    assert st.scores[:2] == [0, 12]  # 4 tiles x2 + 2 pennants x2
    assert st.supply[1][MAYOR] == 1 and st.supply[0][FOLLOWER] == 7


def test_mayor_with_one_pennant_ties_a_knight_and_both_score() -> None:
    st = mayor_city("BA/Cc+", "BA/Cc.1")
    assert st.scores[:2] == [10, 10]


def test_mayor_in_a_city_without_pennants_loses_to_a_knight() -> None:
    st = mayor_city("BA/Cc.1", "BA/Cc.1")
    assert st.scores[:2] == [8, 0]


def test_lone_mayor_without_pennants_scores_nothing_but_occupies_the_city() -> None:
    st = game(["BA/Cc.1", "BA/RrC", "BA/Cc.1"])
    place(st, 0, -1, 180)
    place(st, 1, 0, 0, "mayor", 0)
    choose(st, {"action": "place", "x": 1, "y": -1, "rotation": 270})
    offered = E.legal_choices(st, 0)
    assert not [c for c in offered if c.get("feature") == "city"]
    choose(st, {"action": "none"})
    assert st.scores == [0, 0]
    assert st.supply[1][MAYOR] == 1


def test_mayor_goes_only_into_cities() -> None:
    st = game(["BA/RrC"])
    choose(st, {"action": "place", "x": 1, "y": 0, "rotation": 0})
    mayors = [c for c in E.legal_choices(st, 0) if c.get("figure") == "mayor"]
    assert mayors == [{"action": "place", "figure": "mayor", "segment": 0, "feature": "city"}]


def test_unfinished_city_pays_the_mayor_its_pennants_at_the_end() -> None:
    st = game(["BA/Cc+"], abbey_end_round="none")
    place(st, 0, -1, 180, "mayor", 0)
    assert st.phase == "over"
    assert st.scores == [3, 0]  # 2 tiles + 1 pennant; strength 1


# ---- wagon ---------------------------------------------------------------------------------
# Three players. Seat 0 wagons the start road from a cloister east; seat 2 wagons a corner city
# north-west; seat 1 then lays L west of the start, closing the road (3) and the city (4 tiles,
# 1 pennant: 10). Wagons then move clockwise from seat 1: seat 2 first, then seat 0.


def wagon_board(**options: Any) -> State:
    st = game(["BA/LR", "BA/Cc+", "BA/Cc.1", "BA/L", "BA/CRRR", "BA/RFr"], players=3, **options)
    place(st, 1, 0, 90, "wagon", 1)
    place(st, 0, -1, 270)
    place(st, -1, -1, 180, "wagon", 0)
    place(st, 0, 1, 0)
    place(st, -1, 0, 0)
    return st


def test_wagons_score_as_followers_and_move_clockwise_from_the_active_player() -> None:
    st = wagon_board()
    assert st.scores == [3, 0, 10]
    assert seat_now(st) == 2
    assert E.legal_choices(st, 2) == [
        {"action": "return"},
        {"action": "move", "x": -1, "y": 0, "segment": 2, "feature": "road"},
        {"action": "move", "x": -1, "y": 0, "segment": 3, "feature": "road"},
    ]
    choose(st, {"action": "move", "x": -1, "y": 0, "segment": 2, "feature": "road"})
    assert seat_now(st) == 0
    assert E.legal_choices(st, 0) == [
        {"action": "return"},
        {"action": "move", "x": 0, "y": 1, "segment": 0, "feature": "cloister"},
        {"action": "move", "x": 1, "y": 0, "segment": 0, "feature": "cloister"},
    ]
    choose(st, {"action": "return"})
    assert st.supply[0][WAGON] == 1 and st.supply[2][WAGON] == 0
    wagon = [f for f in st.figures.values() if f.kind == WAGON]
    assert len(wagon) == 1 and wagon[0].owner == 2
    assert st.phase == "place" and st.active == 2


def test_moved_wagon_occupies_its_new_road() -> None:
    st = wagon_board()
    choose(st, {"action": "move", "x": -1, "y": 0, "segment": 3, "feature": "road"})
    choose(st, {"action": "return"})
    # seat 2 now lays a straight road west of L: the road holding the wagon is occupied.
    choose(st, {"action": "place", "x": -2, "y": 0, "rotation": 0})
    roads = [c for c in E.legal_choices(st, 2) if c.get("feature") == "road"]
    assert roads == []


def test_classic_wagon_moves_only_along_connections() -> None:
    st = wagon_board(wagon_move="classic")
    # the city wagon has no connected feature (L's city has no gate): it went home at once
    assert st.supply[2][WAGON] == 1
    assert seat_now(st) == 0
    assert E.legal_choices(st, 0) == [
        {"action": "return"},
        {"action": "move", "x": 1, "y": 0, "segment": 0, "feature": "cloister"},
        {"action": "move", "x": -1, "y": 0, "segment": 2, "feature": "road"},
        {"action": "move", "x": -1, "y": 0, "segment": 3, "feature": "road"},
    ]


def test_wagon_placed_on_a_completing_tile_scores_and_moves_the_same_turn() -> None:
    st = game(["BA/LR", "BA/LR"])
    place(st, 1, 0, 90)
    place(st, -1, 0, 270, "wagon", 1)
    assert st.scores == [0, 3]
    assert seat_now(st) == 1 and st.phase == "wagon"
    assert E.legal_choices(st, 1) == [
        {"action": "return"},
        {"action": "move", "x": -1, "y": 0, "segment": 0, "feature": "cloister"},
        {"action": "move", "x": 0, "y": 0, "segment": 0, "feature": "city"},
    ]


def test_wagon_never_goes_on_a_field() -> None:
    st = game(["BA/RFr"])
    choose(st, {"action": "place", "x": 1, "y": 0, "rotation": 0})
    wagons = [c for c in E.legal_choices(st, 0) if c.get("figure") == "wagon"]
    assert [c["feature"] for c in wagons] == ["road"]


# ---- barn ----------------------------------------------------------------------------------
# Seat 0 farms beside a 2-tile city south of the start; seat 1 farms the field below it; a barn
# at the corner where the start, the straight road east and two cloister tiles meet.


def barn_board(**options: Any) -> State:
    st = game(["BA/C", "BA/C", "BA/RFr", "BA/L", "BA/RFr", "BA/L", "BA/L"], **options)
    place(st, 0, 1, 180, "follower", 1)
    place(st, 0, 2, 0, "follower", 1)
    place(st, 1, 0, 0)
    return st


def test_barn_goes_only_on_a_corner_where_four_field_corners_meet() -> None:
    st = barn_board()
    choose(st, {"action": "place", "x": 1, "y": 1, "rotation": 0})
    barns = [c for c in E.legal_choices(st, 1) if c.get("figure") == "barn"]
    assert barns == [{"action": "place", "figure": "barn", "corner": "NW"}]


def test_barn_placement_scores_the_farmers_three_per_city_and_returns_them() -> None:
    st = barn_board()
    place(st, 1, 1, 0, "barn", corner="NW")
    assert st.scores == [3, 0]
    assert st.supply[0][FOLLOWER] == 7 and st.supply[1][BARN] == 0


def test_joining_farmers_to_a_barn_field_scores_one_per_city() -> None:
    st = barn_board()
    place(st, 1, 1, 0, "barn", corner="NW")
    place(st, 2, 0, 0)
    choose(st, {"action": "place", "x": 1, "y": 2, "rotation": 0})
    # the joined field holds a barn: no farmer may go there, only a monk
    assert [c for c in E.legal_choices(st, 1) if c["action"] == "place"] == [
        {"action": "place", "figure": "follower", "segment": 0, "feature": "cloister"},
        {"action": "place", "figure": "wagon", "segment": 0, "feature": "cloister"},
    ]
    choose(st, {"action": "none"})
    assert st.scores == [3, 1]
    assert st.supply[1][FOLLOWER] == 7


def test_second_barn_in_a_field_is_refused_by_default() -> None:
    st = barn_board()
    place(st, 1, 1, 0, "barn", corner="NW")
    place(st, 2, 0, 0)
    place(st, 1, 2, 0)
    choose(st, {"action": "place", "x": 2, "y": 1, "rotation": 0})
    assert not [c for c in E.legal_choices(st, 0) if c.get("figure") == "barn"]


def test_every_barn_owner_scores_four_per_city_at_the_end() -> None:
    st = barn_board(barn_on_barn_field=True, abbey_end_round="none")
    place(st, 1, 1, 0, "barn", corner="NW")
    place(st, 2, 0, 0)
    place(st, 1, 2, 0)
    place(st, 2, 1, 0, "barn", corner="NW")
    assert st.phase == "over"
    # 3 (barn placed) + 1 (joined) during play; then 4 per barn owner for the one city
    assert st.scores == [3 + 4, 1 + 4]
    assert st.breakdown[0]["barns"] == st.breakdown[1]["barns"] == 4
