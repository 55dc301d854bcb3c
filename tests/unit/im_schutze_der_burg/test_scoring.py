"""Final scoring of every building's helpers, and the tie-breaks."""

from __future__ import annotations

from domain.games.im_schutze_der_burg.data import (
    BUILDABLE_TILES,
    BUILDING_INDEX,
    SPACE_INDEX,
    TILE_TYPE,
)
from domain.games.im_schutze_der_burg.state import State
from tests.support.json_values import untyped

from .support import E, new_game, set_res, set_thalers


def _build(s: State, building: str, count: int = 1, seat: int = 3) -> None:
    tiles = [t for t in BUILDABLE_TILES if TILE_TYPE[t] == BUILDING_INDEX[building]]
    for t in tiles[:count]:
        s.built[t] = seat


def _helper(s: State, space: str, seat: int) -> None:
    s.spaces[SPACE_INDEX[space]] = seat
    s.helpers[seat] -= 1


def _finished_castle() -> State:
    s = new_game(4)
    for b in ("servants_house", "palace", "keep", "tavern", "great_gate", "small_gate", "stable"):
        _build(s, b)
    _build(s, "large_tower", 2)
    _build(s, "small_tower", 1)
    _build(s, "house", 3)
    for space, seat in [
        ("market.0", 0),
        ("market.1", 0),
        ("keep.0", 0),
        ("forge.0", 1),
        ("tavern.0", 1),
        ("great_gate.0", 1),
        ("forge.1", 2),
        ("tavern.1", 2),
        ("stable.0", 2),
        ("servants_house.0", 2),
        ("palace.0", 3),
        ("small_gate.0", 3),
        ("stable.1", 3),
    ]:
        _helper(s, space, seat)
    s.forge = 7
    s.supply[4] -= 7
    set_thalers(s, 0, 13)
    set_res(s, 3, sand=3, wood=2, clay=1, stone=2, silver=1)
    s.over = True
    return s


def test_final_scoring_of_every_building_in_a_finished_castle() -> None:
    s = _finished_castle()
    outcome = E.outcome(s)
    assert outcome is not None
    rows = untyped(outcome.details)["players"]
    # 10 tiles unbuilt, 3 towers, 3 houses, 13 castle helpers, 2 free spaces, 7 silver.
    assert untyped(outcome.details)["targets"] == {
        "forge_silver": 7,
        "unbuilt_tiles": 10,
        "free_spaces": 2,
        "castle_helpers": 13,
        "built_towers": 3,
        "built_houses": 3,
    }
    assert rows[0]["end_vp"] == {"market": 13, "keep": 6}  # both Market spaces: 1 VP/thaler
    assert rows[1]["end_vp"] == {"forge": 7, "tavern": 13, "great_gate": 6}
    assert rows[2]["end_vp"] == {"forge": 3, "servants_house": 10, "tavern": 6, "stable": 9}
    # Palace: silver 5, stone 5 + 5, clay 4, wood 2 = 21; Small Gate 3; Stable 2 x 3 = 6.
    assert rows[3]["end_vp"] == {"palace": 21, "small_gate": 3, "stable": 6}
    assert outcome.scores == (19, 26, 28, 30)
    assert outcome.winners == (3,)
    assert rows[0]["tiebreak_thalers"] == 0  # converted by the Market
    assert rows[3]["tiebreak_resources"] == {"sand": 3, "wood": 1, "clay": 0, "stone": 0, "silver": 0}
    assert rows[3]["tiebreak_value"] == 5


def test_one_market_helper_scores_one_vp_per_two_thalers() -> None:
    s = new_game(4)
    _helper(s, "market.0", 0)
    _helper(s, "market.1", 1)
    set_thalers(s, 0, 13)
    set_thalers(s, 1, 8)
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None and outcome.scores[:2] == (6, 4)


