"""Tile data: the JSON tile set and its precomputed rotations.

Every tile type is expanded once, at import, into its 4 orientations ("oriented tiles", index
``type * 4 + quarter turns``, see ``oriented``) as small int tuples, so placement and merging
never rotate anything; the ``OT_*`` tables are indexed by oriented tile. Sides are N=0, E=1, S=2,
W=3; field ports are NL=0, NR=1, EL=2, ER=3, SL=4, SR=5, WL=6, WR=7 (clockwise from the
north-west corner). Rotating 90 degrees clockwise adds 1 to a side and 2 to a port. A tile's
segments (its features on that tile) are numbered in the order of its ``features`` in the data.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources
from typing import Any


class FeatureKind(IntEnum):
    """What a segment is; roads, cities and fields also name the type of a tile's edge."""

    FIELD = 0
    ROAD = 1
    CITY = 2
    CLOISTER = 3


FIELD = FeatureKind.FIELD
ROAD = FeatureKind.ROAD
CITY = FeatureKind.CITY
CLOISTER = FeatureKind.CLOISTER
KIND_NAMES = ("field", "road", "city", "cloister")


class Corner(IntEnum):
    """A tile's corners, clockwise from the north-west (where a barn stands)."""

    NW = 0
    NE = 1
    SE = 2
    SW = 3


CORNERS = tuple(Corner)


SIDE_NAMES = ("N", "E", "S", "W")
PORT_NAMES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
CORNER_NAMES = ("NW", "NE", "SE", "SW")
ANY_EDGE = 3
"""In a frontier code: a side with no placed neighbour, which any edge fits."""
EDGE_LETTERS = {"F": FIELD.value, "R": ROAD.value, "C": CITY.value, "*": ANY_EDGE}
UNCONSTRAINED = 255
"""Frontier code of a square with no placed neighbour: every side digit is ANY_EDGE."""


def oriented(tile_type: int, quarter_turns: int) -> int:
    """The oriented tile of a tile type turned clockwise by ``quarter_turns`` (0 to 3)."""
    return tile_type * 4 + quarter_turns


def tile_type(ot: int) -> int:
    """The tile type of an oriented tile."""
    return ot >> 2


def quarter_turns(ot: int) -> int:
    """The clockwise quarter turns of an oriented tile."""
    return ot & 3


@dataclass(frozen=True, slots=True)
class TileType:
    """One tile type as printed (rotation 0)."""

    index: int
    id: str
    letter: str | None
    expansion: str
    count: int
    start: bool
    edges: tuple[int, ...]
    kinds: tuple[FeatureKind, ...]
    sides: tuple[tuple[int, ...], ...]
    ports: tuple[tuple[int, ...], ...]
    pennants: tuple[int, ...]
    cities: tuple[tuple[int, ...], ...]
    links: tuple[tuple[int, int], ...]
    cloister: int
    """Local index of the cloister segment, or -1."""


def _load_raw() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/tiles.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _tile_type(index: int, raw: dict[str, Any], expansion: str) -> TileType:
    features = raw["features"]
    kinds = tuple(FeatureKind(KIND_NAMES.index(f["kind"])) for f in features)
    return TileType(
        index=index,
        id=raw["id"],
        letter=raw.get("letter"),
        expansion=expansion,
        count=int(raw.get("count", 1)),
        start=bool(raw.get("start", False)),
        edges=tuple(EDGE_LETTERS[c] for c in raw["edges"]),
        kinds=kinds,
        sides=tuple(tuple(SIDE_NAMES.index(s) for s in f.get("sides", ())) for f in features),
        ports=tuple(tuple(PORT_NAMES.index(p) for p in f.get("ports", ())) for f in features),
        pennants=tuple(int(f.get("pennants", 0)) for f in features),
        cities=tuple(tuple(f.get("cities", ())) for f in features),
        links=tuple((int(a), int(b)) for a, b in raw.get("links", ())),
        cloister=kinds.index(CLOISTER) if CLOISTER in kinds else -1,
    )


