"""The static game data and its texts: complete in every language, consistent with the engines'
own tables, and naming every id that views, choices and events use."""

from __future__ import annotations

import math
import string
from functools import cache
from typing import Any

import pytest

from domain.catalog import describe
from domain.i18n import LANGUAGES, negotiate, platform_texts
from domain.model.match import RESERVED_EVENT_TYPES
from domain.registry import default_registry
from tests.support.json_values import untyped
from tests.support.playouts import Played, hosted_engines, play, variants

REGISTRY = default_registry()
SLUGS = sorted(REGISTRY.catalogs())


def static(slug: str, lang: str = "en") -> Any:
    return untyped(describe(REGISTRY.catalogs()[slug], REGISTRY.get(slug).meta, lang))


@cache
def games(slug: str) -> tuple[Played, ...]:
    engine = REGISTRY.get(slug)
    return tuple(
        play(engine, players, options, f"catalog-{players}-{i}", every=3)
        for i, (players, options) in enumerate(variants(engine))
    )


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_hosted_game_has_a_catalog() -> None:
    assert sorted(e.meta.slug for e in hosted_engines()) == SLUGS


@pytest.mark.parametrize("slug", SLUGS)
def test_every_language_has_every_key_of_every_other(slug: str) -> None:
    catalog = REGISTRY.catalogs()[slug]
    keys = {lang: set(catalog.texts(lang)) for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert keys[lang] == keys["en"], (
            f"{slug} {lang}: missing {sorted(keys['en'] - keys[lang])}, "
            f"extra {sorted(keys[lang] - keys['en'])}"
        )
        assert all(text.strip() for text in catalog.texts(lang).values())


def test_platform_texts_exist_in_every_language() -> None:
    for lang in LANGUAGES:
        assert set(platform_texts(lang)) == set(platform_texts("en"))


def test_every_platform_event_has_a_log_template_naming_only_its_fields() -> None:
    """Random games never resign, time out or leave a lobby, so the playout test cannot see these."""
    fields = {
        "seat_joined": {"seat", "name", "bot"},
        "seat_left": {"seat", "name", "removed_by"},
        "seat_resigned": {"seat"},
        "clock_expired": {"seat", "action"},
        "seat_returned": {"seat"},
    }
    assert set(fields) <= RESERVED_EVENT_TYPES
    for lang in LANGUAGES:
        texts = platform_texts(lang)
        for kind in RESERVED_EVENT_TYPES:
            assert f"event.{kind}" in texts, (lang, kind)
        for kind, known in fields.items():
            assert placeholders(texts[f"event.{kind}"]) <= known, (lang, kind)


@pytest.mark.parametrize("slug", SLUGS)
def test_translated_templates_use_the_same_fields_as_english(slug: str) -> None:
    english = REGISTRY.catalogs()[slug].texts("en")
    for lang in LANGUAGES:
        texts = REGISTRY.catalogs()[slug].texts(lang)
        for key, text in texts.items():
            assert placeholders(text) == placeholders(english[key]), f"{slug} {lang} {key}"


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_static_data_builds_in_every_language(slug: str, lang: str) -> None:
    described = static(slug, lang)
    assert described["language"] == lang
    assert set(described["options"]) == {o.name for o in REGISTRY.get(slug).meta.options}
    assert "open question" not in str(described).lower()


def test_texts_differ_by_language() -> None:
    names = {
        lang: static("im-schutze-der-burg", lang)["data"]["character_cards"][0]["name"] for lang in LANGUAGES
    }
    assert names == {"en": "Messenger", "de": "Bote", "fr": "Messager", "es": "Mensajero"}


@pytest.mark.parametrize("slug", SLUGS)
def test_random_games_only_ask_decisions_with_prompts_and_log_events_with_templates(slug: str) -> None:
    described = static(slug)
    for played in games(slug):
        for snap in played.snapshots:
            if snap.decision is not None:
                assert snap.decision["kind"] in described["prompts"], snap.decision["kind"]
        for _, kind, data in played.events:
            template = described["log_templates"].get(kind)
            assert template is not None, f"{slug}: no log template for event {kind}"
            missing = placeholders(template) - set(data)
            assert not missing, f"{slug}: event {kind} {data} lacks {missing} for its log template"


def test_accept_language_and_lang_parameter_choose_the_language() -> None:
    assert negotiate(None, None) == "en"
    assert negotiate(None, "de-AT,de;q=0.9,en;q=0.5") == "de"
    assert negotiate(None, "it, es;q=0.4, fr;q=0.7") == "fr"
    assert negotiate(None, "it, ja") == "en"
    assert negotiate("es", "de") == "es"
    assert negotiate("ES-mx", None) == "es"
    assert negotiate("xx", "fr") == "fr"
    assert negotiate(None, "fr;q=0, de") == "de"


# -- Im Schutze der Burg ----------------------------------------------------------------------


def test_isdb_static_data_names_every_id_its_views_use() -> None:
    data = static("im-schutze-der-burg")["data"]
    cards = {c["id"] for c in data["character_cards"]}
    buildings = {b["id"] for b in data["buildings"]}
    spaces = {s["id"] for b in data["buildings"] for s in b["spaces"]}
    posts = {p["id"] for p in data["posts"]}
    resources = {r["id"] for r in data["resources"]}
    for played in games("im-schutze-der-burg"):
        for snap in played.snapshots:
            for view in snap.views.values():
                assert {b["building"] for b in view["buildings"]} <= buildings
                assert {s["space"] for s in view["helper_spaces"]} <= spaces
                assert set(view["posts"]) <= posts
                assert set(view["supply"]) == resources
                for player in view["players"]:
                    assert set(player["played"]) <= cards
                    assert set(player.get("hand", [])) <= cards


def test_isdb_static_data_carries_the_printed_numbers_and_flags_reconstructed_ones() -> None:
    data = static("im-schutze-der-burg")["data"]
    palace = next(b for b in data["buildings"] if b["id"] == "palace")
    assert (palace["vp"], palace["value"], [s["fee"] for s in palace["spaces"]]) == (18, 30, [17, 17])
    assert palace["verified"] and all(s["verified"] for s in palace["spaces"])
    market = next(b for b in data["buildings"] if b["id"] == "market")
    assert [s["unverified"] for s in market["spaces"]] == [["fee"], ["fee"]]
    cards = {c["id"]: c for c in data["character_cards"]}
    assert cards["messenger"]["rank"] == 1 and cards["master_builder"]["rank"] == 6
    assert cards["worker_1"]["contents"]["fixed"] == {"sand": 1, "wood": 1, "stone": 1}
    assert cards["worker_1"]["unverified"] == ["contents"] and cards["worker_3"]["verified"]
    assert all(not w["verified"] for w in data["winter_cards"])
    assert {p["id"]: p["yield"] for p in data["posts"]} == {
        "sand": 4,
        "wood": 3,
        "clay": 2,
        "stone": 2,
        "silver": 2,
    }
    assert [r["value"] for r in data["resources"]] == [1, 2, 4, 5, 5]


# -- Keythedral -------------------------------------------------------------------------------


def test_keythedral_static_data_names_every_id_its_views_use() -> None:
    data = static("keythedral")["data"]
    tiles = {t["id"] for t in data["building_tiles"]}
    laws = {law["id"] for law in data["law_cards"]}
    fields = {f["id"] for f in data["field_types"]}
    cubes = {c["id"] for c in data["cubes"]}
    for played in games("keythedral"):
        for snap in played.snapshots:
            for view in snap.views.values():
                assert {t["id"] for row in view["rows"] for t in row["tiles"] if "id" in t} <= tiles
                assert set(view["laws"]["played"]) <= laws
                assert {f["field"] for f in view["fields"]} <= fields
                assert set(view["store"]) == cubes
                for f in view["fields"]:
                    assert f["x"] % 2 == 1 and f["y"] % 2 == 1


def test_keythedral_static_data_follows_the_data_files() -> None:
    data = static("keythedral")["data"]
    assert len(data["law_cards"]) == 20 and len(data["building_tiles"]) == 34
    laws = {law["id"]: law for law in data["law_cards"]}
    assert laws["L02"]["verified"] and laws["L01"]["unverified"] == ["name", "title"]
    assert all(t["unverified"] == ["cost"] for t in data["building_tiles"])
    assert [r["value"] for r in data["rows"]] == [4, 6, 8, 10, 12]
    assert sum(r["short"] for r in data["rows"]) == 17 and sum(r["full"] for r in data["rows"]) == 22
    crafts = {c["id"]: c["price"] for c in data["cubes"] if c["kind"] == "craft"}
    assert crafts == {"white": 2, "purple": 3, "yellow": 4}
    assert {k["id"] for k in data["keytown"]} == {
        "blacksmith",
        "glassmaker",
        "goldsmith",
        "trader",
        "law_master",
    }
    assert static("keythedral", "fr")["data"]["law_cards"][1]["title"] == "Augmentation de prix"


# -- Carcassonne ------------------------------------------------------------------------------


def _area(polygon: list[list[float]]) -> float:
    return (
        abs(
            sum(
                x1 * y2 - x2 * y1
                for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True)
            )
        )
        / 2
    )


