"""Static tables of the game, loaded once from the JSON files in ``data/``.

Everything the rules reference tags [reconstructed] lives in those files, so a better source
changes data, not code. Indices are plain ints so the hot path works on lists.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

SAND, WOOD, CLAY, STONE, SILVER = 0, 1, 2, 3, 4
KINDS = ("sand", "wood", "clay", "stone", "silver")
KIND_INDEX = {name: i for i, name in enumerate(KINDS)}
BUILD_KINDS = KINDS[:4]


def _load(name: str) -> Any:
    folder = resources.files(__package__ or __name__).joinpath("data")
    text = folder.joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def _counts(mapping: dict[str, int]) -> list[int]:
    out = [0] * 5
    for name, n in mapping.items():
        out[KIND_INDEX[name]] += int(n)
    return out


@dataclass(frozen=True, slots=True)
class PlayerCount:
    rounds: int
    helpers: int
    picks: int


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    id: str
    name: str
    rank: int
    fixed: tuple[int, ...]
    choose: int
    choose_from: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Space:
    index: int
    id: str
    btype: int
    fee: int
    vp: int
    per: int


@dataclass(frozen=True, slots=True)
class BuildingType:
    index: int
    id: str
    name: str
    prebuilt: bool
    count: int
    vp: int
    value: int
    category: str
    scoring: str
    target: str
    params: dict[str, int]
    spaces: tuple[int, ...]  # indices into SPACES
    tiles: tuple[int, ...]  # indices into TILES


@dataclass(frozen=True, slots=True)
class WinterCard:
    id: str
    name: str
    effect: str
    text: str
    params: dict[str, int]


_GAME = _load("game.json")
_CARDS = _load("cards.json")
_BUILDINGS = _load("buildings.json")
_WINTER = _load("winter.json")

PLAYER_COUNTS: dict[int, PlayerCount] = {
    int(n): PlayerCount(int(v["rounds"]), int(v["helpers"]), int(v["picks"]))
    for n, v in _GAME["players"].items()
}
THALERS_TOTAL: int = int(_GAME["thalers_total"])
RESOURCE_TOTAL: tuple[int, ...] = tuple(int(r["count"]) for r in _GAME["resources"])
RESOURCE_VALUE: tuple[int, ...] = tuple(int(r["value"]) for r in _GAME["resources"])
YIELD: tuple[int, ...] = tuple(int(r["yield"]) for r in _GAME["resources"])
START_THALERS: int = int(_GAME["start_thalers"])
START_RESOURCES: tuple[int, ...] = tuple(_counts(_GAME["start_resources"]))
TOWER_START: tuple[int, ...] = tuple(_counts(_GAME["watchtower_start"]))
FORGE_START: int = int(_GAME["forge_start"])
TRIBUTE: int = int(_GAME["tribute_per_kind"])
MESSENGER_THALERS: int = int(_GAME["messenger_thalers"])
BRICKLAYER_PER_PIECE: int = int(_GAME["bricklayer_thalers_per_piece"])
STONEMASON_PRICE: int = int(_GAME["stonemason_price"])
MASTER_BUILDER_VP: int = int(_GAME["master_builder_vp_per_building"])
MIN_KINDS: int = int(_GAME["min_kinds_per_building"])
MAX_BUILDS: int = int(_GAME["max_buildings_per_action"])
MAX_HELPERS: int = int(_GAME["max_helpers_per_action"])

CARDS: tuple[Card, ...] = tuple(
    Card(
        i,
        str(c["id"]),
        str(c["name"]),
        int(c["rank"]),
        tuple(_counts(c.get("fixed", {}))),
        int(c.get("choose", 0)),
        tuple(KIND_INDEX[k] for k in c.get("choose_from", [])),
    )
    for i, c in enumerate(_CARDS["cards"])
)
CARD_INDEX = {c.id: c.index for c in CARDS}
MESSENGER = CARD_INDEX["messenger"]
TRADER = CARD_INDEX["trader"]
BRICKLAYER = CARD_INDEX["bricklayer"]
STONEMASON = CARD_INDEX["stonemason"]
MASTER_BUILDER = CARD_INDEX["master_builder"]
WORKERS: tuple[int, ...] = tuple(c.index for c in CARDS if c.id.startswith("worker"))
ALL_CARDS_MASK = (1 << len(CARDS)) - 1


def _building_tables() -> tuple[tuple[BuildingType, ...], tuple[Space, ...], tuple[int, ...]]:
    types: list[BuildingType] = []
    spaces: list[Space] = []
    tiles: list[int] = []
    for ti, b in enumerate(_BUILDINGS["buildings"]):
        space_ids: list[int] = []
        for k, sp in enumerate(b["spaces"]):
            space_ids.append(len(spaces))
            spaces.append(
                Space(
                    len(spaces),
                    f"{b['id']}.{k}",
                    ti,
                    int(sp["fee"]),
                    int(sp.get("vp", 0)),
                    int(sp.get("per", 1)),
                )
            )
        tile_ids = []
        for _ in range(int(b["count"])):
            tile_ids.append(len(tiles))
            tiles.append(ti)
        params = {
            k: int(v)
            for k, v in b.items()
            if k in ("one_helper_per", "both_helpers_per", "pieces_per_helper")
        }
        types.append(
            BuildingType(
                ti,
                str(b["id"]),
                str(b["name"]),
                bool(b["prebuilt"]),
                int(b["count"]),
                int(b["vp"]),
                int(b["value"]),
                str(b["category"]),
                str(b["scoring"]),
                str(b.get("target", "")),
                params,
                tuple(space_ids),
                tuple(tile_ids),
            )
        )
    return tuple(types), tuple(spaces), tuple(tiles)


BUILDING_TYPES, SPACES, TILE_TYPE = _building_tables()
BUILDING_INDEX = {b.id: b.index for b in BUILDING_TYPES}
SPACE_INDEX = {s.id: s.index for s in SPACES}
PREBUILT_TILES: tuple[int, ...] = tuple(t for t, ti in enumerate(TILE_TYPE) if BUILDING_TYPES[ti].prebuilt)
BUILDABLE_TILES: tuple[int, ...] = tuple(
    t for t, ti in enumerate(TILE_TYPE) if not BUILDING_TYPES[ti].prebuilt
)
TILE_OF_SPACE: tuple[int, ...] = tuple(BUILDING_TYPES[s.btype].tiles[0] for s in SPACES)
BUILDABLE_TYPES: tuple[int, ...] = tuple(b.index for b in BUILDING_TYPES if not b.prebuilt)

WINTER_LABELS: tuple[int, ...] = tuple(int(x) for x in _WINTER["labels"])
WINTER_CARDS: tuple[WinterCard, ...] = tuple(
    WinterCard(
        str(w["id"]),
        str(w["name"]),
        str(w["effect"]),
        str(w["text"]),
        {k: int(v) for k, v in w.items() if isinstance(v, int) and not isinstance(v, bool)},
    )
    for w in _WINTER["cards"]
)
WINTER_BY_ID = {w.id: w for w in WINTER_CARDS}


def winter_rounds(rounds: int) -> tuple[int, ...]:
    """Rounds (1-based) whose round space carries a winter mark; labels count down."""
    return tuple(sorted(rounds - label + 1 for label in WINTER_LABELS if label <= rounds))
