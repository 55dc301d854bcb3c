"""Abbey tiles and the end-of-game abbey round, worked by hand.

The hole is (1, 0), east of the start tile: the start road ends there. Seat 0 has a follower on
that road (its west end stops at a cloister); the third tile, north of the hole, is a city cap
pointing into the hole with a figure of its placer (seat 0 with two players, seat 2 with three).
Cloister tiles close the hole to the south and east.
"""

from __future__ import annotations

from typing import Any

from domain.games.carcassonne.board import find
from domain.games.carcassonne.state import NO_TILE, SUPPLY_ABBEY, State, square_of
from tests.support.json_values import untyped
from tests.unit.carcassonne.support import (
    E,
    abbey,
    choose,
    figure_step,
    game,
    place,
    seat_now,
)

HOLE_TILES = ["BA/LR", "BA/C", "BA/C", "BA/L", "BA/L", "BA/L", "BA/L"]


def hole_board(extra: list[str], city_figure: str = "follower", players: int = 2, **options: Any) -> State:
    st = game(HOLE_TILES + extra, players=players, **options)
    place(st, -1, 0, 270, "follower", 1)  # road from the start ends at a cloister
    place(st, 0, -1, 180)  # closes the start city
    place(st, 1, -1, 180, city_figure, 0)  # (seat 2 with three players) city cap pointing south into the hole
    place(st, 0, 1, 0)
    place(st, 1, 1, 0)
    place(st, 2, 1, 0)
    place(st, 2, 0, 0)
    return st


def test_abbey_is_offered_instead_of_drawing_only_while_a_hole_exists() -> None:
    st = game([*HOLE_TILES, "BA/C"], players=3)
    place(st, -1, 0, 270)
    assert st.phase == "place"  # no hole yet: the tile is drawn at once
    for x, y, r in ((0, -1, 180), (1, -1, 180), (0, 1, 0), (1, 1, 0), (2, 1, 0), (2, 0, 0)):
        place(st, x, y, r)
    assert st.phase == "start"
    assert E.legal_choices(st, seat_now(st)) == [
        {"action": "draw"},
        {"action": "abbey", "x": 1, "y": 0},
    ]
    assert st.drawn_tile == NO_TILE  # nothing drawn before the choice


def test_abbey_closes_the_road_and_the_city_it_touches_without_counting_as_their_tile() -> None:
    st = hole_board(["BA/C"], players=3)
    seat = seat_now(st)
    assert seat == 1
    abbey(st, 1, 0)
    # road (seat 0): cloister tile + start = 2; city (seat 2): one tile, no pennant = 2
    assert st.scores == [2, 0, 2]
    assert st.supply[1][SUPPLY_ABBEY] == 0
    assert E.decision(st) is not None and seat_now(st) == 2  # no land tile drawn by seat 1


def test_monk_on_the_abbey_scores_nine_when_it_is_surrounded() -> None:
    st = hole_board(["BA/C"], players=2)
    choose(st, {"action": "abbey", "x": 1, "y": 0})
    choices = E.legal_choices(st, 1)
    assert [c for c in choices if c["action"] == "place"] == [
        {"action": "place", "figure": "follower", "segment": 0, "feature": "cloister"},
        {"action": "place", "figure": "wagon", "segment": 0, "feature": "cloister"},
    ]
    choose(st, {"action": "place", "figure": "follower", "segment": 0, "feature": "cloister"})
    assert st.scores == [4, 0]
    place(st, 2, -1, 0)  # fills the last of the abbey's 8 neighbours
    assert st.scores[1] == 9
    assert st.breakdown[1]["abbeys"] == 9 and st.breakdown[1]["cloisters"] == 0  # its own source


def test_unfinished_abbey_scores_like_a_cloister_at_the_end() -> None:
    st = hole_board([], abbey_end_round="mandatory")
    figure_step(st, "follower", 0)  # the abbey went into the only hole by itself
    assert st.phase == "over"
    assert st.breakdown[1]["abbeys"] == 8  # 1 + 7 neighbours, as a cloister scores
    assert st.breakdown[1]["cloisters"] == 0


