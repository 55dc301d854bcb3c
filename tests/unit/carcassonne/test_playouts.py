"""Random playouts of whole games with the invariants checked after every step."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.engine import event_for
from domain.games.carcassonne import ENGINE as E
from domain.games.carcassonne.board import find
from domain.games.carcassonne.state import BARN, MAYOR, SUPPLY_ABBEY, WAGON, State
from domain.games.carcassonne.tiles import (
    ABBEY,
    ABBEY_OT,
    CITY,
    FIELD,
    OT_EDGES,
    OT_PORT_SEG,
    OT_SIDE_SEG,
    ROAD,
    TILE_TYPES,
    tile_type,
)

STEP = {0: -1, 1: 256, 2: 1, 3: -256}


def total_tiles(expansion: bool) -> int:
    return sum(t.count for t in TILE_TYPES if t.index != ABBEY and (expansion or t.expansion == "base"))


def check_edges(st: State) -> None:
    for pos, ot in zip(st.tile_squares, st.oriented_tiles, strict=True):
        if ot == ABBEY_OT:
            assert all(pos + STEP[s] in st.tile_at for s in range(4)), "abbey outside a hole"
            continue
        for s in range(4):
            j = st.tile_at.get(pos + STEP[s])
            if j is not None and st.oriented_tiles[j] != ABBEY_OT:
                assert OT_EDGES[ot][s] == OT_EDGES[st.oriented_tiles[j]][(s + 2) % 4]


def check_features(st: State) -> None:
    """Recompute features from scratch and compare with the incremental structure."""
    n = len(st.parent)
    comp = list(range(n))

    def root(x: int) -> int:
        while comp[x] != x:
            x = comp[x]
        return x

    open_sides = [0] * n
    for idx, (pos, ot) in enumerate(zip(st.tile_squares, st.oriented_tiles, strict=True)):
        if ot == ABBEY_OT:
            continue
        base = st.first_segments[idx]
        for s in range(4):
            j = st.tile_at.get(pos + STEP[s])
            seg = OT_SIDE_SEG[ot][s]
            if j is None:
                if seg >= 0:
                    open_sides[base + seg] += 1
                continue
            n_ot = st.oriented_tiles[j]
            if n_ot == ABBEY_OT:
                continue
            nb = st.first_segments[j]
            if seg >= 0:
                a, b = root(base + seg), root(nb + OT_SIDE_SEG[n_ot][(s + 2) % 4])
                comp[a] = b
            for p in (2 * s, 2 * s + 1):
                if OT_PORT_SEG[ot][p] >= 0:
                    a = root(base + OT_PORT_SEG[ot][p])
                    b = root(nb + OT_PORT_SEG[n_ot][((p + 4) % 8) ^ 1])
                    if a != b:
                        comp[a] = b
    groups: dict[int, list[int]] = {}
    for g in range(n):
        groups.setdefault(root(g), []).append(g)
    for members in groups.values():
        engine_roots = {find(st.parent, g) for g in members}
        assert len(engine_roots) == 1
        r = engine_roots.pop()
        assert st.size[r] == len(members)
        if st.segment_kinds[r] in (ROAD, CITY):
            assert st.open_edges[r] == sum(open_sides[g] for g in members)
            tiles = {st.tile_squares[st.segment_tiles[g]] for g in members}
            assert st.feature_squares[r] == tiles


def check_figures(st: State, expansion: bool) -> None:
    extra = 1 if expansion else 0
    for seat in range(st.players):
        on_board = [0, 0, 0, 0]
        for fig in st.figures.values():
            if fig.owner == seat:
                on_board[fig.kind] += 1
        assert [st.supply[seat][k] + on_board[k] for k in range(4)] == [7, extra, extra, extra]
    abbeys_placed = sum(1 for ot in st.oriented_tiles if ot == ABBEY_OT)
    assert abbeys_placed + sum(s[SUPPLY_ABBEY] for s in st.supply) == (st.players if expansion else 0)
    for fid, (_owner, kind, idx, local, _corner) in st.figures.items():
        feature = TILE_TYPES[tile_type(st.oriented_tiles[idx])].kinds[local]
        if kind == MAYOR:
            assert feature == CITY
        elif kind == WAGON:
            assert feature != FIELD
        elif kind == BARN:
            assert feature == FIELD
        assert fid in st.feature_figures[find(st.parent, st.first_segments[idx] + local)]


def playout(
    players: int, options: dict[str, Any], seed: int, check_every: int = 1
) -> tuple[State, list[Any]]:
    opts = E.meta.resolve_options(options)
    expansion = bool(opts["abbey_and_mayor"])
    st, events = E.setup(players, opts, random.Random(seed))
    rng = random.Random(seed + 1000)
    log: list[Any] = [[e.type, dict(e.data)] for e in events]
    previous = list(st.scores)
    steps = 0
    while (decision := E.decision(st)) is not None:
        choices = {s: rng.choice(E.legal_choices(st, s)) for s in decision.seats}
        for e in E.apply(st, choices):
            log.append([e.type, dict(e.data)])
        steps += 1
        assert all(a >= b for a, b in zip(st.scores, previous, strict=True))
        previous = list(st.scores)
        check_figures(st, expansion)
        if steps % check_every == 0:
            check_edges(st)
            check_features(st)
        assert steps < 1000
    check_edges(st)
    check_features(st)
    assert not st.pile
    land_tiles = sum(1 for ot in st.oriented_tiles if ot != ABBEY_OT)
    assert land_tiles + len(st.discarded) == total_tiles(expansion)
    outcome = E.outcome(st)
    assert outcome is not None and list(outcome.scores) == st.scores
    assert set(outcome.winners) == {s for s in range(players) if st.scores[s] == max(st.scores)}
    assert not st.wagon_queue
    return st, log


CASES = [(n, {"abbey_and_mayor": True}) for n in range(2, 7)] + [
    (n, {"abbey_and_mayor": False}) for n in range(2, 6)
]


@pytest.mark.parametrize(("players", "options"), CASES)
def test_random_games_keep_every_invariant_and_end(players: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        playout(players, options, seed * 7 + players)


VARIANTS = [
    {"wagon_move": "classic"},
    {"abbey_end_round": "optional"},
    {"abbey_end_round": "none"},
    {"farm_scoring": "v2", "tiny_city_points": 2},
    {"farm_scoring": "v1", "barn_on_barn_field": True},
    {"abbey_and_mayor": False, "farm_scoring": "v1"},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_random_games_with_every_variant_keep_every_invariant(options: dict[str, Any]) -> None:
    for seed in range(2):
        playout(4, options, 100 + seed, check_every=3)


def test_same_seed_and_choices_reproduce_the_game() -> None:
    a, log_a = playout(4, {}, 42, check_every=50)
    b, log_b = playout(4, {}, 42, check_every=50)
    assert E.dump(a) == E.dump(b)
    assert log_a == log_b


def test_dump_json_load_round_trip_mid_game_and_play_on_identically() -> None:
    opts = E.meta.resolve_options({})
    for seed in range(4):
        st, _ = E.setup(3, opts, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(60 + 17 * seed):
            d = E.decision(st)
            assert d is not None
            E.apply(st, {s: rng.choice(E.legal_choices(st, s)) for s in d.seats})
        dumped = E.dump(st)
        text = json.dumps(dumped)
        assert json.loads(text) == dumped
        loaded = E.load(json.loads(text))
        assert E.dump(loaded) == dumped
        assert E.view(loaded, 0) == E.view(st, 0)
        check_features(loaded)
        rng_a, rng_b = random.Random(seed + 5), random.Random(seed + 5)
        for state, r in ((st, rng_a), (loaded, rng_b)):
            while (d := E.decision(state)) is not None:
                E.apply(state, {s: r.choice(E.legal_choices(state, s)) for s in d.seats})
        assert E.dump(loaded) == E.dump(st)


def test_views_are_json_and_never_show_the_order_of_the_pile() -> None:
    opts = E.meta.resolve_options({})
    st, _ = E.setup(4, opts, random.Random(3))
    rng = random.Random(3)
    for step in range(120):
        d = E.decision(st)
        assert d is not None
        views = {viewer: E.view(st, viewer) for viewer in (None, 0, 1, 2, 3)}
        for view in views.values():
            json.dumps(view)
            assert "pile" not in view and view["pile_count"] == len(st.pile)
            assert view == views[None], "the board is public: every viewer sees the same"
            assert "choices" not in view and "decision" not in view
        # a reshuffled pile changes nothing anybody can see before the next draw
        other = E.load(E.dump(st))
        random.Random(step).shuffle(other.pile)
        for viewer in (None, 0, 1, 2, 3):
            assert E.view(other, viewer) == E.view(st, viewer)
        assert E.decision(other) == d
        assert all(E.legal_choices(other, s) == E.legal_choices(st, s) for s in range(4))
        events = E.apply(st, {s: rng.choice(E.legal_choices(st, s)) for s in d.seats})
        for event in events:
            for viewer in (None, 0, 1, 2, 3):
                json.dumps(event_for(event, viewer))
            assert "pile" not in event.data or isinstance(event.data["pile"], int)
