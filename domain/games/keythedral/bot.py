"""Search hooks for the greedy bot: a determinizer that resamples what a seat cannot see, and a
heuristic on the game's own final scoring.

Hidden from a seat: the colours behind the other screens (each screen's cube count is kept, and
the colours held by all the others together are public: the store and the craftsmen are open),
the other seats' law cards (their number is public) with the face-down new-law cards and the
deck, the face-down building tiles and the unused piles, the order of the field stack, and the
seed of later Change-of-Style draws. ``determinize`` redraws all of these from the public pools.

``evaluate`` counts final points (tiles plus cubes) and adds what a seat has under way: the
purchase, house, craft cube or Trader cube it has asked for but not yet received (its pending
frames), workers on the fields waiting for the harvest, houses, law cards, and the promise of
the best buyable tile. It returns the seat's worth minus the best opponent's.
"""

from __future__ import annotations

import random

from domain.bots.hooks import SearchHooks
from domain.games.keythedral import market
from domain.games.keythedral.data import (
    BLACK,
    BROWN,
    CRAFT_DISCOUNT,
    CRAFT_PRICE,
    CRAFTS,
    CUBE_POINTS,
    LAW_PRICE,
    RESOURCES,
    TILES,
    TRADER_PRICE,
)
from domain.games.keythedral.flow import STEPS, advance, rebuild_pending
from domain.games.keythedral.state import Frame, Pending, State, clone_state

# Heuristic weights, in points. A house sends a second worker each round: a constant worth (one
# that fell as tiles run out would make every purchase look like a loss); a worker on a field is
# a cube at the next harvest; the promise is the gain of the best buyable tile, discounted per
# action still needed to afford it.
HOUSE_WEIGHT = 2.0
WORKER_WEIGHT = 0.8
LAW_CARD_WEIGHT = 0.6
PROMISE_WEIGHT = 0.9
PROMISE_DISCOUNT = 0.7
NEEDED_CUBE_BONUS = 0.6
# Resource cubes hoarded beyond what the buyable tiles ask for (and a couple of spares) count
# for less than their final point: spending them on the Trader or a craftsman keeps the cubes
# flowing back to the store, where a table of hoarders would starve every harvest.
KEPT_SPARES = 2
SURPLUS_WEIGHT = 0.5


