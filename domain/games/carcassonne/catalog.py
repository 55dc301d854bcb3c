"""Static data of Carcassonne, built from the engine's tile table (``data/tiles.json``).

A tile type lists its segments in the order the engine numbers them: choices and views name a
segment by that index (``segment``), at the tile's rotation 0. To draw and hit-test a tile
without our code, the square is cut into 13 zones (``geometry``): a central square (for the
cloister or abbey) and, along each side, a middle wedge and two half-edge wedges (the ports
``NL``..``WR``). ``zones`` maps each zone of a tile type to the segment that owns it (or null);
rotating a placed tile by ``rotation`` degrees clockwise rotates its zones with it.
"""

from __future__ import annotations

import math

from domain.catalog import GameCatalog, Texts
from domain.engine import JSON

from .state import FIGURE_NAMES, FOLLOWERS_PER_PLAYER
from .tiles import (
    ABBEY,
    CITY,
    CLOISTER,
    CORNER_NAMES,
    FIELD,
    KIND_NAMES,
    OT_CORNER_FIELD,
    PORT_NAMES,
    RAW,
    SIDE_NAMES,
    START_TYPE,
    TILE_TYPES,
    TileType,
)

EDGE_NAMES = {0: "field", 1: "road", 2: "city", 3: "any"}
_CENTRE = (0.5, 0.5)
_CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
"""NW, NE, SE, SW in unit coordinates (x right, y down, north up)."""
_MID_LOW, _MID_HIGH = 0.375, 0.625
_MIN_ANCHOR_GAP = 0.2  # of a tile's side: two figure spots this close would overlap on screen
_INSET_CORNERS = [[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]
_CENTRE_SQUARE = [[0.35, 0.35], [0.65, 0.35], [0.65, 0.65], [0.35, 0.65]]


def _along(side: int, t: float) -> tuple[float, float]:
    """The point at fraction ``t`` along side ``side``, walking clockwise."""
    (ax, ay), (bx, by) = _CORNERS[side], _CORNERS[(side + 1) % 4]
    return (ax + (bx - ax) * t, ay + (by - ay) * t)


def zone_polygons() -> dict[str, list[list[float]]]:
    """The 13 zones of the unit square: ``C`` (centre), each side's middle and its two ports."""
    zones: dict[str, list[list[float]]] = {"C": _CENTRE_SQUARE}
    for side, name in enumerate(SIDE_NAMES):
        cuts = (0.0, _MID_LOW, _MID_HIGH, 1.0)
        labels = (PORT_NAMES[2 * side], name, PORT_NAMES[2 * side + 1])
        for label, a, b in zip(labels, cuts, cuts[1:], strict=False):
            zones[label] = [list(_along(side, a)), list(_along(side, b)), list(_CENTRE)]
    return zones


def _zone_owner(tile: TileType) -> dict[str, int | None]:
    owner: dict[str, int | None] = {"C": tile.cloister if tile.cloister >= 0 else None}
    side_seg: dict[int, int] = {}
    port_seg: dict[int, int] = {}
    for local, kind in enumerate(tile.kinds):
        if kind == FIELD:
            for p in tile.ports[local]:
                port_seg[p] = local
        else:
            for s in tile.sides[local]:
                side_seg[s] = local
    for side, name in enumerate(SIDE_NAMES):
        city_side = tile.edges[side] == CITY
        owner[name] = side_seg.get(side, port_seg.get(2 * side))
        for p in (2 * side, 2 * side + 1):
            owner[PORT_NAMES[p]] = side_seg.get(side) if city_side else port_seg.get(p)
    return owner


def _centroid(points: list[list[float]]) -> list[float]:
    return [round(sum(p[0] for p in points) / len(points), 3),
            round(sum(p[1] for p in points) / len(points), 3)]


def _anchor(
    zones: dict[str, list[list[float]]], names: list[str], taken: list[list[float]]
) -> list[float]:
    """Where a figure on this segment is drawn and clicked: the centroid of its zones, unless that
    point is another segment's (a field ringing a cloister has its centroid on the cloister); then
    the centre of its own zone farthest from the other anchors, so no two click targets overlap."""
    centroid = _centroid([pt for name in names for pt in zones[name]])

    def clearance(point: list[float]) -> float:
        return min((math.dist(point, other) for other in taken), default=1.0)

    if clearance(centroid) >= _MIN_ANCHOR_GAP:
        return centroid
    return max((_centroid(zones[name]) for name in names), key=clearance)


def tile_type(tile: TileType, zones: dict[str, list[list[float]]]) -> dict[str, JSON]:
    owner = _zone_owner(tile)
    segments: list[JSON] = []
    taken: list[list[float]] = []
    anchors: dict[int, list[float]] = {}
    # Cloisters, roads and cities first: a field yields its centroid to them.
    for local in sorted(range(len(tile.kinds)), key=lambda i: tile.kinds[i] == FIELD):
        mine = [z for z, seg in owner.items() if seg == local]
        if mine:
            anchors[local] = _anchor(zones, mine, taken)
        else:  # a field closed in between cities touches no edge: put it in a free corner
            anchors[local] = max(_INSET_CORNERS, key=lambda p: min(
                (math.dist(p, other) for other in taken), default=1.0))
        taken.append(anchors[local])
    for local, kind in enumerate(tile.kinds):
        segment: dict[str, JSON] = {
            "segment": local,
            "kind": KIND_NAMES[kind],
            "sides": [SIDE_NAMES[s] for s in tile.sides[local]] if kind not in (FIELD, CLOISTER) else [],
            "ports": [PORT_NAMES[p] for p in tile.ports[local]] if kind == FIELD else [],
            "pennants": tile.pennants[local],
            "cities": list(tile.cities[local]) if kind == FIELD else [],
            "anchor": anchors[local],
        }
        segments.append(segment)
    corners = OT_CORNER_FIELD[tile.index * 4]
    raw = next((r for r in RAW["tiles"] if r["id"] == tile.id), RAW["abbey"])
    return {
        "id": tile.id,
        "letter": tile.letter,
        "expansion": tile.expansion,
        "count": 1 if tile.index == ABBEY else tile.count,
        "in_pile": {
            "base": 0 if tile.expansion != "base" else tile.count - (tile.index == START_TYPE),
            "abbey_and_mayor": 0 if tile.index == ABBEY else tile.count - (tile.index == START_TYPE),
        },
        "start": tile.index == START_TYPE,
        "abbey": tile.index == ABBEY,
        "edges": [EDGE_NAMES[e] for e in tile.edges],
        "segments": segments,
        "cloister": tile.cloister if tile.cloister >= 0 else None,
        "gardens": int(raw.get("gardens", 0)),
        "links": [list(link) for link in tile.links],
        "field_corners": {
            CORNER_NAMES[c]: (seg if seg >= 0 else None) for c, seg in enumerate(corners)
        },
        "zones": owner,
    }


def build(t: Texts) -> dict[str, JSON]:
    zones = zone_polygons()
    return {
        "conventions": {
            "coordinates": t["conventions.coordinates"],
            "rotation": t["conventions.rotation"],
            "sides": list(SIDE_NAMES),
            "ports": list(PORT_NAMES),
            "corners": list(CORNER_NAMES),
            "corner_frame": t["conventions.corner_frame"],
            "segments": t["conventions.segments"],
        },
        "geometry": {"unit": "tile side = 1; x right, y down; north is y = 0", "zones": zones},
        "feature_kinds": [
            {"id": kind, "name": t[f"feature.{kind}"]} for kind in KIND_NAMES
        ],
        "tiles": [tile_type(tile, zones) for tile in TILE_TYPES],
        "start_tile": TILE_TYPES[START_TYPE].id,
        "figures": [
            {
                "id": name,
                "name": t[f"figure.{name}"],
                "text": t[f"figure.{name}.text"],
                "per_player": FOLLOWERS_PER_PLAYER if name == "follower" else 1,
                "expansion": "base" if name == "follower" else "abbey_and_mayor",
            }
            for name in FIGURE_NAMES
        ],
        "abbey_tile": {"id": TILE_TYPES[ABBEY].id, "per_player": 1, "text": t["abbey.text"]},
    }


CATALOG = GameCatalog(slug="carcassonne", package=__package__ or __name__, build=build)
