"""Static tables of Keythedral, loaded once from the package's JSON data files.

Cube colours are indices 0..7 (black, brown, blue, green, red, white, purple, yellow). Field
types share the index of the resource they yield (quarry 0 ... vineyard 4). Law cards are
numbered 1..20 (``L01``..``L20``); building tiles are indices into ``TILES``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any


def _load(name: str) -> Any:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return json.loads(text)


COLOURS: tuple[str, ...] = (
    "black",
    "brown",
    "blue",
    "green",
    "red",
    "white",
    "purple",
    "yellow",
)
COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}
RESOURCES: tuple[int, ...] = (0, 1, 2, 3, 4)
CRAFTS: tuple[int, ...] = (5, 6, 7)
BLACK, BROWN, BLUE, GREEN, RED, WHITE, PURPLE, YELLOW = range(8)
FIELD_TYPES: tuple[str, ...] = ("quarry", "forest", "lake", "farm", "vineyard")
FIELD_INDEX: dict[str, int] = {name: i for i, name in enumerate(FIELD_TYPES)}


@dataclass(frozen=True, slots=True)
class Tile:
    """A building tile: its back (value) and its front (the cubes it costs, by colour index)."""

    id: str
    value: int
    row: int
    cost: tuple[int, ...]

    @property
    def cubes(self) -> int:
        return sum(self.cost)


@dataclass(frozen=True, slots=True)
class LawCard:
    """A law card: ``timing`` names when it may be played, ``windows`` where the engine offers it
    (checked against the engine's own tables by ``tests/unit/keythedral/test_data.py``)."""

    number: int
    id: str
    title: str
    timing: str
    text: str
    windows: tuple[str, ...] = ()


RULES: dict[str, Any] = _load("rules.json")
ROW_VALUES: tuple[int, ...] = tuple(RULES["row_values"])
ROW_SIZES: dict[str, tuple[int, ...]] = {k: tuple(v) for k, v in RULES["row_sizes"].items()}
CUBE_TOTALS: tuple[int, ...] = tuple(RULES["cube_totals"][c] for c in COLOURS)
CUBE_POINTS: tuple[int, ...] = tuple(RULES["cube_points"][c] for c in COLOURS)
CRAFT_PRICE: dict[int, int] = {COLOUR_INDEX[c]: p for c, p in RULES["craft_prices"].items()}
CRAFT_DISCOUNT: int = RULES["craft_discount"]
FENCES_PER_PLAYER: int = RULES["fences_per_player"]
COTTAGES: int = RULES["cottages_per_player"]
TRADER_PRICE: int = RULES["trader_price"]
LAW_PRICE: int = RULES["law_price"]
ROUND_CAP: int = RULES["round_cap"]


def law_spaces(players: int) -> int:
    return int(RULES["law_spaces_two_players"] if players == 2 else RULES["law_spaces"])


def _tiles() -> tuple[Tile, ...]:
    tiles = []
    for raw in _load("building_tiles.json")["tiles"]:
        cost = [0] * 8
        for colour, count in raw["cost"].items():
            cost[COLOUR_INDEX[colour]] += int(count)
        value = int(raw["value"])
        tiles.append(Tile(raw["id"], value, ROW_VALUES.index(value), tuple(cost)))
    return tuple(tiles)


TILES: tuple[Tile, ...] = _tiles()
TILE_INDEX: dict[str, int] = {t.id: i for i, t in enumerate(TILES)}

LAW_RAW: tuple[dict[str, Any], ...] = tuple(_load("law_cards.json")["cards"])
"""The law cards as written in the data file (texts in several languages: see ``catalog``)."""
LAWS: tuple[LawCard, ...] = tuple(
    LawCard(i + 1, raw["id"], raw["title"], raw["timing"], raw["text"], tuple(raw["windows"]))
    for i, raw in enumerate(LAW_RAW)
)


def law_id(card: int) -> str:
    return LAWS[card - 1].id


LAW_NUMBER: dict[str, int] = {card.id: card.number for card in LAWS}


def field_tiles(players: int) -> tuple[list[tuple[int, int, int]], list[int]]:
    """The start fields (x, y, type) and the remaining field types in play for ``players``."""
    table: dict[str, list[int]] = RULES["field_tiles"]
    if players == 2:
        starts = RULES["start_fields_two_players"]
        rest = [FIELD_INDEX[t] for t, backs in table.items() for b in backs if b == 2]
    else:
        starts = RULES["start_fields"]
        rest = [FIELD_INDEX[t] for t, backs in table.items() for b in backs if 1 < b <= players]
    return [(x, y, FIELD_INDEX[t]) for x, y, t in starts], rest
