"""Static data of Keythedral, built from the engine's own tables (``data.py``, ``rules.json``).

The board is the parity lattice of the rules reference (section 2.2): fields (octagons) on cells
with both coordinates odd, gaps (diamonds: cottages, houses, the Keythedral) on cells with both
even. The views use the same coordinates (``x``, ``y``; fences as ``gx, gy, fx, fy``), so the
``board`` section below is all a client needs to draw and hit-test them. Values the rules
reference tags [reconstructed] carry ``verified: false`` and name the fields in ``unverified``.
"""

from __future__ import annotations

import math

from domain.catalog import GameCatalog, Texts
from domain.engine import JSON
from domain.games.keythedral import data
from domain.games.keythedral.data import (
    COLOURS,
    CRAFTS,
    FIELD_TYPES,
    LAWS,
    RESOURCES,
    ROW_SIZES,
    ROW_VALUES,
    RULES,
    TILES,
)
from domain.games.keythedral.view import PHASES

SOURCED_LAW_TITLES = frozenset({"L02", "L13"})
"""Only two titles appear in the source; the other 18 are working names (rules reference 3.1)."""
PIECES = ("keythedral", "cottage", "house", "fence", "worker", "work_order")
"""The wooden and cardboard pieces that are not cards, cubes, fields or building tiles, so a client
can name them too (the views use these words: cottages, houses, fences, workers)."""
CRAFTSMEN = {"white": "blacksmith", "purple": "glassmaker", "yellow": "goldsmith"}

_CUT = 2 / (2 + math.sqrt(2))
"""Corner cut of a regular octagon in a 2x2 lattice square: the diamonds between four octagons
have half-diagonal ``_CUT``."""


def _octagon() -> list[list[float]]:
    k = round(1 - _CUT, 4)
    return [[-k, -1.0], [k, -1.0], [1.0, -k], [1.0, k], [k, 1.0], [-k, 1.0], [-1.0, k], [-1.0, -k]]


def _diamond() -> list[list[float]]:
    c = round(_CUT, 4)
    return [[0.0, -c], [c, 0.0], [0.0, c], [-c, 0.0]]


def _flags(unverified: tuple[str, ...]) -> dict[str, JSON]:
    return {"verified": not unverified, "unverified": list(unverified)}


def board(t: Texts) -> dict[str, JSON]:
    start = [{"x": x, "y": y, "field": f} for x, y, f in RULES["start_fields"]]
    start_two = [{"x": x, "y": y, "field": f} for x, y, f in RULES["start_fields_two_players"]]
    return {
        "description": t["board.description"],
        "keythedral": {"x": 0, "y": 0},
        "field_cells": "x odd and y odd",
        "gap_cells": "x even and y even, except the Keythedral at (0, 0)",
        "field_neighbours": [[2, 0], [-2, 0], [0, 2], [0, -2]],
        "field_gaps": [[1, 1], [1, -1], [-1, 1], [-1, -1]],
        "gap_fields": [[1, 1], [1, -1], [-1, 1], [-1, -1]],
        "fence_slot": "a gap (gx, gy) and one of its four diagonal fields (fx, fy)",
        "y_axis": "down",
        "field_shape": _octagon(),
        "gap_shape": _diamond(),
        "start_fields": {"2": start_two, "3-5": start},
        "field_placement": t["board.field_placement"],
        "cottage_placement": t["board.cottage_placement"],
        **_flags(("coordinates", "start_fields_two_players")),
    }


def _cost_text(t: Texts, cost: tuple[int, ...]) -> str:
    """A tile's printed cost in words, cube names in the language of ``t``: "1 × Stone + 1 × Wood"."""
    return " + ".join(f"{n} × {t[f'cube.{COLOURS[c]}']}" for c, n in enumerate(cost) if n)


