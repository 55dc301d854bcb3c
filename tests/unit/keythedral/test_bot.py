"""The engine's invariant check and the greedy bot's search hooks."""

from __future__ import annotations

import random
from typing import Any

from domain.bots.policies import BotContext, choose
from domain.games.keythedral import ENGINE
from domain.games.keythedral.data import TILES
from domain.games.keythedral.state import State, clone_state
from tests.support.strong_search import strong_search

HOOKS = ENGINE.search_hooks


def _play(players: int, seed: int, steps: int, options: dict[str, Any] | None = None) -> State:
    state, _ = ENGINE.setup(players, ENGINE.meta.resolve_options(options), random.Random(seed))
    chooser = random.Random(seed)
    for _ in range(steps):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        ENGINE.apply(state, {seat: chooser.choice(ENGINE.legal_choices(state, seat))})
    return state


def _states(players: int, seed: int, options: dict[str, Any] | None = None) -> list[State]:
    """Snapshots of a random game every 40 decisions."""
    state, _ = ENGINE.setup(players, ENGINE.meta.resolve_options(options), random.Random(seed))
    chooser = random.Random(seed)
    out = []
    step = 0
    while (decision := ENGINE.decision(state)) is not None:
        if step % 40 == 0:
            out.append(clone_state(state))
            out[-1].pending = state.pending
        seat = decision.seats[0]
        ENGINE.apply(state, {seat: chooser.choice(ENGINE.legal_choices(state, seat))})
        step += 1
    return out


# -- check_invariants ------------------------------------------------------------------------
def test_a_sound_state_has_no_violations_all_game_long() -> None:
    state, _ = ENGINE.setup(3, ENGINE.meta.resolve_options(None), random.Random(2))
    chooser = random.Random(2)
    assert ENGINE.check_invariants(state) == []
    while (decision := ENGINE.decision(state)) is not None:
        seat = decision.seats[0]
        ENGINE.apply(state, {seat: chooser.choice(ENGINE.legal_choices(state, seat))})
        assert ENGINE.check_invariants(state) == []


def test_a_cube_out_of_nowhere_breaks_conservation() -> None:
    state = _play(3, 5, 200)
    state.cubes[1][2] += 1
    problems = ENGINE.check_invariants(state)
    assert any("blue cubes not conserved" in p for p in problems)


def test_a_negative_holding_is_reported() -> None:
    state = _play(3, 5, 200)
    state.store[0] += state.cubes[0][0] + 1
    state.cubes[0][0] = -1
    problems = ENGINE.check_invariants(state)
    assert "seat 0 holds -1 black cubes" in problems


def test_a_lost_tile_and_a_duplicated_law_card_are_reported() -> None:
    state = _play(4, 6, 300)
    state.pools[0].clear()
    state.deck.append(state.deck[0])
    problems = ENGINE.check_invariants(state)
    assert any("building tiles are lost" in p for p in problems)
    assert any("law cards not conserved" in p for p in problems)


def test_a_cottage_missing_from_the_gap_index_is_reported() -> None:
    state = _play(2, 3, 100)
    gap = next(pos for pos in state.cottage_pos[1] if pos is not None)
    del state.gap_occ[gap]
    problems = ENGINE.check_invariants(state)
    assert any("is not indexed there" in p for p in problems)


def test_a_fence_beside_no_field_is_reported() -> None:
    state = _play(2, 3, 100)
    state.fences[(40, 40, 41, 41)] = 0
    state.fences_left[0] -= 1
    problems = ENGINE.check_invariants(state)
    assert any("not between a gap and a field" in p for p in problems)


# -- determinize -----------------------------------------------------------------------------
def test_a_determinized_state_is_sound_and_looks_the_same_to_its_seat() -> None:
    for players, options in [
        (4, None),
        (2, {"face_up_tiles": True}),
        (3, {"law_cards_face_up": True, "length": "full"}),
    ]:
        for state in _states(players, 11 + players, options):
            decision = ENGINE.decision(state)
            assert decision is not None
            seat = decision.seats[0]
            sample = HOOKS.determinize(state, seat, random.Random(1))
            assert ENGINE.check_invariants(sample) == []
            assert ENGINE.view(sample, seat) == ENGINE.view(state, seat)
            assert ENGINE.legal_choices(sample, seat) == ENGINE.legal_choices(state, seat)


