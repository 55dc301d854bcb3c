"""Legal choices of each decision kind, as JSON objects a client posts back verbatim.

The fixed ones (menu entries, Keytown visits, cells, numbers, bids, colours, cube sets) are built
once and shared: callers must not mutate them. Law-card plays are listed by ``laws.plays`` and
tile payments by ``market.payment_choices``.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from domain.engine import Choice
from domain.games.keythedral import board, laws, market
from domain.games.keythedral.data import (
    BLACK,
    BROWN,
    COLOURS,
    CRAFT_DISCOUNT,
    CRAFT_PRICE,
    CRAFTS,
    LAW_PRICE,
    PURPLE,
    RED,
    RESOURCES,
    TILES,
    TRADER_PRICE,
    WHITE,
    YELLOW,
)
from domain.games.keythedral.state import Cell, State

# -- tile laying (S-9) -------------------------------------------------------------------------
_CELL_CHOICES: dict[Cell, Choice] = {}
_COTTAGE_CHOICES: dict[tuple[int, Cell], Choice] = {}


def field_choices(st: State) -> list[Choice]:
    """Where the drawn field tile may go (G4)."""
    return [_cell_choice(c) for c in board.legal_field_cells(st)]


def cottage_choices(st: State, seat: int) -> list[Choice]:
    """Each cottage of ``seat`` not yet laid, in each gap it may go to (G5)."""
    gaps = board.legal_cottage_gaps(st)
    numbers = [n + 1 for n, pos in enumerate(st.cottage_pos[seat]) if pos is None]
    return [_cottage_choice(n, g) for n in numbers for g in gaps]


def _cell_choice(cell: Cell) -> Choice:
    found = _CELL_CHOICES.get(cell)
    if found is None:
        found = _CELL_CHOICES[cell] = {"x": cell[0], "y": cell[1]}
    return found


def _cottage_choice(number: int, cell: Cell) -> Choice:
    found = _COTTAGE_CHOICES.get((number, cell))
    if found is None:
        found = _COTTAGE_CHOICES[(number, cell)] = {"number": number, "x": cell[0], "y": cell[1]}
    return found


# -- phase 1: work-order markers and workers ---------------------------------------------------
NUMBERS: dict[int, Choice] = {n: {"number": n} for n in range(1, 6)}


def work_order_choices(st: State) -> list[Choice]:
    """The numbers no work-order marker lies on yet."""
    markers = st.markers
    return [NUMBERS[n] for n in range(1, 6) if n not in markers]


def placement_choices(st: State, seat: int, number: int, options: list[Cell]) -> list[Choice]:
    """A cottage sends one worker, a house two to different fields; compulsory by default (Q1)."""
    singles: list[Choice] = [_fields_choice(f) for f in options]
    if st.house[seat][number - 1] and len(options) >= 2:
        pairs: list[Choice] = [_fields_choice(a, b) for a, b in combinations(options, 2)]
        choices = pairs + singles if st.optional_placement else pairs
    else:
        choices = singles
    if st.optional_placement:
        choices = [{"fields": []}, *choices]
    return choices


_FIELDS_CHOICES: dict[tuple[Cell, ...], Choice] = {}


def _fields_choice(*cells: Cell) -> Choice:
    found = _FIELDS_CHOICES.get(cells)
    if found is None:
        found = _FIELDS_CHOICES[cells] = {"fields": [[x, y] for x, y in cells]}
    return found


# -- cubes from the store (harvest, Trader) ----------------------------------------------------
COLOUR_CHOICES: tuple[Choice, ...] = tuple({"colour": name} for name in COLOURS)


def store_colour_choices(st: State) -> list[Choice]:
    """The resource colours the store still holds."""
    return [COLOUR_CHOICES[c] for c in RESOURCES if st.store[c] > 0]


# -- phase 3: the menu and its details ---------------------------------------------------------
PASS: Choice = {"action": "pass"}
HOUSE: Choice = {"action": "house"}
FENCE: Choice = {"action": "fence"}
KEYTOWN: Choice = {"action": "keytown"}
BUY: tuple[Choice, ...] = tuple({"action": "buy", "tile": t.id} for t in TILES)


def turn_choices(st: State, seat: int) -> list[Choice]:
    """Phase 3 (P3-1): pass, a tile (one entry per tile), a house, a fence (build or remove),
    Keytown (a craftsman, the Trader or the Law Master), or a law card playable at any time.
    Details are asked next: the short menu gives passing and buying a fair share of random
    play, which keeps random games from draining every cube at Keytown round after round."""
    have = st.cubes[seat]
    hand = st.hands[seat]
    out: list[Choice] = [PASS]
    rows = st.rows
    for row in rows:
        if row:
            packed = market.pack(have)
            mods = st.mods
            substitution = 5 in hand
            for tile in row:
                if tile in mods:
                    if market.can_buy(st, seat, tile):
                        out.append(BUY[tile])
                elif market.packed_affords(packed, tile) or (substitution and market.can_buy(st, seat, tile)):
                    out.append(BUY[tile])
            break
    if have[BLACK] and have[BROWN] and st.fx.restriction in (-1, seat):
        houses = st.house[seat]
        for i, pos in enumerate(st.cottage_pos[seat]):
            if pos is not None and not houses[i]:
                out.append(HOUSE)
                break
    if (have[BROWN] and st.fences_left[seat] and board.has_free_fence_slot(st)) or (
        have[RED] >= 2 and st.fences
    ):
        out.append(FENCE)
    if _can_visit_keytown(st, seat):
        out.append(KEYTOWN)
    if hand:
        out.extend(laws.plays(st, seat, None, laws.ANY_TIME))
    return out


def _can_visit_keytown(st: State, seat: int) -> bool:
    total = sum(st.cubes[seat])
    if total >= LAW_PRICE and any(st.spaces):
        return True
    store = st.store
    if total >= TRADER_PRICE and (store[0] or store[1] or store[2] or store[3] or store[4]):
        return True
    hand = st.hands[seat]
    if 15 in hand or 16 in hand:
        return bool(keytown_choices(st, seat))
    craftsmen = st.craftsmen
    return (
        (total >= CRAFT_PRICE[WHITE] and craftsmen[0] + store[WHITE] > 0)
        or (total >= CRAFT_PRICE[PURPLE] and craftsmen[1] + store[PURPLE] > 0)
        or (total >= CRAFT_PRICE[YELLOW] and craftsmen[2] + store[YELLOW] > 0)
    )


def house_choices(st: State, seat: int) -> list[Choice]:
    """The cottages of ``seat`` on the board that are not houses yet (A2)."""
    return [
        {"number": i + 1}
        for i, pos in enumerate(st.cottage_pos[seat])
        if pos is not None and not st.house[seat][i]
    ]


def fence_choices(st: State, seat: int) -> list[Choice]:
    """Build one of your fences (A3a, 1 brown) or remove any fence (A3b, 2 red)."""
    choices: list[Choice] = []
    if st.cubes[seat][BROWN] and st.fences_left[seat]:
        choices = [
            {"fence": "build", "gx": s[0], "gy": s[1], "fx": s[2], "fy": s[3]}
            for s in board.free_fence_slots(st)
        ]
    if st.cubes[seat][RED] >= 2:
        choices.extend(
            {"fence": "remove", "gx": s[0], "gy": s[1], "fx": s[2], "fy": s[3]} for s in sorted(st.fences)
        )
    return choices


CRAFT_VISITS: dict[tuple[int, bool], Choice] = {
    (c, discount): {"visit": "craftsman", "colour": COLOURS[c], **({"card": "L16"} if discount else {})}
    for c in CRAFTS
    for discount in (False, True)
}
TRADER: Choice = {"visit": "trader"}
GOOD_DEAL: Choice = {"visit": "trader", "card": "L15"}
LAW_MASTER: tuple[Choice, ...] = tuple({"visit": "law_master", "space": i} for i in range(8))


def keytown_choices(st: State, seat: int) -> list[Choice]:
    """Keytown: a craftsman (A4), the Trader (A5) or the Law Master (A6)."""
    total = sum(st.cubes[seat])
    hand = st.hands[seat]
    out: list[Choice] = [CRAFT_VISITS[c, False] for c in craft_colours(st, total, False)]
    if 16 in hand:
        out.extend(CRAFT_VISITS[c, True] for c in craft_colours(st, total, True))
    store = st.store
    if store[0] or store[1] or store[2] or store[3] or store[4]:
        if total >= TRADER_PRICE:
            out.append(TRADER)
        if 15 in hand and any(st.cubes[seat][c] for c in RESOURCES):
            out.append(GOOD_DEAL)  # the Trader takes "un cube ressource" (L15), never a craft cube
    if total >= LAW_PRICE:
        out.extend(LAW_MASTER[i] for i, card in enumerate(st.spaces) if card)
    return out


def craft_colours(st: State, total: int, discount: bool) -> list[int]:
    """Craft cubes a seat holding ``total`` cubes can buy now: at the craftsman or in the store,
    and affordable (A4); with Craftsman's Discount (L16) only glass and gold, two cubes cheaper."""
    out: list[int] = []
    for i, c in enumerate(CRAFTS):
        if st.craftsmen[i] + st.store[c] == 0:
            continue
        if discount:
            if c in (PURPLE, YELLOW) and total >= CRAFT_PRICE[c] - CRAFT_DISCOUNT:
                out.append(c)
        elif total >= CRAFT_PRICE[c]:
            out.append(c)
    return out


