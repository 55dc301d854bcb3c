"""Setup (S-1 to S-10) and tile laying, worked by hand."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from domain.engine import Event
from domain.errors import InvalidOptions
from domain.games.keythedral import ENGINE
from domain.games.keythedral.data import FIELD_TYPES
from domain.games.keythedral.state import State
from tests.support.json_values import untyped
from tests.unit.keythedral.support import act, decision


def new(players: int, **options: Any) -> tuple[State, list[Event]]:
    return ENGINE.setup(players, ENGINE.meta.resolve_options(options), random.Random(3))


@pytest.mark.parametrize(("players", "total"), [(2, 12), (3, 19), (4, 24), (5, 29)])
def test_five_fields_per_player_besides_the_start_fields(players: int, total: int) -> None:
    st, _ = new(players)
    assert len(st.fields) + len(st.field_stack) == total
    assert len(st.field_stack) == 5 * players


def test_four_start_fields_form_an_x_with_matching_types_opposite() -> None:
    st, _ = new(4)
    named = {cell: FIELD_TYPES[k] for cell, k in st.fields.items()}
    assert named == {(1, 1): "quarry", (-1, -1): "quarry", (1, -1): "forest", (-1, 1): "forest"}


def test_two_player_variant_uses_one_forest_one_quarry_and_the_ten_number_two_fields() -> None:
    st, _ = new(2)
    named = {cell: FIELD_TYPES[k] for cell, k in st.fields.items()}
    assert named == {(1, 1): "quarry", (-1, -1): "forest"}
    assert Counter(FIELD_TYPES[k] for k in st.field_stack) == {
        "quarry": 2,
        "forest": 2,
        "lake": 2,
        "vineyard": 2,
        "farm": 2,
    }
    assert len(st.spaces) == 1


def test_components_short_and_full_game() -> None:
    st, _ = new(3)
    assert [len(r) for r in st.rows] == [4, 4, 4, 3, 2]
    assert [len(p) for p in st.pools] == [2, 4, 4, 3, 4]
    assert st.craftsmen == [10, 10, 10]
    assert st.store == [20, 20, 15, 15, 15, 0, 0, 0]
    assert len(st.spaces) == 2 and len(st.deck) == 18
    full, _ = new(3, length="full")
    assert [len(r) for r in full.rows] == [5, 5, 5, 4, 3]


def test_players_alternately_lay_a_drawn_field_then_a_cottage_from_the_start_player() -> None:
    st, _ = new(3, first_player="0")
    assert decision(st) == (0, "lay_field")
    drawn = st.field_stack[-1]
    legal = ENGINE.legal_choices(st, 0)
    assert {"x": 3, "y": 1} in legal and {"x": 1, "y": 1} not in legal
    events = act(st, 0, {"x": 3, "y": 1})
    assert st.fields[(3, 1)] == drawn and events[0].type == "field_laid"
    assert decision(st) == (0, "lay_cottage")
    cottages = ENGINE.legal_choices(st, 0)
    assert {"number": 5, "x": 2, "y": 0} in cottages
    assert all((c["x"], c["y"]) != (0, 0) for c in cottages)
    act(st, 0, {"number": 5, "x": 2, "y": 0})
    assert st.cottage_pos[0][4] == (2, 0)
    assert decision(st) == (1, "lay_field")


def test_after_tile_laying_the_value_four_tiles_turn_face_up_and_round_one_starts() -> None:
    st, events = new(2)
    chooser = random.Random(1)
    while st.phase == 0:
        seat, _ = decision(st)
        events = ENGINE.apply(st, {seat: chooser.choice(ENGINE.legal_choices(st, seat))})
    assert len(st.fields) == 12
    assert all(pos is not None for row in st.cottage_pos for pos in row)
    revealed = [untyped(e.data) for e in events if e.type == "row_revealed"]
    assert revealed and revealed[0]["value"] == 4 and len(revealed[0]["tiles"]) == 4
    assert st.round == 1 and st.phase == 1
    view = untyped(ENGINE.view(st, None))
    assert view["rows"][0]["face_up"] and not view["rows"][1]["face_up"]
    assert view["rows"][1]["tiles"] == [{"value": 6}] * 4


def test_face_up_variant_shows_every_row() -> None:
    st, _ = new(2, face_up_tiles=True)
    view = untyped(ENGINE.view(st, None))
    assert all(row["face_up"] for row in view["rows"])
    assert all("cost" in t for row in view["rows"] for t in row["tiles"])


def test_the_first_player_is_drawn_from_the_games_randomness_unless_an_option_names_him() -> None:
    """Seed: "Le joueur le plus jeune choisit qui commence le premier tour et lui donne le
    marqueur correspondant." Online there is no youngest player: an option, random by default."""
    starts = {
        ENGINE.setup(4, ENGINE.meta.resolve_options(None), random.Random(seed))[0].start for seed in range(40)
    }
    assert starts == {0, 1, 2, 3}
    again = [ENGINE.setup(4, ENGINE.meta.resolve_options(None), random.Random(5))[0].start for _ in range(2)]
    assert again[0] == again[1]
    st, events = new(3, first_player="2")
    assert st.start == 2 and decision(st) == (2, "lay_field")
    assert events[0].data["start"] == 2
    with pytest.raises(InvalidOptions):
        new(3, first_player="4")
    with pytest.raises(InvalidOptions):
        ENGINE.meta.resolve_options({"first_player": 1})


def test_value_four_costs_stay_hidden_until_every_field_and_cottage_is_laid() -> None:
    """Seed: "Retournez les tuiles construction 4 / On retourne les quatre tuiles construction
    numéro 4 avec le coût d'achat visible", after the tile laying."""
    st, _ = new(2)
    view = untyped(ENGINE.view(st, None))
    assert not view["rows"][0]["face_up"]
    assert view["rows"][0]["tiles"] == [{"value": 4}] * 4
    for viewer in (None, 0, 1):
        assert "T04-" not in json.dumps(ENGINE.view(st, viewer))
