"""The search that splits ranked players into tables: each table is built around the best ranked
player left, with companions from its own score group first, then the nearest below; a group
whose players have met before is allowed only when no grouping without repeats exists (the fewest
repeats then), and the first grouping found in that order of preference is the answer.

Within a score group of ``g`` players the ideal companions of its top player sit at ``g·j/size``
(j = 1 … size−1) positions below it: at tables of two the top half meets the bottom half in order
(S1 against S2, the Dutch system's first candidate), then transpositions down the bottom half, then
exchanges with the top half (later ones first), then players floated from the next score groups."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

SEARCH_WORK = 20_000
"""Companion sets scored per search (per allowed number of repeats, per set of byes) before it
gives up; ``pair_ranked`` then allows one more repeat, and past ``PAIRING_WORK`` takes the first
grouping in order of preference whatever it repeats, so a round is never slow to pair."""
PAIRING_WORK = 100_000
POOL_COMBINATIONS = 4_000
"""Companion sets scored per table at most (large fields look at the nearest players only)."""

Met = frozenset[frozenset[str]]


def group_tables(
    ranked: Sequence[str],
    sizes: Sequence[int],
    met: Met,
    points: dict[str, Fraction],
    allowed_repeats: int,
    spent: list[int],
) -> list[tuple[str, ...]] | None:
    """Tables (each best ranked first) with at most ``allowed_repeats`` pairs who met before, or
    None when there is none (or the search gave up). ``spent`` counts the work done, across
    calls."""
    budget = [SEARCH_WORK]

    def solve(left: tuple[str, ...], sizes_left: Sequence[int], repeats: int) -> list[tuple[str, ...]] | None:
        if not left:
            return []
        if budget[0] < 0:
            return None
        top, others = left[0], left[1:]
        candidates = _candidates(top, others, sizes_left[0] - 1, points)
        budget[0] -= len(candidates)
        spent[0] += len(candidates)
        for companions in candidates:
            table = (top, *companions)
            cost = sum(1 for a, b in combinations(table, 2) if frozenset((a, b)) in met)
            if cost > repeats:
                continue
            rest = solve(tuple(p for p in others if p not in companions), sizes_left[1:], repeats - cost)
            if rest is not None:
                return [table, *rest]
            if budget[0] < 0:
                return None
        return None

    return solve(tuple(ranked), sizes, allowed_repeats)


def least_repeats_greedy(
    ranked: Sequence[str], sizes: Sequence[int], met: Met, points: dict[str, Fraction]
) -> list[tuple[str, ...]]:
    """The fallback once the search has spent its work: table after table, the companions of the
    best ranked player left that repeat the fewest meetings (the most preferred among equals)."""
    left = tuple(ranked)
    tables: list[tuple[str, ...]] = []
    for size in sizes:
        top, others = left[0], left[1:]
        companions = min(
            _candidates(top, others, size - 1, points),
            key=lambda c: count_repeats([(top, *c)], met),
        )
        tables.append((top, *companions))
        left = tuple(p for p in others if p not in companions)
    return tables


def count_repeats(tables: Sequence[Sequence[str]], met: Met) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if frozenset((a, b)) in met)


def _candidates(
    top: str, others: Sequence[str], wanted: int, points: dict[str, Fraction]
) -> list[tuple[str, ...]]:
    """Companion sets for ``top`` in order of preference."""
    group = 1 + sum(1 for p in others if points.get(p, Fraction(0)) == points.get(top, Fraction(0)))
    size = wanted + 1
    ideal = [max(j, j * group // size) for j in range(1, size)]

    def distance(position: int, target: int) -> int:
        return position - target if position >= target else target - position + group

    pool = list(range(1, len(others) + 1))
    while len(pool) > wanted and _combinations_count(len(pool), wanted) > POOL_COMBINATIONS:
        pool.sort(key=lambda q: min(distance(q, t) for t in ideal))
        pool = sorted(pool[:-1])
    scored = []
    for chosen in combinations(pool, wanted):
        outside = sum(1 for q in chosen if q >= group)
        spread = sum(distance(q, t) for q, t in zip(chosen, ideal, strict=True))
        scored.append(((outside, spread, chosen), chosen))
    scored.sort()
    return [tuple(others[q - 1] for q in chosen) for _, chosen in scored]


def _combinations_count(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result
