"""Building tiles on the Keythedral mat: what is face up, what a purchase costs, buying, swapping."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from domain.engine import JSON, Choice, Event
from domain.games.keythedral.data import COLOURS, CRAFTS, RESOURCES, ROW_VALUES, TILES, YELLOW
from domain.games.keythedral.state import State


def tile_public(st: State, tile: int) -> dict[str, JSON]:
    t = TILES[tile]
    mods = st.mods.get(tile, [0, 0])
    return {
        "id": t.id,
        "value": t.value,
        "cost": {COLOURS[c]: n for c, n in enumerate(t.cost) if n},
        "increases": mods[0],
        "decreases": mods[1],
    }


def face_up_tiles(st: State) -> list[int]:
    """Tiles on the mat whose fronts are visible."""
    return [t for r, row in enumerate(st.rows) if st.face_up(r) for t in row]


def buyable_tiles(st: State) -> list[int]:
    """Only the lowest unfinished row may be bought (Q9)."""
    row = st.current_row()
    return list(st.rows[row]) if row < len(st.rows) else []


def prices(st: State, tile: int) -> list[tuple[int, ...]]:
    """Every exact price of ``tile`` after the cards under it; the buyer picks one (L02, L03)."""
    base = TILES[tile].cost
    mods = st.mods.get(tile)
    if mods is None:
        return [base]
    inc, dec = mods
    printed = [c for c in range(8) if base[c]]
    results: set[tuple[int, ...]] = {tuple(base)}
    for _ in range(inc):
        results = {tuple(n + (1 if i == c else 0) for i, n in enumerate(p)) for p in results for c in printed}
    for _ in range(dec):
        nxt: set[tuple[int, ...]] = set()
        for p in results:
            for c in printed:
                if c != YELLOW and p[c] > 0 and sum(p) > 1:
                    nxt.add(tuple(n - (1 if i == c else 0) for i, n in enumerate(p)))
        results = nxt or results
    return sorted(results)


_GUARDS = sum(32 << (6 * c) for c in range(8))
_PACKED_COSTS = tuple(sum(n << (6 * c) for c, n in enumerate(t.cost)) for t in TILES)


def pack(have: list[int]) -> int:
    """Holdings packed six bits a colour over a guard bit, for ``packed_affords``."""
    return _GUARDS + (
        have[0]
        + (have[1] << 6)
        + (have[2] << 12)
        + (have[3] << 18)
        + (have[4] << 24)
        + (have[5] << 30)
        + (have[6] << 36)
        + (have[7] << 42)
    )


def packed_affords(packed: int, tile: int) -> bool:
    """Whether packed holdings cover the printed cost of ``tile``: no field borrows its guard.
    Exact while every count stays below 32 (there are at most 20 cubes of a colour)."""
    return (packed - _PACKED_COSTS[tile]) & _GUARDS == _GUARDS


def affords(have: list[int], price: tuple[int, ...]) -> bool:
    return (
        have[0] >= price[0]
        and have[1] >= price[1]
        and have[2] >= price[2]
        and have[3] >= price[3]
        and have[4] >= price[4]
        and have[5] >= price[5]
        and have[6] >= price[6]
        and have[7] >= price[7]
    )


def substitutions(have: list[int], price: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Prices reachable with Substitution (L05): other resource types, or one craft swapped."""
    out: set[tuple[int, ...]] = set()
    resources = sum(price[c] for c in RESOURCES)
    if resources:
        pool = [c for c in RESOURCES for _ in range(min(have[c], resources))]
        for combo in set(combinations_with_replacement(sorted(set(pool)), resources)):
            p = list(price)
            for c in RESOURCES:
                p[c] = combo.count(c)
            out.add(tuple(p))
    for c in CRAFTS:
        if price[c]:
            for d in CRAFTS:
                if d != c:
                    p = list(price)
                    p[c] -= 1
                    p[d] += 1
                    out.add(tuple(p))
    out.discard(tuple(price))
    return sorted(p for p in out if affords(have, p))


def payment_choices(st: State, seat: int, tile: int, substitution: bool) -> list[Choice]:
    have = st.cubes[seat]
    choices: list[Choice] = []
    seen: set[tuple[int, ...]] = set()
    for price in prices(st, tile):
        if affords(have, price) and price not in seen:
            seen.add(price)
            choices.append({"action": "pay", "cubes": cube_dict(price)})
    if substitution:
        subs: set[tuple[int, ...]] = set()
        for price in prices(st, tile):
            subs.update(substitutions(have, price))
        for price in sorted(subs - seen):
            choices.append({"action": "pay", "cubes": cube_dict(price), "substitution": True})
    return choices


def can_buy(st: State, seat: int, tile: int) -> bool:
    have = st.cubes[seat]
    mods = st.mods.get(tile)
    options = [TILES[tile].cost] if mods is None else prices(st, tile)
    for price in options:
        if affords(have, price):
            return True
    if 5 in st.hands[seat]:
        return any(substitutions(have, p) for p in options)
    return False


def cube_dict(counts: tuple[int, ...] | list[int]) -> dict[str, int]:
    return {COLOURS[c]: n for c, n in enumerate(counts) if n}


def cube_list(cubes: dict[str, int]) -> list[int]:
    out = [0] * 8
    for name, n in cubes.items():
        out[COLOURS.index(name)] = n
    return out


def remove_from_mat(st: State, tile: int) -> int:
    row = TILES[tile].row
    st.rows[row].remove(tile)
    return row


def discard_mods(st: State, tile: int) -> None:
    mods = st.mods.pop(tile, None)
    if mods:
        st.discard.extend([2] * mods[0] + [3] * mods[1])


def complete_purchase(st: State, seat: int, tile: int, price: list[int], events: list[Event]) -> None:
    """Pay the exact cubes, take the tile, turn up the next row, end the game on the last one."""
    before = st.current_row()
    for c, n in enumerate(price):
        if n:
            st.pay_to_store(seat, c, n)
    remove_from_mat(st, tile)
    discard_mods(st, tile)
    st.bought[seat].append(tile)
    t = TILES[tile]
    events.append(
        Event("tile_bought", {"seat": seat, "tile": t.id, "value": t.value, "paid": cube_dict(price)})
    )
    after = st.current_row()
    if after >= len(st.rows):
        st.over = True
        events.append(Event("game_ended", {"reason": "last building tile bought"}))
        return
    if after != before and not st.face_up_tiles:
        events.append(
            Event(
                "row_revealed",
                {"value": ROW_VALUES[after], "tiles": [tile_public(st, x) for x in st.rows[after]]},
            )
        )


def swap_tile(st: State, tile: int, events: list[Event]) -> int:
    """Change of Style (L13): a random unused tile of the same value replaces ``tile`` (Q7)."""
    row = TILES[tile].row
    pool = st.pools[row]
    rng = random.Random(st.seed * 1_000_003 + st.draws)
    st.draws += 1
    new = pool.pop(rng.randrange(len(pool)))
    pool.append(tile)
    pool.sort()
    position = st.rows[row].index(tile)
    st.rows[row][position] = new
    discard_mods(st, tile)
    events.append(Event("tile_swapped", {"removed": TILES[tile].id, "placed": tile_public(st, new)}))
    return new
