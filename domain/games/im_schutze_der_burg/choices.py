"""Legal choices of each decision kind, as JSON objects a client posts back verbatim."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from domain.engine import Choice
from domain.games.im_schutze_der_burg.data import (
    ALL_CARDS_MASK,
    BUILD_KINDS,
    BUILDABLE_TILES,
    CARD_INDEX,
    CARDS,
    KINDS,
    MASTER_BUILDER,
    MAX_HELPERS,
    SPACES,
    STONEMASON_PRICE,
    TILE_OF_SPACE,
    TILE_TYPE,
    WINTER_BY_ID,
)
from domain.games.im_schutze_der_burg.state import GUEST_HOUSE, NOBODY, State

DONE: Choice = {"action": "done"}
PASS: Choice = {"action": "pass"}
SKIP: Choice = {"action": "skip"}

_pick_cache: dict[tuple[int, int], list[Choice]] = {}


def pick_choices(hand: int, picks: int) -> list[Choice]:
    """Cards (or unordered pairs, canonical order) a seat may choose from its hand."""
    key = (hand, picks)
    found = _pick_cache.get(key)
    if found is not None:
        return found
    cards = [c.index for c in CARDS if hand >> c.index & 1]
    full = hand == ALL_CARDS_MASK
    out: list[Choice] = []
    if picks == 1:
        out = [{"card": CARDS[c].id} for c in cards if not (full and c == MASTER_BUILDER)]
    else:
        for a, b in combinations(cards, picks):
            if full and MASTER_BUILDER in (a, b):
                continue
            out.append({"cards": [CARDS[a].id, CARDS[b].id]})
    _pick_cache[key] = out
    return out


def picked_cards(choice: Choice) -> list[int]:
    if "card" in choice:
        return [CARD_INDEX[choice["card"]]]
    return [CARD_INDEX[c] for c in choice["cards"]]


def trader_choices(st: State, seat: int) -> list[Choice]:
    """Helper placements of a Trader; empty when only passing is possible."""
    if st.helpers[seat] <= 0:
        return []
    posts = st.posts
    free = [k for k in range(4) if posts[k] == NOBODY]
    if free:
        return [{"action": "place", "post": KINDS[k]} for k in free] + [PASS]
    out: list[Choice] = []
    if posts[4] == NOBODY:
        out.append({"action": "place", "post": KINDS[4]})
    for k in range(5):
        owner = posts[k]
        if owner != NOBODY and owner != seat and not st.posts_new[k]:
            out.append({"action": "displace", "post": KINDS[k]})
    if out:
        out.append(PASS)
    return out


def tower_choices(st: State) -> list[Choice]:
    out: list[Choice] = [{"action": "take", "resource": KINDS[k]} for k in range(5) if st.tower[k] > 0]
    if out:
        out.append(SKIP)
    return out


_CACHE_LIMIT = 50_000
_TILE_BITS = tuple((t, 1 << TILE_TYPE[t]) for t in BUILDABLE_TILES)


_avail_cache: dict[tuple[int, ...], int] = {}


def available_types(st: State) -> int:
    """Bitmask of building types with at least one unbuilt tile."""
    key = tuple(st.built)
    mask = _avail_cache.get(key)
    if mask is None:
        mask = 0
        for tile, bit in _TILE_BITS:
            if key[tile] == NOBODY:
                mask |= bit
        if len(_avail_cache) >= _CACHE_LIMIT:
            _avail_cache.clear()
        _avail_cache[key] = mask
    return mask


def helper_choices(st: State, seat: int) -> list[Choice]:
    """Castle (and guest) placements after building; empty if none is possible.

    At most one helper of a seat per building per round (player aid S7): with 2 players this
    spans both cards of the round.
    """
    if st.act_placed >= MAX_HELPERS:
        return []
    sources = ["supply"] if st.helpers[seat] > 0 else []
    sources.extend(KINDS[k] for k in range(5) if st.posts[k] == seat)
    if not sources:
        return []
    money = st.thalers[seat]
    used = st.round_tiles[seat] if st.round_tiles else ()
    built = st.built
    occupied = st.spaces
    out: list[Choice] = []
    seen: set[tuple[int, int]] = set()
    for sp in SPACES:
        tile = TILE_OF_SPACE[sp.index]
        if built[tile] == NOBODY or occupied[sp.index] != NOBODY or sp.fee > money:
            continue
        if tile in used or (tile, sp.fee) in seen:
            continue
        seen.add((tile, sp.fee))
        for src in sources:
            out.append({"action": "place", "space": sp.id, "from": src})
    if st.guest_house and GUEST_HOUSE not in used:
        fee = WINTER_BY_ID["guest_house"].params["fee"]
        if fee <= money:
            for src in sources:
                out.append({"action": "place", "space": "guest_house", "from": src})
    if out:
        out.append(DONE)
    return out


def buy_choices(st: State, seat: int) -> list[Choice]:
    """Stonemason purchases: one piece from each other player's Worker card, never a card's last.

    With 2 players an opponent may have two Worker cards: one piece from each (rules 2.4.4.1a,
    2.14: each card is equipped separately and the Stonemason rule applies per card).
    """
    if st.thalers[seat] < STONEMASON_PRICE:
        return []
    out: list[Choice] = []
    for index, entry in enumerate(st.workers):
        owner = entry[0]
        if owner == seat or index in st.act_bought:
            continue
        pieces = entry[2:]
        if sum(pieces) < 2:
            continue
        for k in range(5):
            if pieces[k] > 0:
                out.append(
                    {
                        "action": "buy",
                        "seat": owner,
                        "card": CARDS[entry[1]].id,
                        "resource": KINDS[k],
                    }
                )
    if out:
        out.append(DONE)
    return out


def worker_options(st: State, card: int) -> list[tuple[list[str], list[int]]]:
    """Distinct results of a Worker's free choice given the stock: (requested, delivered)."""
    spec = CARDS[card]
    clip = spec.choose + max(spec.fixed)  # stock beyond this cannot change the outcome
    key = (card, *(n if n < clip else clip for n in st.supply))
    found = _worker_cache.get(key)
    if found is not None:
        return found
    out: list[tuple[list[str], list[int]]] = []
    seen: set[tuple[int, ...]] = set()
    base = [st.supply[k] - min(spec.fixed[k], st.supply[k]) for k in range(5)]
    for combo in _combos(spec.choose_from, spec.choose):
        avail = list(base)
        got = [0] * 5
        for k in combo:
            if avail[k] > 0:
                avail[k] -= 1
                got[k] += 1
        result = tuple(got)
        if result in seen:
            continue
        seen.add(result)
        out.append(([BUILD_KINDS[k] for k in combo], got))
    _worker_cache[key] = out
    return out


_worker_cache: dict[tuple[int, ...], list[tuple[list[str], list[int]]]] = {}


def _combos(kinds: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    return list(combinations_with_replacement(kinds, n))


def firewood_choices(st: State, seat: int) -> list[Choice]:
    params = WINTER_BY_ID["firewood"].params
    out: list[Choice] = []
    if st.res[seat][1] >= params["wood"]:
        out.append({"pay": "wood"})
    if st.thalers[seat] >= params["thalers"]:
        out.append({"pay": "thalers"})
    return out


def bid_choices(st: State, seat: int) -> list[Choice]:
    return [{"bid": b} for b in range(st.thalers[seat] + 1)]
