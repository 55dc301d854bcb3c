"""Base game scenarios worked by hand. The start tile sits at (0, 0): city north, road east-west,
field south; y grows southwards."""

from __future__ import annotations

from tests.unit.carcassonne.support import E, choose, game, place


def test_two_tile_city_scores_four_and_the_knight_goes_home() -> None:
    st = game(["BA/C"], abbey_and_mayor=False)
    place(st, 0, -1, 180, "follower", 0)
    assert st.scores == [4, 0]
    assert st.supply[0][0] == 7
    assert st.phase == "over"


def test_classic_two_tile_city_scores_two() -> None:
    st = game(["BA/C"], abbey_and_mayor=False, tiny_city_points=2)
    place(st, 0, -1, 180, "follower", 0)
    assert st.scores == [2, 0]


def test_road_between_two_cloisters_scores_one_per_tile() -> None:
    st = game(["BA/LR", "BA/LR"], abbey_and_mayor=False)
    place(st, 1, 0, 90, "follower", 1)
    assert st.supply[0][0] == 6
    place(st, -1, 0, 270)
    assert st.scores == [3, 0]
    assert st.supply[0][0] == 7


def test_shared_road_scores_in_full_for_both_tied_players() -> None:
    st = game(["BA/Rr", "BA/Rr", "BA/Rr", "BA/LR", "BA/LR"], abbey_and_mayor=False)
    place(st, 1, 0, 0, "follower", 0)
    place(st, 0, 1, 270, "follower", 0)
    place(st, 1, 1, 90)
    place(st, -1, 0, 270)
    assert st.scores == [0, 0]
    place(st, 0, 2, 180)
    assert st.scores == [6, 6]
    assert st.supply[0][0] == st.supply[1][0] == 7


def test_follower_cannot_join_an_occupied_road() -> None:
    st = game(["BA/Rr", "BA/RFr"], abbey_and_mayor=False)
    place(st, 1, 0, 0, "follower", 0)
    choose(st, {"action": "place", "x": -1, "y": 0, "rotation": 0})
    offered = E.legal_choices(st, 1)
    assert {"action": "none"} in offered
    assert [c["segment"] for c in offered if c["action"] == "place"] == [1, 2]


def test_city_touching_one_tile_twice_counts_that_tile_once() -> None:
    # I at (0,1) turned so its caps face east and south; three corner cities close a ring.
    st = game(["BA/CC.2", "BA/Cc.1", "BA/Cc.1", "BA/Cc.1"], abbey_and_mayor=False)
    place(st, 0, 1, 180, "follower", 0)
    place(st, 1, 1, 270)
    place(st, 1, 2, 0)
    place(st, 0, 2, 90)
    assert st.scores == [8, 0]


def test_cloister_scores_nine_when_surrounded_and_one_plus_neighbours_at_the_end() -> None:
    st = game(
        ["BA/L", "BA/RFr", "BA/RFr", "BA/L", "BA/L", "BA/LR", "BA/C", "BA/C"],
        abbey_and_mayor=False,
    )
    place(st, 0, 1, 0, "follower", 0)
    place(st, -1, 0, 0)
    place(st, 1, 0, 0)
    place(st, -1, 1, 0, "follower", 0)
    place(st, 1, 1, 0)
    place(st, 0, 2, 0)
    place(st, -1, 2, 180)
    assert st.scores == [0, 0]
    place(st, 1, 2, 180)
    # seat 0's cloister is complete (9); the game ends and seat 1's cloister has 5 neighbours.
    assert st.phase == "over"
    assert st.scores == [9, 6]
    assert st.breakdown[1]["cloisters"] == 6


def test_unfinished_road_and_city_score_one_per_tile_and_pennant_at_the_end() -> None:
    st = game(["BA/Cc+", "BA/RFr"], abbey_and_mayor=False)
    place(st, 0, -1, 180, "follower", 0)  # corner city with pennant joins the start city
    place(st, 1, 0, 0, "follower", 0)
    assert st.phase == "over"
    # city: 2 tiles + 1 pennant = 3; road: start + straight = 2
    assert st.scores == [3, 2]


def test_fields_share_a_completed_city_and_each_field_scores_on_its_own() -> None:
    st = game(["BA/C", "BA/L", "BA/RFr"], abbey_and_mayor=False)
    place(st, 0, -1, 180, "follower", 1)  # farmer beside the city it completes
    place(st, 0, 1, 0)
    place(st, 1, 0, 0, "follower", 1)  # farmer north of the road, beside the start city
    assert st.phase == "over"
    assert st.scores == [6, 0]
    assert st.breakdown[0]["fields"] == 6


def test_classic_v2_farms_count_a_city_once_per_player() -> None:
    st = game(["BA/C", "BA/L", "BA/RFr"], abbey_and_mayor=False, farm_scoring="v2")
    place(st, 0, -1, 180, "follower", 1)
    place(st, 0, 1, 0)
    place(st, 1, 0, 0, "follower", 1)
    assert st.scores == [3, 0]


def test_original_v1_farms_give_four_per_city_to_the_farmer_majority_around_it() -> None:
    st = game(["BA/C", "BA/RFr"], abbey_and_mayor=False, farm_scoring="v1")
    place(st, 0, -1, 180, "follower", 1)
    place(st, 1, 0, 0, "follower", 1)
    # one farmer each around the single completed city: a tie, both score 4
    assert st.scores == [4, 4]


def test_fields_of_different_players_both_score_the_same_city() -> None:
    st = game(["BA/C", "BA/RFr"], abbey_and_mayor=False)
    place(st, 0, -1, 180, "follower", 1)
    place(st, 1, 0, 0, "follower", 1)
    assert st.scores == [3, 3]


def test_field_beside_an_unfinished_city_scores_nothing() -> None:
    st = game(["BA/RFr"], abbey_and_mayor=False)
    place(st, 1, 0, 0, "follower", 1)
    assert st.phase == "over"
    assert st.scores == [0, 0]


def test_unplaceable_tile_is_discarded_publicly_and_another_is_drawn() -> None:
    st = game(["BA/C", "BA/Cccc+", "BA/RFr"], abbey_and_mayor=False)
    place(st, 0, -1, 180)
    assert [t for t in st.discarded] == [2]
    decision = E.decision(st)
    assert decision is not None and decision.data["tile"] == "BA/RFr"
    assert E.view(st, None)["discarded"] == ["BA/Cccc+"]


def test_game_ends_when_the_last_tiles_are_unplaceable() -> None:
    st = game(["BA/C", "BA/Cccc+"], abbey_and_mayor=False)
    place(st, 0, -1, 180)
    assert st.phase == "over"
    assert E.outcome(st) is not None
