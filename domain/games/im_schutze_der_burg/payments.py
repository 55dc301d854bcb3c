"""Exact building payments: every physical payment of a building value, silver as a joker.

A payment is the pieces physically spent (sand, wood, clay, stone, silver). It is legal when
the silver can be assigned kinds so that the values add up exactly and at least three kinds
appear (a silver counts as the kind it stands for). Silver assignments that spend the same
pieces are one payment. Results are cached per (value, pieces held).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from domain.games.im_schutze_der_burg.data import MIN_KINDS, RESOURCE_TOTAL, RESOURCE_VALUE

Payment = tuple[int, int, int, int, int]

_MAX_SILVER = RESOURCE_TOTAL[4]
_BUILD_VALUES = RESOURCE_VALUE[:4]


def _silver_table() -> list[list[int]]:
    """OK[k][rest]: bitmask over physical kind masks pm (0..15) that k silvers can complete.

    Bit pm is set when some assignment of k silvers sums to ``rest`` and, together with the
    physical kinds in pm, uses at least MIN_KINDS kinds.
    """
    max_rest = _MAX_SILVER * max(_BUILD_VALUES)
    table = [[0] * (max_rest + 1) for _ in range(_MAX_SILVER + 1)]
    for k in range(_MAX_SILVER + 1):
        for combo in combinations_with_replacement(range(4), k):
            total = sum(_BUILD_VALUES[i] for i in combo)
            smask = 0
            for i in combo:
                smask |= 1 << i
            bits = 0
            for pm in range(16):
                if (pm | smask).bit_count() >= MIN_KINDS:
                    bits |= 1 << pm
            table[k][total] |= bits
    return table


_OK = _silver_table()
_MASK_OK = tuple((pm.bit_count() >= MIN_KINDS) for pm in range(16))
_LO = min(_BUILD_VALUES)
_HI = max(_BUILD_VALUES)
_EMPTY: list[Payment] = []
_cache: dict[tuple[int, int, int, int, int, int], list[Payment]] = {}
_CACHE_LIMIT = 200_000


def payment_key(value: int, held: list[int]) -> tuple[int, int, int, int, int, int] | None:
    """The cache key of ``payments(value, held)``, or None when no payment can exist."""
    s_max, w_max, c_max, t_max, a_max = held[0], held[1], held[2], held[3], held[4]
    v_s, v_w, v_c, v_t = _BUILD_VALUES
    if s_max * v_s + w_max * v_w + c_max * v_c + t_max * v_t + a_max * _HI < value:
        return None
    if (s_max > 0) + (w_max > 0) + (c_max > 0) + (t_max > 0) + a_max < MIN_KINDS:
        return None
    # Pieces beyond what the value could ever use do not change the answer.
    return (
        value,
        s_max if s_max * v_s <= value else value // v_s,
        w_max if w_max * v_w <= value else value // v_w,
        c_max if c_max * v_c <= value else value // v_c,
        t_max if t_max * v_t <= value else value // v_t,
        a_max if a_max * _LO <= value else value // _LO,
    )


def payments(value: int, held: list[int]) -> list[Payment]:
    """Every legal payment of ``value`` from ``held`` pieces, in a fixed order."""
    key = payment_key(value, held)
    if key is None:
        return _EMPTY
    return payments_for(key)


def payments_for(key: tuple[int, int, int, int, int, int]) -> list[Payment]:
    found = _cache.get(key)
    if found is not None:
        return found
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    value, s_max, w_max, c_max, t_max, a_max = key
    v_s, v_w, v_c, v_t = _BUILD_VALUES
    lo_v, hi_v = _LO, _HI
    out: list[Payment] = []
    ok = _OK
    for t in range(min(t_max, value // v_t) + 1):
        after_t = value - v_t * t
        for c in range(min(c_max, after_t // v_c) + 1):
            after_c = after_t - v_c * c
            for w in range(min(w_max, after_c // v_w) + 1):
                rest = after_c - v_w * w
                base_mask = (2 if w else 0) | (4 if c else 0) | (8 if t else 0)
                for a in range(min(a_max, rest // lo_v) + 1):
                    row = ok[a]
                    # sand s leaves rem = rest - v_s * s for the silver: lo_v*a <= rem <= hi_v*a
                    s_lo = -((hi_v * a - rest) // v_s)
                    if s_lo < 0:
                        s_lo = 0
                    s_hi = (rest - lo_v * a) // v_s
                    if s_hi > s_max:
                        s_hi = s_max
                    for s in range(s_lo, s_hi + 1):
                        pm = (base_mask | 1) if s else base_mask
                        if (row[rest - v_s * s] >> pm) & 1:
                            out.append((s, w, c, t, a))
    _cache[key] = out
    return out


def cheapest(options: list[Payment]) -> int:
    """Index of the payment that spends the cheapest pieces first, as the original site did.

    Fewest silver first (the joker is kept), then as much sand as possible, then wood, then clay.
    """
    best = 0
    best_key = (99, 0, 0, 0)
    for i, (s, w, c, _t, a) in enumerate(options):
        key = (a, -s, -w, -c)
        if key < best_key:
            best_key = key
            best = i
    return best