def test_carcassonne_tile_counts_match_the_editions() -> None:
    data = static("carcassonne")["data"]
    tiles = data["tiles"]
    assert sum(t["in_pile"]["base"] for t in tiles) == 71
    assert sum(t["in_pile"]["abbey_and_mayor"] for t in tiles) == 83
    assert [t["id"] for t in tiles if t["start"]] == [data["start_tile"]]
    assert [t["id"] for t in tiles if t["abbey"]] == ["AM/A"]
    assert {f["id"] for f in data["figures"]} == {"follower", "mayor", "wagon", "barn"}


def test_carcassonne_zones_tile_the_square_and_every_side_zone_has_an_owner() -> None:
    data = static("carcassonne")["data"]
    zones = data["geometry"]["zones"]
    outer = [name for name in zones if name != "C" and name[0] in "NESW"]
    assert len(outer) == 12 and abs(sum(_area(zones[z]) for z in outer) - 1) < 1e-9
    for tile in data["tiles"]:
        segments = tile["segments"]
        for zone, owner in tile["zones"].items():
            if zone == "C":
                assert owner == tile["cloister"]
                continue
            if tile["abbey"]:
                assert owner is None
                continue
            assert owner is not None, (tile["id"], zone)
            seg = segments[owner]
            side = zone[0]
            if len(zone) == 1:
                assert side in seg["sides"] or seg["kind"] == "field"
            else:
                assert zone in seg["ports"] or side in seg["sides"]
        for seg in segments:
            if seg["kind"] in ("road", "city"):
                assert seg["sides"] and all(tile["zones"][s] == seg["segment"] for s in seg["sides"])
            edges = dict(zip("NESW", tile["edges"], strict=True))
            for s in seg["sides"]:
                assert edges[s] == seg["kind"]


