"""The small frames shared by several actions: paying cubes, taking cubes from the store,
taking a craft cube, and re-placing a fenced-out cottage."""

from __future__ import annotations

from itertools import combinations_with_replacement

from domain.engine import Choice, Event
from domain.games.keythedral import board
from domain.games.keythedral.core import ask, frame_type
from domain.games.keythedral.data import COLOURS, CRAFTS, RESOURCES
from domain.games.keythedral.state import Frame, Pending, State

MULTISET_LIMIT = 4
COLOUR_CHOICES: tuple[Choice, ...] = tuple({"colour": name} for name in COLOURS)


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


def _pay_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Pay ``n`` cubes of any colours (P3-5). Up to four cubes the seat picks the whole set at
    once; a larger sum (a bid) is settled colour by colour, choosing how many of each."""
    seat = fr["seat"]
    n = fr["n"]
    if n > 0:
        have = st.cubes[seat]
        first = fr.get("from", 0)
        if first:
            have = [0] * first + have[first:]
        if fr.get("resources"):
            have = [*have[:5], 0, 0, 0]  # a payment in resource cubes only (Good Deal, L15)
        held = [c for c in range(8) if have[c]]
        if not held:
            fr["n"] = 0  # nothing left to pay with (only in a determinized guess of a seat's cubes)
        elif len(held) == 1:
            c = held[0]
            counts = [0] * 8
            counts[c] = min(have[c], n)
            _pay_cubes(st, fr, counts)
        elif sum(have) <= n:
            _pay_cubes(st, fr, list(have))
        elif n <= MULTISET_LIMIT:
            return ask(seat, "pay", payment_sets(have, n), amount=n)
        else:
            c = held[0]
            low = max(0, n - (sum(have) - have[c]))
            high = min(have[c], n)
            return ask(
                seat,
                "pay_colour",
                [{"colour": COLOURS[c], "count": k} for k in range(low, high + 1)],
                remaining=n,
            )
        return None
    st.stack.pop()
    to = fr["to"]
    events.append(
        Event("cubes_paid", {"seat": seat, "to": "store" if to < 0 else to, "cubes": cube_dict(fr["paid"])})
    )
    return None


def cube_dict(counts: list[int]) -> dict[str, int]:
    return {COLOURS[c]: k for c, k in enumerate(counts) if k}


def _pay_cubes(st: State, fr: Frame, counts: list[int]) -> None:
    seat = fr["seat"]
    to = fr["to"]
    mine = st.cubes[seat]
    dest = st.store if to < 0 else st.cubes[to]
    paid = fr["paid"]
    for c, k in enumerate(counts):
        if k:
            mine[c] -= k
            dest[c] += k
            paid[c] += k
            fr["n"] -= k


def _pay_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    counts = [0] * 8
    if "cubes" in choice:
        for name, k in choice["cubes"].items():
            counts[COLOURS.index(name)] = k
    else:
        c = COLOURS.index(choice["colour"])
        counts[c] = int(choice["count"])
        fr["from"] = c + 1
    _pay_cubes(st, fr, counts)


frame_type("pay", _pay_step, _pay_answer)


def _take_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Take ``n`` resource cubes of the seat's choice from the store (the Trader)."""
    if fr["n"] > 0:
        colours = [c for c in RESOURCES if st.store[c] > 0]
        if colours:
            return ask(fr["seat"], "take_cube", [COLOUR_CHOICES[c] for c in colours], remaining=fr["n"])
    st.stack.pop()
    return None


def _take_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    c = COLOURS.index(choice["colour"])
    st.take_from_store(seat, c)
    fr["n"] -= 1
    events.append(Event("cube_taken", {"seat": seat, "colour": choice["colour"]}))


frame_type("take", _take_step, _take_answer)


def _gain_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Take a craft cube from its craftsman, who refills from the store when empty (A4)."""
    st.stack.pop()
    c = fr["c"]
    k = CRAFTS.index(c)
    if st.craftsmen[k] == 0:
        st.craftsmen[k] = st.store[c]
        st.store[c] = 0
    st.craftsmen[k] -= 1
    st.cubes[fr["seat"]][c] += 1
    events.append(Event("craft_bought", {"seat": fr["seat"], "colour": COLOURS[c]}))
    return None


frame_type("gain", _gain_step)


def _replace_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    gaps = board.replacement_gaps(st)
    if not gaps or [fr["seat"], fr["number"]] not in st.off_board:
        st.stack.pop()
        return None
    return ask(fr["seat"], "replace_cottage", [{"x": x, "y": y} for x, y in gaps], number=fr["number"])


def _replace_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    number = fr["number"]
    st.off_board.remove([seat, number])
    cell = (int(choice["x"]), int(choice["y"]))
    board.place_cottage(st, seat, number, cell)
    events.append(
        Event(
            "cottage_replaced",
            {"seat": seat, "number": number, "x": cell[0], "y": cell[1], "house": st.house[seat][number - 1]},
        )
    )


frame_type("replace", _replace_step, _replace_answer)