def replacement_choices(st: State) -> list[Choice]:
    """Where a fenced-out cottage may go (Q2)."""
    return [{"x": x, "y": y} for x, y in board.replacement_gaps(st)]


# -- paying cubes of any colour (P3-5) ---------------------------------------------------------
MULTISET_LIMIT = 4
"""Payments up to this many cubes are chosen as one set; larger ones colour by colour."""


def _all_sets(n: int) -> list[tuple[int, int, Choice]]:
    """Every set of ``n`` cubes over the eight colours, in the order of
    ``combinations_with_replacement``: its counts packed four bits a colour, its colours as a
    bit mask, and its choice."""
    out: list[tuple[int, int, Choice]] = []
    for combo in combinations_with_replacement(range(8), n):
        counts: dict[int, int] = {}
        for c in combo:
            counts[c] = counts.get(c, 0) + 1
        packed = sum(k << (4 * c) for c, k in counts.items())
        mask = sum(1 << c for c in counts)
        out.append((packed, mask, {"cubes": {COLOURS[c]: k for c, k in counts.items()}}))
    return out


_ALL_SETS = [_all_sets(n) for n in range(MULTISET_LIMIT + 1)]
_GUARDS = sum(8 << (4 * c) for c in range(8))
_BY_COLOURS: dict[tuple[int, int], list[tuple[int, Choice]]] = {}
_PAY_CACHE: dict[tuple[int, int], list[Choice]] = {}


