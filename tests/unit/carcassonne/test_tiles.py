"""The tile data file reproduces the published totals of the reference (section 1)."""

from __future__ import annotations

from domain.games.carcassonne.tiles import (
    ABBEY,
    CITY,
    CLOISTER,
    FIELD,
    FITS,
    OT_CORNER_FIELD,
    OT_EDGES,
    OT_PORT_SEG,
    OT_SIDE_SEG,
    ROAD,
    START_TYPE,
    TILE_TYPES,
    TYPE_BY_ID,
    TileType,
)
from tests.support.json_values import untyped


def tiles_of(expansion: str) -> list[TileType]:
    return [t for t in TILE_TYPES if t.expansion == expansion and t.index != ABBEY]


def totals(expansion: str) -> dict[str, int]:
    out = dict.fromkeys(
        [
            "types",
            "tiles",
            "city_edges",
            "road_edges",
            "field_edges",
            "city_segments",
            "road_segments",
            "field_segments",
            "pennants",
            "pennant_tiles",
            "cloisters",
            "road_tiles",
            "city_tiles",
            "field_tiles",
        ],
        0,
    )
    for t in tiles_of(expansion):
        n = t.count
        out["types"] += 1
        out["tiles"] += n
        out["city_edges"] += n * t.edges.count(CITY)
        out["road_edges"] += n * t.edges.count(ROAD)
        out["field_edges"] += n * t.edges.count(FIELD)
        out["city_segments"] += n * t.kinds.count(CITY)
        out["road_segments"] += n * t.kinds.count(ROAD)
        out["field_segments"] += n * t.kinds.count(FIELD)
        out["pennants"] += n * sum(t.pennants)
        out["pennant_tiles"] += n if sum(t.pennants) else 0
        out["cloisters"] += n * t.kinds.count(CLOISTER)
        out["road_tiles"] += n if ROAD in t.kinds else 0
        out["city_tiles"] += n if CITY in t.kinds else 0
        out["field_tiles"] += n if FIELD in t.kinds else 0
    return out


def test_base_game_totals_match_the_published_statistics() -> None:
    t = totals("base")
    assert t["types"] == 24
    assert t["tiles"] == 72
    assert (t["city_edges"], t["road_edges"], t["field_edges"]) == (79, 94, 115)
    assert t["city_segments"] == 49
    assert t["field_segments"] == 126
    assert (t["pennants"], t["pennant_tiles"]) == (10, 10)
    assert t["cloisters"] == 6
    assert (t["road_tiles"], t["road_segments"]) == (45, 62)
    assert t["city_tiles"] == 44


def test_abbey_and_mayor_totals_match_the_published_statistics() -> None:
    t = totals("abbey_and_mayor")
    assert t["types"] == 12
    assert t["tiles"] == 12
    assert (t["city_segments"], t["city_tiles"]) == (12, 9)
    assert (t["road_segments"], t["road_tiles"]) == (12, 8)
    assert (t["field_segments"], t["field_tiles"]) == (29, 11)
    assert (t["pennants"], t["pennant_tiles"]) == (6, 5)
    assert t["cloisters"] == 1


def test_every_tile_edge_agrees_with_its_segments() -> None:
    for tile in TILE_TYPES[:ABBEY]:
        for rot in range(4):
            ot = tile.index * 4 + rot
            for side in range(4):
                edge = OT_EDGES[ot][side]
                seg = OT_SIDE_SEG[ot][side]
                ports = OT_PORT_SEG[ot][2 * side : 2 * side + 2]
                if edge == CITY:
                    assert tile.kinds[seg] == CITY and ports == (-1, -1)
                elif edge == ROAD:
                    assert tile.kinds[seg] == ROAD and min(ports) >= 0
                else:
                    assert seg == -1 and ports[0] == ports[1] >= 0


def test_start_tile_is_the_city_with_a_straight_road() -> None:
    start = TILE_TYPES[START_TYPE]
    assert start.id == "BA/RCr" and start.letter == "D" and start.count == 4 and start.start
    assert start.edges == (CITY, ROAD, FIELD, ROAD)


def test_abbey_matches_nothing_by_edges_and_has_only_a_cloister() -> None:
    abbey = TILE_TYPES[ABBEY]
    assert abbey.kinds == (CLOISTER,)
    assert all(not rots for rots in FITS[ABBEY])
    assert OT_CORNER_FIELD[ABBEY * 4] == (-1, -1, -1, -1)


def test_special_expansion_tiles_have_the_described_topology() -> None:
    tunnel = TILE_TYPES[TYPE_BY_ID["AM/CRcr+"]]
    assert tunnel.kinds.count(ROAD) == 1 and tunnel.kinds.count(FIELD) == 3
    assert tunnel.sides[tunnel.kinds.index(ROAD)] == (0, 2)
    well = TILE_TYPES[TYPE_BY_ID["AM/Rrr"]]
    assert well.kinds.count(ROAD) == 1 and len(well.sides[0]) == 3
    bridge = TILE_TYPES[TYPE_BY_ID["AM/CCcc+"]]
    assert bridge.kinds.count(CITY) == 2 and bridge.pennants[:2] == (1, 0)
    assert all(not bridge.ports[i] for i, k in enumerate(bridge.kinds) if k == FIELD)
    assert TILE_TYPES[TYPE_BY_ID["AM/C++"]].pennants == (2,)
    three_fields = TILE_TYPES[TYPE_BY_ID["AM/C!+"]]
    assert three_fields.kinds.count(FIELD) == 3
    for wall in ("AM/CRr", "AM/RrC"):
        assert TILE_TYPES[TYPE_BY_ID[wall]].kinds.count(FIELD) == 3
    crossing = TILE_TYPES[TYPE_BY_ID["AM/LRRRR"]]
    assert crossing.cloister == 0 and crossing.kinds.count(ROAD) == 4


def test_static_field_corners_are_printed_corners_turned_as_the_conventions_say() -> None:
    """``conventions.corner_frame``: printed corner i of a tile placed with rotation r is board
    corner (i + r/90) mod 4, the frame barn choices and placed barns use (``OT_CORNER_FIELD``)."""
    from domain.catalog import describe
    from domain.games.carcassonne import ENGINE
    from domain.games.carcassonne.catalog import CATALOG

    data = untyped(describe(CATALOG, ENGINE.meta, "en")["data"])
    assert isinstance(data, dict)
    corners = data["conventions"]["corners"]
    assert "rotation 0" in data["conventions"]["corner_frame"]
    turned = 0
    for tile, static in zip(TILE_TYPES, data["tiles"], strict=True):
        printed = [static["field_corners"][name] for name in corners]
        for r in range(4):
            board = OT_CORNER_FIELD[tile.index * 4 + r]
            for i, segment in enumerate(printed):
                assert board[(i + r) % 4] == (-1 if segment is None else segment), (tile.id, r, i)
            turned += printed != [None if s < 0 else s for s in board]
    assert turned > 0  # some tiles' corners really move when turned: the frame matters