def test_both_palace_spaces_convert_up_to_ten_pieces() -> None:
    s = new_game(4)
    _build(s, "palace")
    _helper(s, "palace.0", 2)
    _helper(s, "palace.1", 2)
    set_res(s, 2, sand=3, wood=2, clay=1, stone=2, silver=1)
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None
    assert untyped(outcome.details)["players"][2]["end_vp"] == {"palace": 5 + 10 + 4 + 4 + 3}


def test_keep_counts_only_free_spaces_of_built_buildings() -> None:
    s = new_game(4)
    _build(s, "keep")
    _helper(s, "keep.0", 1)
    _helper(s, "forge.0", 2)
    s.over = True  # Market 2 + Forge 1 free; the unbuilt buildings' spaces do not count
    outcome = E.outcome(s)
    assert outcome is not None and outcome.scores[1] == 9


def test_helpers_on_unbuilt_buildings_or_carts_score_nothing() -> None:
    s = new_game(4)
    s.posts = [0, 0, 0, 0, 0]
    s.helpers[0] = 1
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None and outcome.scores == (0, 0, 0, 0)


def test_tie_on_points_is_broken_by_thalers_left() -> None:
    s = new_game(4)
    s.vp = [10, 10, 4, 0]
    set_thalers(s, 0, 5)
    set_thalers(s, 1, 20)
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None
    assert outcome.scores == (10, 10, 4, 0)
    assert outcome.winners == (1,)


def test_market_conversion_can_lose_the_thaler_tie_break() -> None:
    s = new_game(4)
    s.vp = [10, 4, 0, 0]
    set_thalers(s, 0, 3)
    set_thalers(s, 1, 12)
    _helper(s, "market.0", 1)  # 12 thalers -> 6 VP, 0 thalers left
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None and outcome.scores[:2] == (10, 10)
    assert outcome.winners == (0,)


def test_equal_thalers_are_broken_by_resource_value_not_count() -> None:
    s = new_game(4)
    s.vp = [7, 7, 7, 0]
    for seat in range(4):
        set_thalers(s, seat, 5)
    set_res(s, 0, sand=4)  # value 4 from 4 pieces
    set_res(s, 1, stone=1)  # value 5 from 1 piece
    set_res(s, 2, clay=1, sand=1)  # value 5
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None and outcome.winners == (1, 2)


def test_a_lone_market_helper_converts_the_odd_thaler_too_and_it_no_longer_breaks_the_tie() -> None:
    """Rules 2.11, Market: "One Market helper: 1 VP per 2 own talers (floor) ... All his talers are
    converted"; 2.10: converted talers "do not count for tie-breaks".

    Seat 0 has 4 VP, 13 thalers and one Market helper: all 13 are converted, 12 of them into 6 VP
    (10 in all) and the 13th for nothing. Seat 1 has 10 VP, no thaler and a sand (value 1). Tied
    on points and on thalers (0 and 0), the resource value decides: seat 1 wins. Were the odd
    thaler kept, seat 0 would win on thalers.
    """
    s = new_game(4)
    s.vp = [4, 10, 0, 0]
    set_thalers(s, 0, 13)
    set_thalers(s, 1, 0)
    set_res(s, 0)
    set_res(s, 1, sand=1)
    _helper(s, "market.0", 0)
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None
    assert outcome.scores[:2] == (10, 10)
    assert untyped(outcome.details)["players"][0]["end_vp"] == {"market": 6}
    assert untyped(outcome.details)["players"][0]["tiebreak_thalers"] == 0
    assert outcome.winners == (1,)


def test_both_market_spaces_convert_every_thaler() -> None:
    """Rules reference 2.11, Market: "Both spaces owned by the same player: 1 VP per taler"."""
    s = new_game(4)
    _helper(s, "market.0", 0)
    _helper(s, "market.1", 0)
    set_thalers(s, 0, 13)
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None
    assert untyped(outcome.details)["players"][0]["end_vp"] == {"market": 13}
    assert untyped(outcome.details)["players"][0]["tiebreak_thalers"] == 0