def test_determinize_redraws_what_the_seat_cannot_see() -> None:
    state = _states(4, 8)[12]
    seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
    changed = set()
    for k in range(20):
        sample = HOOKS.determinize(state, seat, random.Random(k))
        for other in range(4):
            if other != seat:
                assert sum(sample.cubes[other]) == sum(state.cubes[other])
                assert len(sample.hands[other]) == len(state.hands[other])
                changed.add(("cubes", tuple(sample.cubes[other]) != tuple(state.cubes[other])))
        assert sample.cubes[seat] == state.cubes[seat] and sample.hands[seat] == state.hands[seat]
        hidden_rows = [r for r in range(len(state.rows)) if not state.face_up(r) and state.rows[r]]
        changed.add(("tiles", any(sample.rows[r] != state.rows[r] for r in hidden_rows)))
        changed.add(("deck", sample.deck != state.deck))
    assert ("cubes", True) in changed and ("tiles", True) in changed and ("deck", True) in changed


def _hidden_twin(players: int, seed: int) -> tuple[State, State, int]:
    """A state, and one that differs from it only in what its deciding seat cannot see (two
    other screens' colours, the law deck's order, a face-down tile, the Change-of-Style seed)."""
    for state in _states(players, seed)[5:]:
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        a, b = [s for s in range(players) if s != seat][:2]
        pairs = [
            (c, d) for c in range(8) for d in range(8) if c != d and state.cubes[a][c] and state.cubes[b][d]
        ]
        if pairs and len(ENGINE.legal_choices(state, seat)) > 1:
            break
    colour, swap = pairs[0]
    other = clone_state(state)
    other.pending = state.pending
    other.cubes[a][colour] -= 1
    other.cubes[a][swap] += 1
    other.cubes[b][swap] -= 1
    other.cubes[b][colour] += 1
    other.deck.reverse()
    hidden = next(
        r for r in range(len(other.rows)) if not other.face_up(r) and other.rows[r] and other.pools[r]
    )
    other.rows[hidden][0], other.pools[hidden][0] = other.pools[hidden][0], other.rows[hidden][0]
    other.pools[hidden].sort()
    other.seed += 1
    assert ENGINE.check_invariants(other) == []
    return state, other, seat


def test_states_differing_only_in_hidden_information_determinize_alike() -> None:
    state, other, seat = _hidden_twin(4, 9)
    first = HOOKS.determinize(state, seat, random.Random(5))
    second = HOOKS.determinize(other, seat, random.Random(5))
    assert ENGINE.dump(first) == ENGINE.dump(second)


# -- evaluate and the greedy level -----------------------------------------------------------
def test_evaluate_prefers_a_bought_tile_to_the_cubes_it_cost() -> None:
    state = _states(3, 4)[8]
    seat = 0
    before = HOOKS.evaluate(state, seat)
    richer = clone_state(state)
    tile = TILES.index(next(t for t in TILES if t.value == 8))
    richer.bought[seat].append(tile)
    for other in richer.bought[1:]:
        if tile in other:
            other.remove(tile)
    assert HOOKS.evaluate(richer, seat) > before


def _greedy_game(players: int, seed: int, levels: list[str]) -> tuple[State, list[float]]:
    state, _ = ENGINE.setup(players, ENGINE.meta.resolve_options(None), random.Random(seed))
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    while (decision := ENGINE.decision(state)) is not None:
        seat = decision.seats[0]

        def sample(rng: random.Random, seat: int = seat) -> State:
            return HOOKS.determinize(state, seat, rng)

        context = BotContext(ENGINE, seat, decision, ENGINE.legal_choices(state, seat), sample, HOOKS)
        ENGINE.apply(state, {seat: choose(levels[seat], context, rngs[seat])})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return state, [float(s) for s in outcome.scores]


def test_greedy_beats_random_and_ends_the_game_normally() -> None:
    for seed in (1, 2):
        state, scores = _greedy_game(2, seed, ["greedy", "random"])
        assert not state.abnormal
        assert scores[0] > scores[1]


def test_strong_decides_alike_when_only_hidden_information_differs() -> None:
    state, other, seat = _hidden_twin(4, 9)
    assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
    assert ENGINE.dump(other) != ENGINE.dump(state)
    first = strong_search(ENGINE, HOOKS, state, seat, 4, 60)
    second = strong_search(ENGINE, HOOKS, other, seat, 4, 60)
    assert first.choice == second.choice and first.visits == second.visits
    assert first.iterations == 60
