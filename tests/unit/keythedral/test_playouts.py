"""Random whole games: invariants after every step, an end, replay, round trip, no leaks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.games.keythedral import ENGINE
from domain.games.keythedral.board import diagonal
from domain.games.keythedral.data import CUBE_TOTALS, TILES
from domain.games.keythedral.state import KEYTHEDRAL, State
from tests.support.json_values import untyped

DECISION_CAP = 6000


def check_invariants(st: State) -> None:
    assert ENGINE.check_invariants(st) == []
    for c in range(8):
        held = sum(st.cubes[s][c] for s in range(st.players))
        craftsmen = st.craftsmen[c - 5] if c >= 5 else 0
        assert st.store[c] + craftsmen + held == CUBE_TOTALS[c], f"colour {c} not conserved"
    assert min(st.store) >= 0 and min(st.craftsmen) >= 0
    assert all(min(c) >= 0 for c in st.cubes)
    for seat in range(st.players):
        built = sum(1 for owner in st.fences.values() if owner == seat)
        assert st.fences_left[seat] >= 0 and built + st.fences_left[seat] <= 3
    for gx, gy, fx, fy in st.fences:
        assert (fx, fy) in st.fields and (fx, fy) in diagonal((gx, gy))
    assert all(f in st.fields for f in st.workers), "a worker off the fields"
    assert st.gap_occ[KEYTHEDRAL] == (-1, 0)
    placed = {
        (s, n + 1): pos
        for s in range(st.players)
        for n, pos in enumerate(st.cottage_pos[s])
        if pos is not None
    }
    assert len(placed) + 1 == len(st.gap_occ)
    for (s, n), pos in placed.items():
        assert st.gap_occ[pos] == (s, n)
        if st.phase:
            assert [s, n] not in st.off_board
    if st.phase:
        assert len(placed) + len(st.off_board) == 5 * st.players
    tiles = (
        [t for r in st.rows for t in r] + [t for p in st.pools for t in p] + [t for b in st.bought for t in b]
    )
    assert sorted(tiles) == list(range(len(TILES)))
    under = sum(m[0] + m[1] for m in st.mods.values())
    cards = st.deck + [c for c in st.spaces if c] + [c for h in st.hands for c in h] + st.discard
    assert len(cards) + under == 20 and len(set(cards)) == len(cards)


def random_choices(state: State, chooser: random.Random) -> dict[int, Any]:
    """A random legal choice for every seat deciding now (several at once in a law window)."""
    decision = ENGINE.decision(state)
    assert decision is not None
    return {seat: chooser.choice(ENGINE.legal_choices(state, seat)) for seat in decision.seats}


def playout(
    players: int, seed: int, options: dict[str, Any] | None = None, checks: bool = True
) -> tuple[State, list[Any]]:
    state, _ = ENGINE.setup(players, ENGINE.meta.resolve_options(options), random.Random(seed))
    chooser = random.Random(seed * 31 + 1)
    log: list[Any] = []
    steps = 0
    while ENGINE.decision(state) is not None:
        steps += 1
        assert steps <= DECISION_CAP, "abnormal end: the decision cap was exceeded"
        choices = random_choices(state, chooser)
        log.append(choices)
        ENGINE.apply(state, choices)
        if checks:
            check_invariants(state)
    return state, log


VARIANTS: list[dict[str, Any]] = [
    {},
    {"length": "full"},
    {"face_up_tiles": True},
    {"law_cards_face_up": True, "optional_placement": True},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_random_games_keep_every_invariant_and_end(players: int, variant: int) -> None:
    state, _ = playout(players, 100 * players + variant, VARIANTS[variant])
    outcome = ENGINE.outcome(state)
    assert outcome is not None and len(outcome.scores) == players
    assert ENGINE.decision(state) is None
    if not state.abnormal:
        assert all(not row for row in state.rows)


def test_most_random_games_end_by_buying_the_last_tile() -> None:
    ends = [playout(4, seed, checks=False)[0].abnormal for seed in range(12)]
    assert ends.count(False) >= 10


def test_same_seed_and_choices_reproduce_the_game() -> None:
    first, log1 = playout(3, 5, checks=False)
    second, log2 = playout(3, 5, checks=False)
    assert log1 == log2
    assert ENGINE.dump(first) == ENGINE.dump(second)


def test_dump_and_load_round_trip_mid_game_and_play_on_identically() -> None:
    state, _ = ENGINE.setup(4, ENGINE.meta.resolve_options(None), random.Random(9))
    chooser = random.Random(3)
    for step in range(600):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        if step % 25 == 0:
            dumped = ENGINE.dump(state)
            restored = ENGINE.load(json.loads(json.dumps(dumped)))
            assert ENGINE.dump(restored) == dumped
            assert ENGINE.decision(restored) == decision
            for seat in decision.seats:
                assert ENGINE.legal_choices(restored, seat) == ENGINE.legal_choices(state, seat)
            state = restored
        ENGINE.apply(state, random_choices(state, chooser))


def _hidden_ids(state: State, viewer: int | None) -> list[str]:
    """Identities the viewer must not see: others' law cards, face-down laws and tiles."""
    ids = [f"L{c:02d}" for s in range(state.players) if s != viewer for c in state.hands[s]]
    ids += [f"L{c:02d}" for c in state.deck + [c for c in state.spaces if c]]
    ids += [TILES[t].id for p in state.pools for t in p]
    ids += [TILES[t].id for r, row in enumerate(state.rows) if not state.face_up(r) for t in row]
    return ids


def test_views_and_events_never_show_another_seats_secrets() -> None:
    state, _ = ENGINE.setup(3, ENGINE.meta.resolve_options(None), random.Random(4))
    chooser = random.Random(4)
    checked = 0
    while ENGINE.decision(state) is not None:
        before = {v: set(_hidden_ids(state, v)) for v in [None, 0, 1, 2]}
        events = ENGINE.apply(state, random_choices(state, chooser))
        public = json.dumps([dict(e.data) for e in events])
        for viewer in [None, 0, 1, 2]:
            view = json.dumps(ENGINE.view(state, viewer))
            mine = (
                json.dumps([dict(e.private.get(viewer, {})) for e in events]) if (viewer is not None) else ""
            )
            for secret in _hidden_ids(state, viewer):
                assert f'"{secret}"' not in view
                checked += 1
                if secret in before[viewer]:  # hidden before and after the step
                    assert f'"{secret}"' not in mine
        for secret in before[None] & set(_hidden_ids(state, None)):
            assert f'"{secret}"' not in public
        nxt = ENGINE.decision(state)
        if nxt is not None:
            assert not any(
                f'"{x}"' in json.dumps([nxt.prompt, dict(nxt.data)]) for x in _hidden_ids(state, None)
            )
        for viewer in range(3):
            others = untyped(ENGINE.view(state, viewer))["players"]
            assert all("cubes" not in p for p in others)
    assert checked > 1000


def test_prompts_name_no_seat_like_every_translation() -> None:
    """The seat deciding is ``decision.seats``; a "Seat 2:" in the text (0-based, untranslated)
    contradicted every translation, which has none."""
    state, _ = ENGINE.setup(3, ENGINE.meta.resolve_options({}), random.Random(7))
    chooser = random.Random(8)
    kinds = set()
    for _ in range(400):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        assert "Seat" not in decision.prompt
        kinds.add(decision.kind)
        ENGINE.apply(state, random_choices(state, chooser))
    assert len(kinds) > 5
