"""check_invariants: silent on every state of real games, and it names what a corruption broke."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from domain.engine import JSON
from domain.games.carcassonne import ENGINE as E
from domain.games.carcassonne.board import find
from domain.games.carcassonne.state import FOLLOWER, MAYOR, NO_CORNER, NO_TILE, Figure, State, square_of
from domain.games.carcassonne.tiles import CITY, FIELD, TYPE_BY_ID, quarter_turns


def played(players: int = 3, steps: int = 90, seed: int = 5, **options: JSON) -> State:
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
def test_every_state_of_random_games_keeps_every_invariant(players: int, options: dict[str, JSON]) -> None:
    for seed in range(2):
        st, _ = E.setup(players, E.meta.resolve_options(options), random.Random(seed))
        rng = random.Random(seed)
        assert E.check_invariants(st) == []
        while (decision := E.decision(st)) is not None:
            E.apply(st, {s: rng.choice(E.legal_choices(st, s)) for s in decision.seats})
            assert E.check_invariants(st) == [], (st.phase, st.turn)


def _take_a_follower(st: State) -> None:
    st.supply[0][FOLLOWER] -= 1


def _score_without_breakdown(st: State) -> None:
    st.scores[1] += 3


def _negative_score(st: State) -> None:
    st.scores[0] = -2
    st.breakdown[0] = {k: 0 for k in st.breakdown[0]} | {"roads": -2}


def _lose_a_tile(st: State) -> None:
    st.pile.pop()


def _add_a_tile(st: State) -> None:
    st.pile.append(TYPE_BY_ID["BA/Cccc+"])


def _turn_a_tile(st: State) -> None:
    idx = next(i for i in range(1, len(st.oriented_tiles)) if quarter_turns(st.oriented_tiles[i]) == 0)
    st.oriented_tiles[idx] += 1


def _merge_two_features(st: State) -> None:
    roots = [g for g in range(len(st.parent)) if st.parent[g] == g and st.segment_kinds[g] == CITY]
    a, b = roots[0], roots[1]
    st.parent[b] = a
    st.size[a] += st.size[b]


def _open_a_city_edge(st: State) -> None:
    root = next(g for g in range(len(st.parent)) if st.parent[g] == g and st.segment_kinds[g] == CITY)
    st.open_edges[root] += 1


def _mayor_into_a_field(st: State) -> None:
    idx = len(st.oriented_tiles) - 1
    base = st.first_segments[idx]
    local = next(k for k in range(len(st.parent) - base) if st.segment_kinds[base + k] == FIELD)
    fid = st.next_figure_id
    st.next_figure_id += 1
    st.figures[fid] = Figure(0, MAYOR, idx, local, NO_CORNER)
    st.feature_figures[find(st.parent, base + local)].append(fid)
    st.supply[0][MAYOR] -= 1


def _follower_off_its_feature(st: State) -> None:
    fid = next(iter(st.figures))
    fig = st.figures[fid]
    st.feature_figures[find(st.parent, st.first_segments[fig.tile] + fig.segment)].remove(fid)


def _tile_on_an_occupied_square(st: State) -> None:
    st.tile_squares.append(square_of(0, 0))
    st.oriented_tiles.append(st.oriented_tiles[0])
    st.first_segments.append(len(st.parent))


def _frontier_not_updated(st: State) -> None:
    st.frontier[st.tile_squares[-1]] = 255


def _placing_without_a_tile(st: State) -> None:
    st.phase, st.drawn_tile = "place", NO_TILE


def _figure_on_a_missing_tile(st: State) -> None:
    st.figures[999] = Figure(0, FOLLOWER, 10_000, 0, NO_CORNER)


CORRUPTIONS: list[tuple[Callable[[State], None], str]] = [
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
    corrupt: Callable[[State], None], expected: str
) -> None:
    st = played()
    assert E.check_invariants(st) == []
    corrupt(st)
    problems = E.check_invariants(st)
    assert problems, "the corruption went unnoticed"
    assert any(expected in p for p in problems), problems