def test_carcassonne_figure_anchors_lie_apart_so_click_targets_never_overlap() -> None:
    """A field ringing a cloister used to share the cloister's centre point: a person could not click
    the cloister. Every segment's anchor is inside the tile and far enough from every other one that
    the web client's spot (radius 0.1 of a tile) never covers another spot's centre."""
    for tile in static("carcassonne")["data"]["tiles"]:
        anchors = [seg["anchor"] for seg in tile["segments"]]
        for x, y in anchors:
            assert 0 <= x <= 1 and 0 <= y <= 1
        for i, a in enumerate(anchors):
            for b in anchors[i + 1 :]:
                assert math.dist(a, b) >= 0.15, (tile["id"], a, b)
        if tile["cloister"] is not None:
            assert anchors[tile["cloister"]] == [0.5, 0.5]


def test_carcassonne_static_data_names_every_tile_and_segment_its_views_use() -> None:
    data = static("carcassonne")["data"]
    tiles = {t["id"]: t for t in data["tiles"]}
    for played in games("carcassonne"):
        for snap in played.snapshots:
            view = snap.views[None]
            placed = {(t["x"], t["y"]): t for t in view["board"]}
            for t in view["board"]:
                assert t["tile"] in tiles and t["rotation"] in (0, 90, 180, 270)
            for fig in view["figures"]:
                tile = tiles[placed[fig["x"], fig["y"]]["tile"]]
                assert 0 <= fig["segment"] < len(tile["segments"])
