"""The reconstructed building-tile costs meet every constraint the sources state (rules §3.1),
so printed values can replace the JSON file and this test says whether they still fit."""

from __future__ import annotations

from collections import Counter

from domain.games.keythedral.data import (
    BLACK,
    BROWN,
    CRAFTS,
    LAWS,
    RED,
    ROW_SIZES,
    TILES,
    WHITE,
    YELLOW,
)


def test_there_are_34_tiles_six_eight_eight_six_six_by_value() -> None:
    assert Counter(t.value for t in TILES) == {4: 6, 6: 8, 8: 8, 10: 6, 12: 6}
    assert len({t.id for t in TILES}) == 34


def test_every_tile_costs_two_to_four_cubes() -> None:
    assert all(2 <= t.cubes <= 4 for t in TILES)


def test_value_four_tiles_cost_two_cubes_of_wood_stone_water_or_food() -> None:
    for t in TILES:
        if t.value == 4:
            assert t.cubes == 2
            assert all(n == 0 for c, n in enumerate(t.cost) if c > 3)


def test_stone_stops_after_stage_two_wood_after_stage_three_wine_starts_at_three() -> None:
    for t in TILES:
        if t.value > 6:
            assert t.cost[BLACK] == 0
        if t.value > 8:
            assert t.cost[BROWN] == 0
        if t.value < 8:
            assert t.cost[RED] == 0
            assert all(t.cost[c] == 0 for c in CRAFTS)


def test_stage_three_needs_ironwork_and_wood_and_the_top_stages_a_craft() -> None:
    for t in TILES:
        if t.value == 8:
            assert t.cost[WHITE] >= 1 and t.cost[BROWN] >= 1
        if t.value >= 10:
            assert any(t.cost[c] for c in CRAFTS)


def test_some_craft_types_are_not_always_needed() -> None:
    gold = [t for t in TILES if t.value >= 10 and t.cost[YELLOW]]
    assert 0 < len(gold) < 12


def test_rows_hold_seventeen_or_twenty_two_tiles() -> None:
    assert sum(ROW_SIZES["short"]) == 17 and sum(ROW_SIZES["full"]) == 22
    counts = Counter(t.value for t in TILES)
    for short, full, value in zip(ROW_SIZES["short"], ROW_SIZES["full"], (4, 6, 8, 10, 12), strict=True):
        assert short < full <= counts[value]


def test_twenty_distinct_law_cards() -> None:
    assert [card.id for card in LAWS] == [f"L{i:02d}" for i in range(1, 21)]


def test_each_law_cards_windows_are_where_the_engine_offers_it() -> None:
    """The data file's ``windows`` (published to clients) match the engine's own tables."""
    from domain.games.keythedral import actions, laws

    offered: dict[int, set[str]] = {card.number: set() for card in LAWS}
    for phase, cards in laws.START_CARDS.items():
        for n in cards:
            offered[n].add(f"start_of_phase_{phase}")
    names = {
        "marker": "work_order_marker",
        "purchase": "purchase",
        "turn": "others_turn",
        "auction": "auction",
        "veto": "veto",
    }
    for kind, cards in laws.WINDOW_CARDS.items():
        for n in cards:
            offered[n].add(names[kind])
    for n in laws.ANY_TIME:
        offered[n].add("own_turn")
    offered[5].add("own_purchase")
    offered[15].add("own_trade")
    offered[16].add("own_craft_purchase")
    assert actions.MENU_CARDS >= laws.ANY_TIME
    for card in LAWS:
        assert set(card.windows) == offered[card.number], card.id


def test_every_law_card_carries_the_seeds_french_text() -> None:
    import json
    from importlib import resources

    raw = json.loads(
        resources.files("domain.games.keythedral")
        .joinpath("data", "law_cards.json")
        .read_text(encoding="utf-8")
    )["cards"]
    assert all(isinstance(c["text_fr"], str) and len(c["text_fr"]) > 40 for c in raw)
    titled = {c["id"]: c["title_fr"] for c in raw if c["title_fr"]}
    assert titled == {"L02": "Augmentation de prix", "L13": "Changement de style"}
    assert "un cube ressource (au lieu de deux)" in raw[14]["text_fr"]  # L15