class KeythedralSearchHooks(SearchHooks[State]):
    """``determinize``, ``evaluate`` and ``copy`` for ``domain.bots`` (the greedy and strong levels)."""

    value_scale = 4.0

    def copy(self, state: State) -> State:
        st = clone_state(state)
        rebuild_pending(st)
        return st

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy with everything hidden from ``seat`` redrawn from the public pools.

        Only public facts and counts are read to do so (the colours all other screens hold
        together, each screen's cube and card count, which cards and tiles are unaccounted for),
        so two states that differ only in what ``seat`` cannot see give the same result for the
        same ``rng``.
        """
        st = clone_state(state)
        others = [o for o in range(st.players) if o != seat]
        _redraw_cubes(st, others, rng)
        _redraw_laws(st, others, rng)
        _redraw_tiles(st, rng)
        field_stack = sorted(st.field_stack)
        rng.shuffle(field_stack)
        st.field_stack = field_stack
        st.seed = rng.getrandbits(32)
        _rebuild_pending(st, state.pending)
        return st

    def evaluate(self, state: State, seat: int) -> float:
        """Projected points of ``seat`` minus those of its best opponent."""
        if state.over:
            points = [_final_points(state, s) for s in range(state.players)]
        else:
            table = _Table(state)
            points = [_worth(state, s, table) for s in range(state.players)]
        return points[seat] - max(p for s, p in enumerate(points) if s != seat)


TILE_POINTS = tuple(sum(n * p for n, p in zip(t.cost, CUBE_POINTS, strict=True)) for t in TILES)
TILE_COSTS = tuple(tuple((c, n) for c, n in enumerate(t.cost) if n) for t in TILES)


# -- determinize ---------------------------------------------------------------------------
def _redraw_cubes(st: State, others: list[int], rng: random.Random) -> None:
    pool = [c for c in range(8) for _ in range(sum(st.cubes[o][c] for o in others))]
    rng.shuffle(pool)
    i = 0
    for o in others:
        n = sum(st.cubes[o])
        counts = [0] * 8
        for c in pool[i : i + n]:
            counts[c] += 1
        i += n
        st.cubes[o] = counts


def _redraw_laws(st: State, others: list[int], rng: random.Random) -> None:
    hidden_spaces = [] if st.law_cards_face_up else [i for i, c in enumerate(st.spaces) if c]
    pool = sorted(st.deck + [st.spaces[i] for i in hidden_spaces] + [c for o in others for c in st.hands[o]])
    rng.shuffle(pool)
    for o in others:
        n = len(st.hands[o])
        st.hands[o] = pool[:n]
        del pool[:n]
    for i in hidden_spaces:
        st.spaces[i] = pool.pop()
    st.deck = pool


def _redraw_tiles(st: State, rng: random.Random) -> None:
    for r, row in enumerate(st.rows):
        if st.face_up(r):
            continue
        pool = sorted(row + st.pools[r])
        rng.shuffle(pool)
        st.rows[r] = pool[: len(row)]
        st.pools[r] = sorted(pool[len(row) :])


def _rebuild_pending(st: State, original: Pending | None) -> None:
    """The decision of the redrawn state: the same one when it still stands (a seat's own
    decision always does), else the flow runs on to the next one."""
    st.pending = None
    if original is None or not st.stack or st.over:
        return
    top = st.stack[-1]
    pending = STEPS[top["t"]](st, top, [])
    if pending is not None and (len(pending.choices) >= 2 or pending.seats is not None or pending.held):
        st.pending = pending
        return
    advance(st, [])


# -- evaluate ------------------------------------------------------------------------------
def _final_points(st: State, seat: int) -> float:
    tiles = sum(TILES[t].value for t in st.bought[seat])
    cubes = sum(n * p for n, p in zip(st.cubes[seat], CUBE_POINTS, strict=True))
    return tiles + cubes + tiles * 0.001


class _Table:
    """What every seat's worth needs: the buyable tiles (with their cost by colour) and, per
    colour, the most any of them asks for."""

    __slots__ = ("buyable", "need")

    def __init__(self, st: State) -> None:
        row = next((r for r in st.rows if r), [])
        self.buyable = [(TILES[t], TILE_COSTS[t], TILE_POINTS[t]) for t in row]
        self.need = [0] * 8
        for _, cost, _ in self.buyable:
            for c, n in cost:
                if n > self.need[c]:
                    self.need[c] = n


def _cube_values(need: list[int], have: list[int]) -> list[float]:
    """What one more (or one fewer) cube of each colour is worth to a seat holding ``have``."""
    return [CUBE_POINTS[c] + (NEEDED_CUBE_BONUS if have[c] <= need[c] else 0.0) for c in range(8)]


def _pay_cheapest(have: list[int], n: int, values: list[float], first: int = 0) -> None:
    """Take the ``n`` least valuable cubes (of colours from ``first``) out of ``have``."""
    for c in sorted(range(first, 8), key=values.__getitem__):
        if n <= 0:
            return
        k = min(have[c], n)
        have[c] -= k
        n -= k


def _best_resource(st: State, values: list[float]) -> int:
    colours = [c for c in RESOURCES if st.store[c] > 0]
    return max(colours, key=values.__getitem__) if colours else -1


def _holdings(table: _Table, have: list[int]) -> float:
    """Cube points plus the promise of the best buyable tile: its gain (value less the points of
    the cubes it costs and of the Trader visits still needed), discounted per action still
    needed to afford it (a Trader visit per missing resource cube, a craftsman visit per missing
    craft cube). One step closer is worth more than the Trader's lost point, and buying is
    always worth more than the promise. Hoarded resource cubes count for less (see above)."""
    promise = 0.0
    spare = have[0] + have[1] + have[2] + have[3] + have[4] + have[5] + have[6] + have[7]
    for tile, cost, tile_points in table.buyable:
        missing_resources = 0
        actions = 0
        short_of = 0  # cubes still to find for Trader and craftsman payments
        held = 0
        for c, n in cost:
            h = have[c]
            if n > h:
                held += h if h > 0 else 0
                if c < 5:
                    missing_resources += n - h
                    short_of += TRADER_PRICE * (n - h)
                else:
                    short_of += CRAFT_PRICE[c] * (n - h)
                actions += n - h
            else:
                held += n
        if spare - held < short_of:
            actions += 2
        gain = tile.value - tile_points - missing_resources
        if gain > 0:
            value = PROMISE_WEIGHT * gain * PROMISE_DISCOUNT**actions
            if value > promise:
                promise = value
    need = table.need
    points = 0.0
    for c in range(8):
        h = have[c]
        if c < 5 and h > need[c] + KEPT_SPARES:
            kept = need[c] + KEPT_SPARES
            points += kept + SURPLUS_WEIGHT * (h - kept)
        else:
            points += h * CUBE_POINTS[c]
    return points + promise


def _worth(st: State, seat: int, table: _Table) -> float:
    """Final points so far plus what ``seat`` has under way and the promise of its position."""
    have = list(st.cubes[seat])
    values = _cube_values(table.need, have)
    extra = 0.0
    for fr in st.stack:
        if fr.get("seat") == seat:
            extra += _frame_worth(st, fr, seat, have, values, table)
    tiles = sum(TILES[t].value for t in st.bought[seat])
    houses = sum(st.house[seat])
    workers = (
        sum(values[st.fields[f]] for f, owner in st.workers.items() if owner == seat)
        if _harvest_ahead(st, seat)
        else 0.0
    )
    return (
        tiles
        + extra
        + _holdings(table, have)
        + houses * HOUSE_WEIGHT
        + WORKER_WEIGHT * workers
        + LAW_CARD_WEIGHT * len(st.hands[seat])
    )


def _harvest_ahead(st: State, seat: int) -> bool:
    """Whether the workers of ``seat`` on the fields have still to bring in their cubes."""
    if st.phase == 1:
        return True
    if st.phase != 2:
        return False
    for fr in st.stack:
        if fr["t"] == "harvest":
            return bool((seat - st.start) % st.players >= fr["j"])
    return True


def _frame_worth(
    st: State, fr: Frame, seat: int, have: list[int], values: list[float], table: _Table
) -> float:
    """Resolve a frame of ``seat``'s own that is still under way: ``have`` takes the cubes it
    moves, the result is what else it brings (a tile, a house, a law card)."""
    kind = fr["t"]
    if kind == "pay":
        _pay_cheapest(have, fr["n"], values, fr.get("from", 0))
    elif kind == "gain":
        have[fr["c"]] += 1
    elif kind == "take":
        c = _best_resource(st, values)
        if c >= 0:
            have[c] += fr["n"]
    elif kind == "buy":
        if not (fr["stopped"] or fr["vetoed"]):
            return _purchase_worth(st, fr, have, values)
    elif kind == "house":
        have[BLACK] -= 1
        have[BROWN] -= 1
        return HOUSE_WEIGHT
    elif kind == "keytown":
        return _keytown_worth(st, seat, have, values, table)
    elif kind == "fence":
        _pay_cheapest(have, 1, values)
    return 0.0


def _purchase_worth(st: State, fr: Frame, have: list[int], values: list[float]) -> float:
    tile = fr["tile"]
    if fr["price"] is not None:
        price: list[int] | tuple[int, ...] = fr["price"]
    else:
        options = [p for p in market.prices(st, tile) if market.affords(have, p)]
        if not options:
            return 0.0
        price = min(options, key=lambda p: sum(n * values[c] for c, n in enumerate(p)))
    for c, n in enumerate(price):
        have[c] -= n
    return float(TILES[tile].value)


def _keytown_worth(st: State, seat: int, have: list[int], values: list[float], table: _Table) -> float:
    """The best visit open to ``seat``, which still has to pick one; ``have`` takes it."""
    total = sum(have)
    visits: list[tuple[list[int], float]] = []
    discount = 16 in st.hands[seat]
    for i, c in enumerate(CRAFTS):
        if st.craftsmen[i] + st.store[c] == 0:
            continue
        for price, extra in ((CRAFT_PRICE[c], 0.0), (CRAFT_PRICE[c] - CRAFT_DISCOUNT, -LAW_CARD_WEIGHT)):
            if extra and (not discount or c == CRAFTS[0]):
                continue
            if total >= price:
                after = list(have)
                _pay_cheapest(after, price, values)
                after[c] += 1
                visits.append((after, extra))
    r = _best_resource(st, values)
    if r >= 0 and total >= TRADER_PRICE:
        after = list(have)
        _pay_cheapest(after, TRADER_PRICE, values)
        after[r] += 1
        visits.append((after, 0.0))
    if total >= LAW_PRICE and any(st.spaces):
        after = list(have)
        _pay_cheapest(after, LAW_PRICE, values)
        visits.append((after, LAW_CARD_WEIGHT))
    if not visits:
        return 0.0
    after, extra = max(visits, key=lambda v: _holdings(table, v[0]) + v[1])
    have[:] = after
    return extra