def payment_sets(have: list[int], n: int) -> list[Choice]:
    """Every set of ``n`` cubes out of ``have`` (counts by colour), as choices, in the order of
    ``combinations_with_replacement`` over the held colours; ``n`` is at most four. A set fits
    when no packed colour field borrows from its guard bit. Lists are memoised on the capped
    holdings, the sets using only given colours on those colours; the choice objects are shared."""
    packed = _GUARDS
    colours = 0
    for c in range(8):
        h = have[c]
        if h:
            packed += (h if h < n else n) << (4 * c)
            colours |= 1 << c
    key = (packed, n)
    found = _PAY_CACHE.get(key)
    if found is None:
        candidates = _BY_COLOURS.get((colours, n))
        if candidates is None:
            candidates = _BY_COLOURS[(colours, n)] = [
                (need, choice) for need, mask, choice in _ALL_SETS[n] if mask & colours == mask
            ]
        guards = _GUARDS
        found = [choice for need, choice in candidates if (packed - need) & guards == guards]
        if len(_PAY_CACHE) > 100_000:
            _PAY_CACHE.clear()
        _PAY_CACHE[key] = found
    return found


def colour_count_choices(colour: int, low: int, high: int) -> list[Choice]:
    """How many cubes of ``colour`` to pay, from ``low`` to ``high``."""
    return [{"colour": COLOURS[colour], "count": k} for k in range(low, high + 1)]


# -- phase 5: the auction ----------------------------------------------------------------------
_BIDS: list[Choice] = [{"bid": n} for n in range(64)]
SEAT_CHOICES: list[Choice] = [{"seat": s} for s in range(8)]


def bid_choices(total: int, high: int, starter: bool) -> list[Choice]:
    """Pass (0), or: for the start player, match the high bid; for the others, outbid it. A
    bidder must hold the cubes (Q10)."""
    choices: list[Choice] = [_bid(0)]
    if starter:
        if high > 0 and total >= high:
            choices.append(_bid(high))
    else:
        choices.extend(_bid(n) for n in range(high + 1, total + 1))
    return choices


def _bid(n: int) -> Choice:
    return _BIDS[n] if n < len(_BIDS) else {"bid": n}


def start_player_choices(st: State) -> list[Choice]:
    return SEAT_CHOICES[: st.players]
