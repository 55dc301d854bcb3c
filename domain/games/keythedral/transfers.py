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


_PAY_CACHE: dict[tuple[int, ...], list[Choice]] = {}


def payment_sets(have: list[int], n: int) -> list[Choice]:
    """Every set of ``n`` cubes out of ``have`` (counts by colour), as choices; memoised on the
    holdings capped at ``n`` (no set holds more than ``n`` of a colour)."""
    have = [h if h < n else n for h in have]
    key = (*have, n)
    found = _PAY_CACHE.get(key)
    if found is not None:
        return found
    found = []
    for combo in combinations_with_replacement([c for c in range(8) if have[c]], n):
        counts: dict[int, int] = {}
        for c in combo:
            counts[c] = counts.get(c, 0) + 1
            if counts[c] > have[c]:
                break
        else:
            found.append({"cubes": {COLOURS[c]: k for c, k in counts.items()}})
    if len(_PAY_CACHE) > 20_000:
        _PAY_CACHE.clear()
    _PAY_CACHE[key] = found
    return found


def _pay_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Pay ``n`` cubes of any colours (P3-5). Up to four cubes the seat picks the whole set at
    once; a larger sum (a bid) is settled colour by colour, choosing how many of each."""
    seat = fr["seat"]
    first = fr.get("from", 0)
    have = [k if c >= first else 0 for c, k in enumerate(st.cubes[seat])]
    n = fr["n"]
    if n > 0:
        held = [c for c in range(8) if have[c]]
        if len(held) == 1 or sum(have) <= n:
            _pay_cubes(st, fr, [min(h, n) if len(held) == 1 else h for h in have])
        elif n <= MULTISET_LIMIT:
            return ask(seat, "pay", payment_sets(have, n), amount=n)
        else:
            c = held[0]
            low = max(0, n - (sum(have) - have[c]))
            high = min(have[c], n)
            return ask(seat, "pay_colour", [{"colour": COLOURS[c], "count": k}
                                            for k in range(low, high + 1)], remaining=n)
        return None
    st.stack.pop()
    to = fr["to"]
    events.append(Event("cubes_paid", {"seat": seat, "to": "store" if to < 0 else to,
                                       "cubes": cube_dict(fr["paid"])}))
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
            return ask(fr["seat"], "take_cube", [{"colour": COLOURS[c]} for c in colours],
                       remaining=fr["n"])
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
    return ask(fr["seat"], "replace_cottage", [{"x": x, "y": y} for x, y in gaps],
               number=fr["number"])


def _replace_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    number = fr["number"]
    st.off_board.remove([seat, number])
    cell = (int(choice["x"]), int(choice["y"]))
    board.place_cottage(st, seat, number, cell)
    events.append(Event("cottage_replaced", {"seat": seat, "number": number, "x": cell[0],
                                             "y": cell[1], "house": st.house[seat][number - 1]}))


frame_type("replace", _replace_step, _replace_answer)
