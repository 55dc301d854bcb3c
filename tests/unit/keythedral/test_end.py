"""The end of the game, scoring, the tie-break, and what each viewer may see."""

from __future__ import annotations

import json

from domain.engine import Event
from domain.games.keythedral import ENGINE
from domain.games.keythedral.data import ROUND_CAP
from domain.games.keythedral.phases import start_round
from domain.games.keythedral.state import State
from tests.support.json_values import untyped
from tests.unit.keythedral.support import (
    act,
    cubes,
    deal_law,
    decision,
    give,
    kinds,
    phase,
    run,
    scenario,
    tile,
)


def last_tile() -> State:
    st = scenario(2, {(0, 1): (2, 0), (1, 1): (0, 2)})
    st.rows = [[], [], [], [], [tile("T12-2")]]  # 1 yellow 1 white 1 red
    st.bought[0] = [tile("T10-1"), tile("T04-1")]
    st.bought[1] = [tile("T08-1")]
    return st


def test_buying_the_last_tile_ends_the_game_at_once_and_scores_tiles_and_cubes() -> None:
    st = last_tile()
    give(st, 0, yellow=1, white=1, red=1, green=2, purple=1)
    give(st, 1, black=1)
    run(st, phase(3))
    events = act(st, 0, {"action": "buy", "tile": "T12-2"})
    assert kinds(events)[-1] == "game_ended"
    assert ENGINE.decision(st) is None and st.stack == []
    outcome = ENGINE.outcome(st)
    assert outcome is not None
    # seat 0: 10 + 4 + 12 = 26 in tiles, 2 green + 1 purple = 5 in cubes
    assert outcome.scores == (31, 9)
    assert outcome.winners == (0,)
    assert outcome.details["tiles"] == [26, 8] and outcome.details["cubes"] == [5, 1]


def test_the_rulebook_example_scores_thirty_six() -> None:
    st = scenario(2, {})
    st.bought[0] = [tile("T12-1"), tile("T08-1"), tile("T06-1"), tile("T04-1")]
    give(st, 0, purple=1, green=3)
    st.over = True
    outcome = ENGINE.outcome(st)
    assert outcome is not None and outcome.scores[0] == 36


def test_a_tie_goes_to_the_higher_tile_total_and_otherwise_is_shared() -> None:
    st = scenario(3, {})
    st.bought[0] = [tile("T10-1")]
    give(st, 0, black=2)
    st.bought[1] = [tile("T08-1")]
    give(st, 1, yellow=1)
    st.bought[2] = [tile("T10-2")]
    give(st, 2, brown=2)
    st.over = True
    outcome = ENGINE.outcome(st)
    assert outcome is not None
    assert outcome.scores == (12, 12, 12) and outcome.winners == (0, 2)


def test_change_of_style_on_the_last_tile_stops_the_end_of_the_game() -> None:
    st = last_tile()
    st.pools[4] = [tile("T12-5")]
    give(st, 0, yellow=1, white=1, red=1)
    deal_law(st, 1, "L13")
    run(st, phase(3))
    act(st, 0, {"action": "buy", "tile": "T12-2"})
    act(st, 1, {"action": "play", "card": "L13", "tile": "T12-2"})
    assert not st.over and st.rows[4] == [tile("T12-5")]
    assert decision(st)[0] == 0


def test_a_game_past_the_round_cap_ends_as_abnormal() -> None:
    st = scenario(2, {})
    st.round = ROUND_CAP
    events: list[Event] = []
    start_round(st, events)
    assert st.over and st.abnormal
    outcome = ENGINE.outcome(st)
    assert outcome is not None and outcome.details["abnormal_end"] is True


def test_a_seat_sees_its_own_cubes_and_cards_and_only_counts_of_the_others() -> None:
    st = scenario(2, {})
    give(st, 0, black=2)
    give(st, 1, red=1)
    deal_law(st, 1, "L10")
    run(st, phase(3))
    mine = untyped(ENGINE.view(st, 0))
    theirs = untyped(ENGINE.view(st, 1))
    spectator = untyped(ENGINE.view(st, None))
    assert mine["you"]["cubes"]["black"] == 2 and mine["you"]["law_cards"] == []
    assert theirs["you"]["law_cards"] == ["L10"]
    assert mine["players"][1]["law_cards"] == 1
    for view in (mine, spectator):
        assert "L10" not in json.dumps(view)
    assert "you" not in spectator
    assert all("legal_choices" not in v and "decision" not in v for v in (mine, theirs, spectator))


def test_new_law_cards_are_face_down_unless_the_option_turns_them_up() -> None:
    st = scenario(3, {})
    assert untyped(ENGINE.view(st, None))["laws"]["spaces"] == [{"filled": True, "card": None}] * 2
    up = scenario(3, {}, law_cards_face_up=True)
    ids = [s["card"] for s in untyped(ENGINE.view(up, None))["laws"]["spaces"]]
    assert ids == [f"L{c:02d}" for c in up.spaces]


def test_the_purchase_window_does_not_reveal_which_card_a_seat_holds() -> None:
    st = last_tile()
    give(st, 0, yellow=1, white=1, red=1)
    deal_law(st, 1, "L02")
    run(st, phase(3))
    act(st, 0, {"action": "buy", "tile": "T12-2"})
    d = ENGINE.decision(st)
    assert d is not None and d.kind == "law_window"
    assert "L02" not in json.dumps([d.prompt, dict(d.data)])
    assert st.cubes[0] == cubes(yellow=1, white=1, red=1)


def test_bought_tiles_stay_behind_the_buyers_screen_until_the_end() -> None:
    """Seed: "Prenez la tuile construction et placez-la derrière votre écran." The owner sees his
    tiles and their total, the others only how many he bought; the end shows everything."""
    st = last_tile()
    give(st, 0, yellow=1, white=1, red=1)
    run(st, phase(3))
    for viewer in (None, 1):
        view = untyped(ENGINE.view(st, viewer))
        seat0 = view["players"][0]
        assert seat0["tiles_bought"] == 2 and "tiles" not in seat0 and "tile_points" not in seat0
        assert "T10-1" not in json.dumps(view["players"]) and '"tile_points"' not in json.dumps(
            view["players"]
        )
    mine = untyped(ENGINE.view(st, 0))["you"]
    assert mine["tiles"] == [{"id": "T10-1", "value": 10}, {"id": "T04-1", "value": 4}]
    assert mine["tile_points"] == 14
    act(st, 0, {"action": "buy", "tile": "T12-2"})
    final = untyped(ENGINE.view(st, None))["players"]
    assert [p["tile_points"] for p in final] == [26, 8]
    assert [t["id"] for t in final[1]["tiles"]] == ["T08-1"]