RAW = _load_raw()
TILE_TYPES: tuple[TileType, ...] = tuple(
    [_tile_type(i, t, t["expansion"]) for i, t in enumerate(RAW["tiles"])]
    + [_tile_type(len(RAW["tiles"]), RAW["abbey"], "abbey_and_mayor")]
)
OT_TILE: tuple[TileType, ...] = tuple(tile for tile in TILE_TYPES for _ in range(4))
"""The tile type of each oriented tile."""
ABBEY = len(TILE_TYPES) - 1
ABBEY_OT = oriented(ABBEY, 0)
TYPE_BY_ID = {t.id: t.index for t in TILE_TYPES}
START_TYPE = TYPE_BY_ID[RAW["start_tile"]]


def _orient(
    tile: TileType, rot: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    edges = tuple(tile.edges[(s - rot) % 4] for s in range(4))
    side_seg = [-1] * 4
    port_seg = [-1] * 8
    seg_sides: list[tuple[int, ...]] = []
    for local, kind in enumerate(tile.kinds):
        if kind == FIELD:
            rotated = tuple(sorted((p + 2 * rot) % 8 for p in tile.ports[local]))
            for p in rotated:
                port_seg[p] = local
        else:
            rotated = tuple(sorted((s + rot) % 4 for s in tile.sides[local]))
            for s in rotated:
                side_seg[s] = local
        seg_sides.append(rotated)
    corners = []
    for c in range(4):
        a, b = port_seg[(2 * c - 1) % 8], port_seg[2 * c]
        corners.append(a if a >= 0 and a == b else -1)
    return edges, tuple(side_seg), tuple(port_seg), tuple(corners), tuple(seg_sides)


def _build_orientations() -> tuple[
    list[tuple[int, ...]],
    list[tuple[int, ...]],
    list[tuple[int, ...]],
    list[tuple[int, ...]],
    list[tuple[tuple[int, ...], ...]],
]:
    edges_l, side_l, port_l, corner_l, segs_l = [], [], [], [], []
    for tile in TILE_TYPES:
        for rot in range(4):
            edges, side_seg, port_seg, corners, seg_sides = _orient(tile, rot)
            edges_l.append(edges)
            side_l.append(side_seg)
            port_l.append(port_seg)
            corner_l.append(corners)
            segs_l.append(seg_sides)
    return edges_l, side_l, port_l, corner_l, segs_l


OT_EDGES, OT_SIDE_SEG, OT_PORT_SEG, OT_CORNER_FIELD, OT_SEG_PLACES = _build_orientations()
"""Per oriented tile: side edge types, side -> local segment, port -> local field segment,
corner (NW, NE, SE, SW) -> local field segment when that corner is field only, and each local
segment's rotated sides (roads, cities) or ports (fields)."""


def _fits() -> list[tuple[tuple[int, ...], ...]]:
    """FITS[type][frontier code] = the rotations whose edges meet every placed neighbour."""
    table = []
    for tile in TILE_TYPES:
        row = []
        for code in range(256):
            need = [(code >> (2 * s)) & 3 for s in range(4)]
            rots = []
            if tile.index != ABBEY:
                for rot in range(4):
                    edges = OT_EDGES[tile.index * 4 + rot]
                    if all(n in (ANY_EDGE, e) for n, e in zip(need, edges, strict=True)):
                        rots.append(rot)
            row.append(tuple(rots))
        table.append(tuple(row))
    return table


FITS = _fits()
IS_HOLE = tuple(all(((code >> (2 * s)) & 3) != ANY_EDGE for s in range(4)) for code in range(256))
"""A frontier square whose four neighbours are all placed."""


def full_tile_set(expansion: bool) -> Counter[int]:
    """Every land tile of the game by type, the start tile included."""
    return Counter(
        {t.index: t.count for t in TILE_TYPES if t.index != ABBEY and (expansion or t.expansion == "base")}
    )