def build(t: Texts) -> dict[str, JSON]:
    field_types: list[JSON] = []
    for k, name in enumerate(FIELD_TYPES):
        backs = RULES["field_tiles"][name]
        field_types.append(
            {
                "id": name,
                "name": t[f"field.{name}"],
                "resource": COLOURS[RESOURCES[k]],
                "tiles_by_back": {str(b): backs.count(b) for b in sorted(set(backs))},
            }
        )
    cubes = [
        {
            "id": colour,
            "name": t[f"cube.{colour}"],
            "kind": "craft" if c in CRAFTS else "resource",
            "total": data.CUBE_TOTALS[c],
            "points": data.CUBE_POINTS[c],
            "price": data.CRAFT_PRICE.get(c),
        }
        for c, colour in enumerate(COLOURS)
    ]
    keytown: list[JSON] = [
        {
            "id": CRAFTSMEN[COLOURS[c]],
            "name": t[f"keytown.{CRAFTSMEN[COLOURS[c]]}.name"],
            "text": t[f"keytown.{CRAFTSMEN[COLOURS[c]]}.text"],
            "craft": COLOURS[c],
            "price": data.CRAFT_PRICE[c],
        }
        for c in CRAFTS
    ]
    keytown.append(
        {
            "id": "trader",
            "name": t["keytown.trader.name"],
            "text": t["keytown.trader.text"],
            "craft": None,
            "price": data.TRADER_PRICE,
        }
    )
    keytown.append(
        {
            "id": "law_master",
            "name": t["keytown.law_master.name"],
            "text": t["keytown.law_master.text"],
            "craft": None,
            "price": data.LAW_PRICE,
        }
    )
    return {
        "board": board(t),
        "field_types": field_types,
        "cubes": cubes,
        "keytown": keytown,
        "law_spaces": {"2": data.law_spaces(2), "3-5": data.law_spaces(3)},
        "law_cards": [
            {
                "id": law.id,
                "number": law.number,
                "name": t[f"law.{law.id}.title"],
                "title": t[f"law.{law.id}.title"],
                "timing": law.timing,
                "timing_text": t[f"timing.{law.timing}"],
                "text": t[f"law.{law.id}.text"],
                **_flags(() if law.id in SOURCED_LAW_TITLES else ("name", "title")),
            }
            for law in LAWS
        ],
        "building_tiles": [
            {
                "id": tile.id,
                "name": t["building_tile.name"].format(value=tile.value),
                "text": t["building_tile.text"].format(cost=_cost_text(t, tile.cost)),
                "row": tile.row,
                "value": tile.value,
                "cost": {COLOURS[c]: n for c, n in enumerate(tile.cost) if n},
                **_flags(("cost",)),
            }
            for tile in TILES
        ],
        "rows": [
            {
                "row": r,
                "name": t["row.name"].format(value=value),
                "value": value,
                "short": ROW_SIZES["short"][r],
                "full": ROW_SIZES["full"][r],
            }
            for r, value in enumerate(ROW_VALUES)
        ],
        "pieces": [
            {"id": piece, "name": t[f"piece.{piece}.name"], "text": t[f"piece.{piece}.text"]}
            for piece in PIECES
        ],
        "phases": [{"id": p, "number": n, "name": t[f"phase.{p}"]} for n, p in enumerate(PHASES)],
        "rules": {
            "fences_per_player": data.FENCES_PER_PLAYER,
            "cottages_per_player": data.COTTAGES,
            "craft_discount": data.CRAFT_DISCOUNT,
            "trader_price": data.TRADER_PRICE,
            "law_price": data.LAW_PRICE,
            "round_cap": data.ROUND_CAP,
        },
    }


def data_texts(lang: str) -> dict[str, str]:
    """Law titles and texts the data file carries (English; French where it has them)."""
    texts: dict[str, str] = {}
    suffix = "" if lang == "en" else f"_{lang}"
    for raw in data.LAW_RAW:
        title, text = raw.get(f"title{suffix}"), raw.get(f"text{suffix}")
        if isinstance(title, str) and isinstance(text, str):
            texts[f"law.{raw['id']}.title"] = title
            texts[f"law.{raw['id']}.text"] = text
    return texts


CATALOG = GameCatalog(
    package=__package__ or __name__,
    build=build,
    data_texts=data_texts,
)
