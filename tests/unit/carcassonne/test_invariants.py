"""check_invariants: silent on every state of real games, and it names what a corruption broke."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from domain.games.carcassonne import ENGINE as E
from domain.games.carcassonne.board import find
from domain.games.carcassonne.state import FOLLOWER, MAYOR, CarcState, pos_of
from domain.games.carcassonne.tiles import CITY, FIELD, TYPE_BY_ID


def played(players: int = 3, steps: int = 90, seed: int = 5, **options: object) -> CarcState:
    st, _ = E.setup(players, E.meta.resolve_options(options), random.Random(seed))
    rng = random.Random(seed)
    for _ in range(steps):
        decision = E.decision(st)
        assert decision is not None
        E.apply(st, {s: rng.choice(E.legal_choices(st, s)) for s in decision.seats})
    return st


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (5, {"wagon_move": "classic", "abbey_end_round": "optional"}), (4, {"abbey_and_mayor": False})],
)
def test_every_state_of_random_games_keeps_every_invariant(players: int, options: dict[str, object]) -> None:
    for seed in range(2):
        st, _ = E.setup(players, E.meta.resolve_options(options), random.Random(seed))
        rng = random.Random(seed)
        assert E.check_invariants(st) == []
        while (decision := E.decision(st)) is not None:
            E.apply(st, {s: rng.choice(E.legal_choices(st, s)) for s in decision.seats})
            assert E.check_invariants(st) == [], (st.phase, st.turn)


def _take_a_follower(st: CarcState) -> None:
    st.supply[0][FOLLOWER] -= 1


def _score_without_breakdown(st: CarcState) -> None:
    st.scores[1] += 3


def _negative_score(st: CarcState) -> None:
    st.scores[0] = -2
    st.breakdown[0] = {k: 0 for k in st.breakdown[0]} | {"roads": -2}


def _lose_a_tile(st: CarcState) -> None:
    st.pile.pop()


def _add_a_tile(st: CarcState) -> None:
    st.pile.append(TYPE_BY_ID["BA/Cccc+"])


def _turn_a_tile(st: CarcState) -> None:
    idx = next(i for i in range(1, len(st.t_ot)) if st.t_ot[i] & 3 == 0)
    st.t_ot[idx] += 1


def _merge_two_features(st: CarcState) -> None:
    roots = [g for g in range(len(st.parent)) if st.parent[g] == g and st.kind[g] == CITY]
    a, b = roots[0], roots[1]
    st.parent[b] = a
    st.size[a] += st.size[b]


def _open_a_city_edge(st: CarcState) -> None:
    root = next(g for g in range(len(st.parent)) if st.parent[g] == g and st.kind[g] == CITY)
    st.opens[root] += 1


def _mayor_into_a_field(st: CarcState) -> None:
    idx = len(st.t_ot) - 1
    base = st.tbase[idx]
    local = next(k for k in range(len(st.parent) - base) if st.kind[base + k] == FIELD)
    fid = st.next_fid
    st.next_fid += 1
    st.figures[fid] = [0, MAYOR, idx, local, -1]
    st.figs[find(st.parent, base + local)].append(fid)
    st.supply[0][MAYOR] -= 1


def _follower_off_its_feature(st: CarcState) -> None:
    fid = next(iter(st.figures))
    fig = st.figures[fid]
    st.figs[find(st.parent, st.tbase[fig[2]] + fig[3])].remove(fid)


def _tile_on_an_occupied_square(st: CarcState) -> None:
    st.t_pos.append(pos_of(0, 0))
    st.t_ot.append(st.t_ot[0])
    st.tbase.append(len(st.parent))


def _frontier_not_updated(st: CarcState) -> None:
    st.frontier[st.t_pos[-1]] = 255


def _placing_without_a_tile(st: CarcState) -> None:
    st.phase, st.tile = "place", -1


def _figure_on_a_missing_tile(st: CarcState) -> None:
    st.figures[999] = [0, FOLLOWER, 10_000, 0, -1]


CORRUPTIONS: list[tuple[Callable[[CarcState], None], str]] = [
    (_take_a_follower, "seat 0 owns"),
    (_score_without_breakdown, "breakdown sums"),
    (_negative_score, "negative score"),
    (_lose_a_tile, "accounted for"),
    (_add_a_tile, "BA/Cccc+"),
    (_turn_a_tile, "do not match"),
    (_merge_two_features, "share one union-find root"),
    (_open_a_city_edge, "open edges"),
    (_mayor_into_a_field, "stands on a feature of kind"),
    (_follower_off_its_feature, "not listed exactly once"),
    (_tile_on_an_occupied_square, "two on one square"),
    (_frontier_not_updated, "already covered"),
    (_placing_without_a_tile, "none placeable is drawn"),
    (_figure_on_a_missing_tile, "malformed"),
]


@pytest.mark.parametrize(("corrupt", "expected"), CORRUPTIONS, ids=lambda c: getattr(c, "__name__", ""))
def test_a_corrupted_state_yields_a_message_naming_the_broken_invariant(
    corrupt: Callable[[CarcState], None], expected: str
) -> None:
    st = played()
    assert E.check_invariants(st) == []
    corrupt(st)
    problems = E.check_invariants(st)
    assert problems, "the corruption went unnoticed"
    assert any(expected in p for p in problems), problems
