"""Carcassonne's strong level, the whole-turn search (domain.bots.turn_search): every end of the
seat's turn judged, the best few played on through the opponent's turn on sampled piles, within
its budget, from the seat's own information."""

from __future__ import annotations

import random
from typing import Any

from domain.bots.search import SearchBudget, SearchResult
from domain.bots.turn_search import search_turns
from domain.games.carcassonne import ENGINE as E
from domain.games.carcassonne.bot import CarcassonneSearchHooks
from domain.games.carcassonne.state import PLACE, State, copy_state
from tests.unit.carcassonne.support import played

HOOKS = E.search_hooks
ROUNDS = HOOKS.turn_candidates * HOOKS.turn_rollouts


class Judging(CarcassonneSearchHooks):
    """Carcassonne's hooks, noting the number of tiles on the board of every state judged."""

    def __init__(self) -> None:
        self.boards: list[int] = []

    def evaluate(self, state: State, seat: int) -> float:
        self.boards.append(len(state.oriented_tiles))
        return super().evaluate(state, seat)


def at_placement(seed: int) -> State:
    """A 2-player game some turns in, its active seat about to place a drawn tile."""
    for steps in range(30, 60):
        st = played(2, steps, seed)
        if st.phase == PLACE:
            return st
    raise AssertionError("no placement found")


def turn_search(st: State, seed: int, budget: SearchBudget, hooks: Any = HOOKS) -> SearchResult:
    decision = E.decision(st)
    assert decision is not None
    seat = decision.seats[0]
    return search_turns(
        E,
        hooks,
        seat,
        decision,
        E.legal_choices(st, seat),
        lambda rng: hooks.determinize(st, seat, rng),
        random.Random(seed),
        budget,
    )


def test_the_strong_level_of_carcassonne_is_the_whole_turn_search() -> None:
    assert HOOKS.turn_rollouts > 0 and HOOKS.turn_candidates > 1


def test_the_best_ends_of_different_first_moves_are_each_played_on_as_often() -> None:
    st = at_placement(5)
    assert len(E.legal_choices(st, st.active)) > HOOKS.turn_candidates
    found = turn_search(st, 1, SearchBudget(iterations=400))
    assert found.iterations == ROUNDS  # the game's rounds, not the budget's 400
    # One end per first move (a placement), as many placements as the game plays on.
    assert set(found.visits.values()) == {HOOKS.turn_rollouts}
    assert len(found.visits) == HOOKS.turn_candidates
    assert set(found.values) == set(found.visits)
    assert found.choice in E.legal_choices(st, st.active)
    assert repr(found.choice) in found.visits
    assert found.values[repr(found.choice)] == max(found.values.values())


def test_the_rollouts_play_the_opponents_turn_and_stop_before_the_seats_next_one() -> None:
    """The ends of the seat's turn have one tile more on the board than now; a rollout's judgement
    comes once the opponent has laid its tile too (two more), never after the seat's next tile."""
    st = at_placement(6)
    now = len(st.oriented_tiles)
    judging = Judging()
    turn_search(st, 2, SearchBudget(iterations=400), judging)
    assert set(judging.boards) == {now + 1, now + 2}
    judging.boards.clear()
    turn_search(st, 2, SearchBudget(iterations=0), judging)  # no rollout: the ends only
    assert set(judging.boards) == {now + 1}


def test_the_budget_bounds_the_rollouts_in_whole_rounds() -> None:
    st = at_placement(7)
    assert turn_search(st, 3, SearchBudget(iterations=HOOKS.turn_candidates * 2 + 1)).iterations == (
        HOOKS.turn_candidates * 2
    )
    late = turn_search(st, 3, SearchBudget(iterations=400, deadline=5.0, clock=lambda: 10.0))
    assert late.iterations == 0 and sum(late.visits.values()) == 0
    # With no rollout, the pick is the best end of the turn as the evaluation judges it.
    assert late.values[repr(late.choice)] == max(late.values.values())


def test_the_same_generator_gives_the_same_pick_and_the_same_values() -> None:
    st = at_placement(8)
    first, again = turn_search(st, 4, SearchBudget()), turn_search(st, 4, SearchBudget())
    assert (first.choice, first.visits, first.values) == (again.choice, again.visits, again.values)


def test_drawing_instead_of_laying_the_abbey_is_judged_on_tiles_drawn_from_the_seats_own_pile() -> None:
    """At the choice between the abbey and a draw, the draw's rollouts draw again each time, from
    piles sampled from what the seat may see: the real pile's order changes nothing."""
    st = played(2, 24, 0)  # the seat may lay its abbey in a hole, or draw
    decision = E.decision(st)
    assert decision is not None and decision.kind == "abbey_or_draw"
    other = copy_state(st)
    random.Random(5).shuffle(other.pile)
    assert other.pile != st.pile
    first, second = turn_search(st, 9, SearchBudget()), turn_search(other, 9, SearchBudget())
    assert (first.choice, first.visits, first.values) == (second.choice, second.visits, second.values)
    draw = repr({"action": "draw"})
    assert draw in first.visits and first.visits[draw] == HOOKS.turn_rollouts
    assert first.choice in E.legal_choices(st, st.active)