def test_wagon_can_move_onto_an_abbey() -> None:
    st = hole_board(["BA/C"], city_figure="wagon", players=3)
    abbey(st, 1, 0)
    assert st.scores == [2, 0, 2]
    assert seat_now(st) == 2 and st.phase == "wagon"
    assert E.legal_choices(st, 2) == [
        {"action": "return"},
        {"action": "move", "x": 1, "y": 0, "segment": 0, "feature": "cloister"},
        {"action": "move", "x": 2, "y": 0, "segment": 0, "feature": "cloister"},
    ]


def test_mandatory_end_round_makes_the_next_seat_place_its_abbey() -> None:
    st = hole_board([], players=3)
    # the only hole: seat 1's abbey goes there without a question, then its figure step
    assert st.phase == "figure" and seat_now(st) == 1
    placed = untyped(E.view(st, None))["board"][-1]
    assert {k: placed[k] for k in ("x", "y", "tile", "rotation")} == {
        "x": 1,
        "y": 0,
        "tile": "AM/A",
        "rotation": 0,
    }
    assert st.scores == [0, 0, 0]
    choose(st, {"action": "none"})
    assert st.scores == [2, 0, 2]
    assert st.phase == "over"
    assert st.supply[0][SUPPLY_ABBEY] == 1  # no hole left for seat 0


def test_optional_end_round_lets_a_seat_pass() -> None:
    st = hole_board([], players=3, abbey_end_round="optional")
    assert E.legal_choices(st, 1) == [{"action": "pass"}, {"action": "abbey", "x": 1, "y": 0}]
    choose(st, {"action": "pass"})
    assert seat_now(st) == 2
    choose(st, {"action": "pass"})
    assert seat_now(st) == 0
    abbey(st, 1, 0, "follower", 0)
    assert st.phase == "over"
    # road and city closed by the abbey score in full; the monk scores 1 + 7 at the end
    assert st.scores == [2 + 8, 0, 2]


def test_no_end_round_ends_the_game_with_the_last_land_tile() -> None:
    st = hole_board([], abbey_end_round="none")
    assert st.phase == "over"
    # unfinished road (2 tiles) and city (1 tile) of seat 0
    assert st.scores == [3, 0]


def test_mandatory_end_round_asks_where_when_there_are_several_holes() -> None:
    st = hole_board(["BA/RFr", "BA/RFr", "BA/RFr", "BA/C"])
    for x, y in ((0, 2), (-1, 2), (-2, 2), (-2, 1)):
        place(st, x, y, 0)  # a second hole appears at (-1, 1)
    assert st.phase == "end_abbey" and seat_now(st) == 1
    assert E.legal_choices(st, 1) == [
        {"action": "abbey", "x": -1, "y": 1},
        {"action": "abbey", "x": 1, "y": 0},
    ]
    abbey(st, -1, 1)
    # seat 0 is left with the single hole: its abbey goes there, then its figure step
    assert st.phase == "figure" and seat_now(st) == 0
    choose(st, {"action": "none"})
    assert st.phase == "over"
    assert st.supply[0][SUPPLY_ABBEY] == st.supply[1][SUPPLY_ABBEY] == 0


def test_field_that_only_borders_the_abbey_gets_nothing_for_the_city_it_closes() -> None:
    st = game(["BA/RFr", *HOLE_TILES[1:]], players=2)
    place(st, -1, 0, 0)  # straight road: the fields north and south of it stay apart
    place(st, 0, -1, 180)
    place(st, 1, -1, 180)  # city cap pointing into the hole
    place(st, 0, 1, 0)
    place(st, 1, 1, 0)
    place(st, 2, 1, 0)
    place(st, 2, 0, 0, "follower", 1)  # farmer east of the hole
    figure_step(st, None)  # seat 1's abbey fills the hole and closes the city
    assert st.phase == "over"
    city = find(st.parent, st.first_segments[st.tile_at[square_of(1, -1)]])
    assert st.open_edges[city] == 0  # the city is complete...
    assert st.breakdown[0]["fields"] == 0  # ...but the farmer's field only borders the abbey
