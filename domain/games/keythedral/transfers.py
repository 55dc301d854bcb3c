"""The small frames shared by several actions: paying cubes, taking cubes from the store,
taking a craft cube, and re-placing a fenced-out cottage."""

from __future__ import annotations

from domain.engine import Choice, Event
from domain.games.keythedral import board, choices, effects
from domain.games.keythedral.data import COLOURS
from domain.games.keythedral.flow import ask, frame_type
from domain.games.keythedral.market import cube_dict
from domain.games.keythedral.state import Frame, Pending, State


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
        elif n <= choices.MULTISET_LIMIT:
            return ask(seat, "pay", choices.payment_sets(have, n), amount=n)
        else:
            c = held[0]
            low = max(0, n - (sum(have) - have[c]))
            high = min(have[c], n)
            return ask(seat, "pay_colour", choices.colour_count_choices(c, low, high), remaining=n)
        return None
    st.stack.pop()
    to = fr["to"]
    events.append(
        Event("cubes_paid", {"seat": seat, "to": "store" if to < 0 else to, "cubes": cube_dict(fr["paid"])})
    )
    return None


def _pay_cubes(st: State, fr: Frame, counts: list[int]) -> None:
    """Pay ``counts`` and keep the frame's tally: what is paid so far, what is still due."""
    effects.pay_cubes(st, fr["seat"], fr["to"], counts)
    paid = fr["paid"]
    for c, k in enumerate(counts):
        if k:
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
        listed = choices.store_colour_choices(st)
        if listed:
            return ask(fr["seat"], "take_cube", listed, remaining=fr["n"])
    st.stack.pop()
    return None


def _take_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    effects.take_cube(st, seat, COLOURS.index(choice["colour"]), events)
    fr["n"] -= 1


frame_type("take", _take_step, _take_answer)


def _gain_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Take a craft cube from its craftsman, who refills from the store when empty (A4)."""
    st.stack.pop()
    effects.gain_craft(st, fr["seat"], fr["c"], events)
    return None


frame_type("gain", _gain_step)


def _replace_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    if not board.replacement_gaps(st) or [fr["seat"], fr["number"]] not in st.off_board:
        st.stack.pop()
        return None
    return ask(fr["seat"], "replace_cottage", choices.replacement_choices(st), number=fr["number"])


def _replace_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    effects.replace_cottage(st, seat, fr["number"], (int(choice["x"]), int(choice["y"])), events)


frame_type("replace", _replace_step, _replace_answer)
