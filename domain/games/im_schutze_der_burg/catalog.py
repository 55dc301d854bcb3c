"""Static data of Im Schutze der Burg, built from the engine's own tables (``data.py``).

Ids are the ones views, choices and events use: card ids (``messenger``), building ids
(``palace``), helper-space ids (``palace.0``), resource ids (``sand``), winter card ids. Values the
rules reference tags [reconstructed] carry ``verified: false`` and name the fields in
``unverified``; the engine's data files hold the values, this module only which are not sourced.
"""

from __future__ import annotations

from domain.catalog import GameCatalog, Texts
from domain.engine import JSON
from domain.games.im_schutze_der_burg import data
from domain.games.im_schutze_der_burg.data import BUILDING_TYPES, CARDS, KINDS, SPACES, WINTER_CARDS

UNVERIFIED_CARDS: dict[str, tuple[str, ...]] = {
    "worker_1": ("contents",),
    "worker_2": ("contents",),
}
"""Worker I and II contents are reconstructed (rules reference 2.4.5, Q1)."""
UNVERIFIED_BUILDINGS: dict[str, tuple[str, ...]] = {
    "servants_house": ("spaces",),
    "large_tower": ("name", "count"),
    "small_tower": ("name", "count"),
    "house": ("name", "count"),
}
"""Names and counts of the three tile types without helper spaces, and the Servants' House's
second space, are reconstructed (rules reference 2.9, Q2, Q3)."""
UNVERIFIED_SPACE_FEES = frozenset({"market", "servants_house"})
"""Market and Servants' House fees are reconstructed (rules reference 2.9)."""
UNVERIFIED_RULES = ("forge_start",)
"""Nothing is placed in the Forge at setup in any source (rules reference 2.2)."""
RIDER = "silver"


def _flags(unverified: tuple[str, ...]) -> dict[str, JSON]:
    return {"verified": not unverified, "unverified": list(unverified)}


def _kinds(values: tuple[int, ...]) -> dict[str, int]:
    return {k: n for k, n in zip(KINDS, values, strict=True) if n}


def build(t: Texts) -> dict[str, JSON]:
    cards: list[JSON] = []
    for card in CARDS:
        item: dict[str, JSON] = {
            "id": card.id,
            "name": t[f"card.{card.id}.name"],
            "rank": card.rank,
            "effect": t[f"card.{card.id}.effect"],
        }
        if card.index in data.WORKERS:
            item["contents"] = {
                "fixed": _kinds(card.fixed),
                "choose": card.choose,
                "choose_from": [KINDS[k] for k in card.choose_from],
            }
        item.update(_flags(UNVERIFIED_CARDS.get(card.id, ())))
        cards.append(item)
    buildings: list[JSON] = []
    for b in BUILDING_TYPES:
        spaces = []
        for number, index in enumerate(b.spaces, start=1):
            sp = SPACES[index]
            name = t["space.name"].format(building=t[f"building.{b.id}.name"], number=number)
            space: dict[str, JSON] = {"id": sp.id, "name": name, "fee": sp.fee}
            if b.scoring == "count":
                space.update({"vp": sp.vp, "per": sp.per, "counts": b.target})
            space.update(_flags(("fee",) if b.id in UNVERIFIED_SPACE_FEES else ()))
            spaces.append(space)
        building: dict[str, JSON] = {
            "id": b.id,
            "name": t[f"building.{b.id}.name"],
            "prebuilt": b.prebuilt,
            "count": b.count,
            "vp": b.vp,
            "value": b.value,
            "category": b.category or None,
            "scoring": b.scoring,
            "scoring_text": t[f"building.{b.id}.scoring"] if b.spaces else None,
            "scoring_params": dict(b.params),
            "spaces": spaces,
        }
        building.update(_flags(UNVERIFIED_BUILDINGS.get(b.id, ())))
        buildings.append(building)
    return {
        "resources": [
            {
                "id": kind,
                "name": t[f"resource.{kind}"],
                "value": data.RESOURCE_VALUE[k],
                "count": data.RESOURCE_TOTAL[k],
                "joker": kind == RIDER,
            }
            for k, kind in enumerate(KINDS)
        ],
        "posts": [
            {
                "id": kind,
                "kind": "rider" if kind == RIDER else "cart",
                "name": t[f"post.{kind}"],
                "resource": kind,
                "yield": data.YIELD[k],
            }
            for k, kind in enumerate(KINDS)
        ],
        "character_cards": cards,
        "buildings": buildings,
        "winter_cards": [
            {
                "id": w.id,
                "name": t[f"winter.{w.id}.name"],
                "text": t[f"winter.{w.id}.text"],
                "effect": w.effect,
                "params": dict(w.params),
                **_flags(("name", "text", "params")),
            }
            for w in WINTER_CARDS
        ],
        "winter_round_labels": list(data.WINTER_LABELS),
        "player_counts": [
            {"players": n, "rounds": pc.rounds, "helpers": pc.helpers, "picks": pc.picks}
            for n, pc in sorted(data.PLAYER_COUNTS.items())
        ],
        "rules": {
            "thalers_total": data.THALERS_TOTAL,
            "start_thalers": data.START_THALERS,
            "start_resources": _kinds(data.START_RESOURCES),
            "watchtower_start": _kinds(data.TOWER_START),
            "forge_start": data.FORGE_START,
            "tribute_per_kind": data.TRIBUTE,
            "messenger_thalers": data.MESSENGER_THALERS,
            "bricklayer_thalers_per_piece": data.BRICKLAYER_PER_PIECE,
            "stonemason_price": data.STONEMASON_PRICE,
            "master_builder_vp_per_building": data.MASTER_BUILDER_VP,
            "min_kinds_per_building": data.MIN_KINDS,
            "max_buildings_per_action": data.MAX_BUILDS,
            "max_helpers_per_action": data.MAX_HELPERS,
            **_flags(UNVERIFIED_RULES),
        },
    }


def data_texts(lang: str) -> dict[str, str]:
    """English names and texts the data files carry (cards, buildings, winter cards)."""
    if lang != "en":
        return {}
    texts = {f"card.{c.id}.name": c.name for c in CARDS}
    texts.update({f"building.{b.id}.name": b.name for b in BUILDING_TYPES})
    for w in WINTER_CARDS:
        texts[f"winter.{w.id}.name"] = w.name
        texts[f"winter.{w.id}.text"] = w.text
    return texts


CATALOG = GameCatalog(
    package=__package__ or __name__,
    build=build,
    data_texts=data_texts,
)
