"""Building in steps: first a building, then its payment.

Listing every (building, exact payment) pair in one decision gave 701 choices in ordinary play
and 17,533 (1.8 MB) with a hoard of pieces: nobody can choose among them and a phone should
not download them. So a build takes two decisions, like the original site (click a building,
then adjust the pieces of a preselected cheapest payment):

1. ``build``: every unbuilt building type that has an exact payment, each saying what it earns
   (``{"vp": n}`` for the Stonemason, half the printed VP for a Worker, or
   ``{"thalers_per_piece": 1}`` for the Bricklayer), or ``done``.
2. ``build_payment``: every exact payment of that building, the cheapest first (and repeated in
   the decision's data), or ``back`` to choose another building. When a building has more than
   ``PAYMENTS_LISTED_MAX`` payments (a hoard; value 30 with every piece allows 9,125), the step
   first fixes how many pieces of one kind to spend (``fix``), kind by kind in
   ``NARROW_ORDER``, until few enough remain. The cheapest payment that fits what is fixed so
   far stays listed first at every step, so taking it is always one choice.

Every legal payment is still reachable and every listed choice is posted back verbatim.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Choice
from domain.games.im_schutze_der_burg.choices import DONE, available_types
from domain.games.im_schutze_der_burg.data import (
    BRICKLAYER,
    BRICKLAYER_PER_PIECE,
    BUILDABLE_TYPES,
    BUILDING_TYPES,
    CLAY,
    KINDS,
    RESOURCE_VALUE,
    SILVER,
    STONE,
    STONEMASON,
    WOOD,
)
from domain.games.im_schutze_der_burg.payments import Payment, cheapest, payment_key, payments, payments_for
from domain.games.im_schutze_der_burg.state import NO_BUILDING, State

PAYMENTS_LISTED_MAX = 100
"""A payment list longer than this is narrowed first. Ordinary holdings stay below it (a house
has at most 20 payments, a Palace about 100 with ten pieces of each kind)."""

NARROW_ORDER = (SILVER, STONE, CLAY, WOOD)
"""Kinds fixed one at a time when narrowing: the joker first (it multiplies the payments), then
the dearest pieces. Once all four are fixed the sand, and so the payment, is determined."""

BACK: Choice = {"action": "back"}
FREE = -1  # an unfixed count in ``State.act_fixed``

_BUILDABLE_VALUES = tuple((ti, BUILDING_TYPES[ti].value) for ti in BUILDABLE_TYPES)
_MIN_VALUE = min(value for _ti, value in _BUILDABLE_VALUES)
# What each piece can be worth in a payment (silver: as the dearest kind).
_PIECE_VALUE = (*RESOURCE_VALUE[:4], max(RESOURCE_VALUE[:4]))
_CACHE_LIMIT = 50_000
_payable_cache: dict[tuple[int, ...], tuple[int, ...]] = {}
_build_choice_cache: dict[tuple[int, int], Choice] = {}
_payment_choice_cache: dict[tuple[int, ...], list[Choice]] = {}


def earns(card: int, building: int) -> dict[str, int]:
    """What building ``building`` with ``card`` earns: full VP, half VP, or thalers per piece."""
    if card == BRICKLAYER:
        return {"thalers_per_piece": BRICKLAYER_PER_PIECE}
    vp = BUILDING_TYPES[building].vp
    return {"vp": vp if card == STONEMASON else vp // 2}


def building_choices(st: State, seat: int, card: int) -> list[Choice]:
    """Every unbuilt building type with at least one exact payment, then ``done``; empty if none.

    The choice dicts are shared between calls: callers must not mutate them.
    """
    held = st.res[seat]
    if sum(n * v for n, v in zip(held, _PIECE_VALUE, strict=True)) < _MIN_VALUE:
        return []
    out = [_build_choice(card, ti) for ti in _payable(available_types(st), held)]
    if out:
        out.append(DONE)
    return out


def _payable(types: int, held: list[int]) -> tuple[int, ...]:
    """The building types among ``types`` that ``held`` can pay exactly (cached)."""
    key = (types, *held)
    found = _payable_cache.get(key)
    if found is not None:
        return found
    out = []
    for ti, value in _BUILDABLE_VALUES:
        if types >> ti & 1:
            pkey = payment_key(value, held)
            if pkey is not None and payments_for(pkey):
                out.append(ti)
    if len(_payable_cache) >= _CACHE_LIMIT:
        _payable_cache.clear()
    _payable_cache[key] = result = tuple(out)
    return result


def _build_choice(card: int, building: int) -> Choice:
    key = (card, building)
    found = _build_choice_cache.get(key)
    if found is None:
        found = {"action": "build", "building": BUILDING_TYPES[building].id, "earns": earns(card, building)}
        _build_choice_cache[key] = found
    return found


def fixed_counts(st: State) -> list[int]:
    """Pieces per kind fixed so far for the chosen building (``FREE`` where not fixed)."""
    return st.act_fixed if st.act_fixed else [FREE] * 5


def completions(st: State, seat: int) -> list[Payment]:
    """The exact payments of the chosen building that agree with every count fixed so far."""
    value = BUILDING_TYPES[st.act_building].value
    options = payments(value, st.res[seat])
    fixed = [(k, n) for k, n in enumerate(fixed_counts(st)) if n != FREE]
    if not fixed:
        return options
    return [p for p in options if all(p[k] == n for k, n in fixed)]


def pay_choice(payment: Payment) -> Choice:
    return {"action": "pay", **dict(zip(KINDS, payment, strict=True))}


def next_kind_to_fix(st: State, options: list[Payment]) -> int | None:
    """The kind to narrow on next, or None when the payments can be listed in full."""
    if len(options) <= PAYMENTS_LISTED_MAX:
        return None
    fixed = fixed_counts(st)
    for k in NARROW_ORDER:
        if fixed[k] == FREE and len({p[k] for p in options}) > 1:
            return k
    return None


def payment_choices(st: State, seat: int) -> list[Choice]:
    """The ``build_payment`` choices: the cheapest payment first, then the other payments (or,
    when there are too many, a count to fix for the next kind), then ``back``.

    Cached per (payments of the building, counts fixed): callers must not mutate the result.
    """
    pkey = payment_key(BUILDING_TYPES[st.act_building].value, st.res[seat])
    assert pkey is not None, "a building is chosen only when it can be paid"
    key = (*pkey, *fixed_counts(st))
    found = _payment_choice_cache.get(key)
    if found is None:
        found = _payment_choices(st, seat)
        if len(_payment_choice_cache) >= _CACHE_LIMIT:
            _payment_choice_cache.clear()
        _payment_choice_cache[key] = found
    return found


def _payment_choices(st: State, seat: int) -> list[Choice]:
    options = completions(st, seat)
    best = options[cheapest(options)]
    out = [pay_choice(best)]
    kind = next_kind_to_fix(st, options)
    if kind is None:
        out += [pay_choice(p) for p in options if p != best]
    else:
        counts = sorted({p[kind] for p in options})
        out += [{"action": "fix", "resource": KINDS[kind], "count": n} for n in counts]
    out.append(BACK)
    return out


def choose_building(st: State, building: int) -> None:
    st.act_building = building
    st.act_fixed = []


def fix_count(st: State, kind: int, count: int) -> None:
    fixed = list(fixed_counts(st))
    fixed[kind] = count
    st.act_fixed = fixed


def clear_building(st: State) -> None:
    st.act_building = NO_BUILDING
    st.act_fixed = []


def payment_data(st: State, seat: int, card: int, first: Choice) -> dict[str, Any]:
    """Public context of a ``build_payment`` decision: the building, what it earns, what is
    fixed so far, and the cheapest payment (the first choice, repeated here by name)."""
    fixed = fixed_counts(st)
    return {
        "building": BUILDING_TYPES[st.act_building].id,
        "earns": earns(card, st.act_building),
        "fixed": {KINDS[k]: fixed[k] for k in NARROW_ORDER if fixed[k] != FREE},
        "payments": len(completions(st, seat)),
        "cheapest": dict(first),
    }
