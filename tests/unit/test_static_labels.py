"""Every printed component has a readable name in every language, and a Carcassonne tile can be
drawn from the static data alone: its ``paint`` order leaves every feature visible."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from domain.catalog import describe
from domain.i18n import LANGUAGES
from domain.registry import default_registry

REGISTRY = default_registry()
CODE = re.compile(r"[0-9/.]")
"""Ids with digits, slashes or dots are internal codes (``T04-1``, ``BA/LR``, ``palace.0``, ``L01``)."""
COLOURS = {"field": "#9c6", "road": "#fff", "city": "#c96", "cloister": "#c33"}
SVG = "{http://www.w3.org/2000/svg}"


def data(slug: str, lang: str = "en") -> dict[str, Any]:
    described: dict[str, Any] = describe(REGISTRY.catalogs()[slug], REGISTRY.get(slug).meta, lang)["data"]
    return described


def components(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object that stands for something printed: it has an ``id``, or it is a Carcassonne
    tile segment or a row of the Keythedral mat (both named by number)."""
    if isinstance(node, dict):
        if "id" in node or {"segment", "kind"} <= node.keys() or {"row", "short"} <= node.keys():
            yield path, node
        for key, value in node.items():
            yield from components(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from components(item, f"{path}[{i}]")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(REGISTRY.catalogs()))
def test_every_component_has_a_readable_name_in_every_language(slug: str, lang: str) -> None:
    found = list(components(data(slug, lang)))
    assert len(found) > 20
    for path, item in found:
        name = item.get("name")
        assert isinstance(name, str) and name.strip(), (slug, lang, path)
        ident = str(item.get("id", ""))
        assert name != ident, (slug, lang, path)
        for text in (name, item.get("text")):
            if ident and CODE.search(ident) and isinstance(text, str):
                assert ident not in text, (slug, lang, path, text)


def test_names_tell_apart_what_a_player_must_choose_between() -> None:
    """Two face-up building tiles of one value differ by their cost, so name and text together
    tell every tile from another of the same cost only when they really are the same."""
    for lang in LANGUAGES:
        tiles = data("keythedral", lang)["building_tiles"]
        by_label: dict[tuple[str, str], set[str]] = {}
        for tile in tiles:
            assert str(tile["value"]) in tile["name"]
            by_label.setdefault((tile["name"], tile["text"]), set()).add(repr(sorted(tile["cost"].items())))
        assert all(len(costs) == 1 for costs in by_label.values())
        for tile in data("carcassonne", lang)["tiles"]:
            names = [seg["name"] for seg in tile["segments"]]
            assert len(set(names)) == len(names), (lang, tile["id"], names)


def draw(tile: dict[str, Any], zones: dict[str, list[list[float]]]) -> str:
    """The tile as SVG (unit square), from the data alone: each ``paint`` layer in order, filled
    with the colour of its segment's kind."""
    polygons = []
    for layer in tile["paint"]:
        kind = tile["segments"][layer["segment"]]["kind"]
        points = " ".join(f"{x},{y}" for x, y in zones[layer["zone"]])
        segment = layer["segment"]
        polygons.append(f'<polygon points="{points}" fill="{COLOURS[kind]}" data-segment="{segment}"/>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">{"".join(polygons)}</svg>'


def parsed_point(pair: str) -> tuple[float, float]:
    """``"x,y"`` as a point."""
    x, y = pair.split(",")
    return float(x), float(y)


def inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    """Strictly inside (ray casting); a point on an edge may go either way, so probes avoid edges."""
    x, y = point
    result = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def shown(svg: str) -> Any:
    """Which segment a viewer sees at a point of the drawn SVG: the last polygon painted there."""
    layers = []
    for element in ET.fromstring(svg).iter(f"{SVG}polygon"):
        points = [parsed_point(pair) for pair in element.attrib["points"].split()]
        layers.append((int(element.attrib["data-segment"]), points))

    def at(point: tuple[float, float]) -> int | None:
        owner = None
        for segment, points in layers:
            if inside(point, points):
                owner = segment
        return owner

    return at


def test_each_tile_type_drawn_to_svg_from_the_data_shows_every_feature() -> None:
    """Painted in the published order, no feature is hidden: each segment covers part of the tile
    and its figure anchor shows that segment (painted first, the cloister's centre square was
    covered by the inner tips of the side wedges)."""
    static = data("carcassonne")
    zones = static["geometry"]["zones"]
    grid = [((i + 0.5) / 50, (j + 0.5) / 50) for i in range(50) for j in range(50)]
    for tile in static["tiles"]:
        at = shown(draw(tile, zones))
        area = {seg["segment"]: 0 for seg in tile["segments"]}
        for point in grid:
            owner = at(point)
            if owner is not None:
                area[owner] += 1
        for seg in tile["segments"]:
            assert area[seg["segment"]] >= 0.01 * len(grid), (tile["id"], seg["name"], area)
            ax, ay = seg["anchor"]
            probes = [(ax + dx, ay + dy) for dx in (-0.02, 0.0, 0.021) for dy in (-0.02, 0.0, 0.021)]
            assert seg["segment"] in {at(p) for p in probes}, (tile["id"], seg["name"])


def test_the_paint_order_puts_fields_first_and_the_cloister_last() -> None:
    for tile in data("carcassonne")["tiles"]:
        kinds = [tile["segments"][layer["segment"]]["kind"] for layer in tile["paint"]]
        zoned = [k for k, layer in zip(kinds, tile["paint"], strict=True) if len(layer["zone"]) <= 2]
        rank = [{"field": 0, "cloister": 2}.get(k, 1) for k in zoned]
        assert rank == sorted(rank), tile["id"]
