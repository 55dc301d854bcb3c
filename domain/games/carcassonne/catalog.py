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
from typing import Any

from domain.catalog import GameCatalog, Texts
from domain.engine import JSON
from domain.games.carcassonne.state import FIGURE_NAMES, FOLLOWERS_PER_PLAYER
from domain.games.carcassonne.tiles import (
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
EXTRA_ZONES: dict[str, list[list[float]]] = {
    "bridge": [[_MID_LOW, 0.0], [_MID_HIGH, 0.0], [_MID_HIGH, 1.0], [_MID_LOW, 1.0]],
    "isle_se": [[0.7, 0.7], [0.9, 0.7], [0.9, 0.9], [0.7, 0.9]],
    "isle_sw": [[0.1, 0.7], [0.3, 0.7], [0.3, 0.9], [0.1, 0.9]],
    "isle_ne": [[0.7, 0.1], [0.9, 0.1], [0.9, 0.3], [0.7, 0.3]],
}
"""Shapes the 13 zones cannot express, painted last by the tiles whose ``paint_over`` names them:
a city bridging another (Abbey & Mayor ``AM/CCcc+``) and fields closed in between cities."""
_PAINT_RANK = {FIELD: 0, CLOISTER: 2}
"""Fields first, roads and cities over them, the cloister (centre square) on top: the centre
square overlaps the inner tips of every side wedge, so painted first it would vanish."""


def _along(side: int, t: float) -> tuple[float, float]:
    """The point at fraction ``t`` along side ``side``, walking clockwise."""
    (ax, ay), (bx, by) = _CORNERS[side], _CORNERS[(side + 1) % 4]
    return (ax + (bx - ax) * t, ay + (by - ay) * t)


def zone_polygons() -> dict[str, list[list[float]]]:
    """The 13 zones of the unit square (``C``, the centre; each side's middle and its two ports),
    then the few extra shapes of ``EXTRA_ZONES``."""
    zones: dict[str, list[list[float]]] = {"C": _CENTRE_SQUARE}
    for side, name in enumerate(SIDE_NAMES):
        cuts = (0.0, _MID_LOW, _MID_HIGH, 1.0)
        labels = (PORT_NAMES[2 * side], name, PORT_NAMES[2 * side + 1])
        for label, a, b in zip(labels, cuts, cuts[1:], strict=False):
            zones[label] = [list(_along(side, a)), list(_along(side, b)), list(_CENTRE)]
    return {**zones, **EXTRA_ZONES}


def paint_order(tile: TileType, owner: dict[str, int | None], extra: list[list[Any]]) -> list[JSON]:
    """The zones of a tile type in the order to paint them (see ``_PAINT_RANK``), each with the
    segment whose kind colours it, then the tile's extra shapes; a later zone hides an earlier one
    where they overlap, so a hit test takes the last zone that holds the point."""
    ranked = sorted(
        ((z, seg) for z, seg in owner.items() if seg is not None),
        key=lambda item: _PAINT_RANK.get(tile.kinds[item[1]], 1),
    )
    layers: list[JSON] = [{"zone": z, "segment": seg} for z, seg in ranked]
    layers += [{"zone": zone, "segment": seg} for zone, seg in extra]
    return layers


def _segment_names(t: Texts, tile: TileType) -> list[str]:
    """A readable name per segment: its kind, the sides it reaches (or a number when several of
    that kind reach none) and its pennants."""
    names: list[str] = []
    for local, kind in enumerate(tile.kinds):
        word = t["abbey.name"] if tile.index == ABBEY else t[f"feature.{KIND_NAMES[kind]}"]
        sides = tile.sides[local] if kind not in (FIELD, CLOISTER) else ()
        same = [i for i, k in enumerate(tile.kinds) if k == kind]
        if sides:
            places = ", ".join(t[f"side.{SIDE_NAMES[s]}"] for s in sides)
            word = t["segment.sides"].format(kind=word, sides=places)
        elif len(same) > 1:
            word = t["segment.numbered"].format(kind=word, number=same.index(local) + 1)
        pennants = tile.pennants[local]
        if pennants:
            many = t["segment.pennants"].format(count=pennants)
            word += " " + (t["segment.pennant"] if pennants == 1 else many)
        names.append(word)
    return names


def _tile_name(t: Texts, tile: TileType) -> str:
    if tile.index == ABBEY:
        return t["abbey.name"]
    if tile.letter:
        return t["tile.name"].format(letter=tile.letter)
    expansion = [other for other in TILE_TYPES if other.expansion == tile.expansion and other.index != ABBEY]
    return t["tile.expansion_name"].format(number=expansion.index(tile) + 1)


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


def _inside(point: list[float], polygon: list[list[float]]) -> bool:
    """Strictly inside a convex polygon (on an edge is not inside: another zone shares that edge)."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)
        if abs(cross) < 1e-9:
            return False
        signs.add(cross > 0)
    return len(signs) == 1


def _centroid(points: list[list[float]]) -> list[float]:
    return [
        round(sum(p[0] for p in points) / len(points), 3),
        round(sum(p[1] for p in points) / len(points), 3),
    ]


def _anchor(zones: dict[str, list[list[float]]], names: list[str], taken: list[list[float]]) -> list[float]:
    """Where a figure on this segment is drawn and clicked: the centroid of its zones, unless that
    point is another segment's (a field ringing a cloister has its centroid on the cloister; a
    curved road's centroid lies in the field inside the curve); then the centre of its own zone
    farthest from the other anchors, so no two click targets overlap."""
    centroid = _centroid([pt for name in names for pt in zones[name]])

    def clearance(point: list[float]) -> float:
        return min((math.dist(point, other) for other in taken), default=1.0)

    if clearance(centroid) >= _MIN_ANCHOR_GAP and any(_inside(centroid, zones[n]) for n in names):
        return centroid
    return max((_centroid(zones[name]) for name in names), key=clearance)


def tile_type(t: Texts, tile: TileType, zones: dict[str, list[list[float]]]) -> dict[str, JSON]:
    owner = _zone_owner(tile)
    names = _segment_names(t, tile)
    raw = next((r for r in RAW["tiles"] if r["id"] == tile.id), RAW["abbey"])
    extra: list[list[Any]] = list(raw.get("paint_over", []))
    segments: list[JSON] = []
    taken: list[list[float]] = []
    anchors: dict[int, list[float]] = {}
    # Cloisters, roads and cities first: a field yields its centroid to them.
    for local in sorted(range(len(tile.kinds)), key=lambda i: tile.kinds[i] == FIELD):
        mine = [z for z, seg in owner.items() if seg == local] + [z for z, seg in extra if seg == local]
        if mine:
            anchors[local] = _anchor(zones, mine, taken)
        else:  # a segment without any shape (none today): put its figure in a free corner
            anchors[local] = max(
                _INSET_CORNERS, key=lambda p: min((math.dist(p, other) for other in taken), default=1.0)
            )
        taken.append(anchors[local])
    for local, kind in enumerate(tile.kinds):
        segment: dict[str, JSON] = {
            "segment": local,
            "name": names[local],
            "kind": KIND_NAMES[kind],
            "sides": [SIDE_NAMES[s] for s in tile.sides[local]] if kind not in (FIELD, CLOISTER) else [],
            "ports": [PORT_NAMES[p] for p in tile.ports[local]] if kind == FIELD else [],
            "pennants": tile.pennants[local],
            "cities": list(tile.cities[local]) if kind == FIELD else [],
            "anchor": anchors[local],
        }
        segments.append(segment)
    corners = OT_CORNER_FIELD[tile.index * 4]
    return {
        "id": tile.id,
        "name": _tile_name(t, tile),
        "text": "; ".join(names) + (f" ({t['tile.start']})" if tile.index == START_TYPE else ""),
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
        "field_corners": {CORNER_NAMES[c]: (seg if seg >= 0 else None) for c, seg in enumerate(corners)},
        "zones": owner,
        "paint": paint_order(tile, owner, extra),
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
        "feature_kinds": [{"id": kind, "name": t[f"feature.{kind}"]} for kind in KIND_NAMES],
        "tiles": [tile_type(t, tile, zones) for tile in TILE_TYPES],
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
        "abbey_tile": {
            "id": TILE_TYPES[ABBEY].id,
            "name": t["abbey.name"],
            "per_player": 1,
            "text": t["abbey.text"],
        },
    }


CATALOG = GameCatalog(package=__package__ or __name__, build=build)
