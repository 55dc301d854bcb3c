"""The strong level (domain.bots.search): legal to the end of every game at every player count,
bounded by its budget, reproducible from its generator."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.bots import BOT_LEVELS, choose, context_for
from domain.bots.search import DEADLINE_EVERY, SearchBudget, search
from domain.engine import find_listed_choice
from domain.manifest import HostedGame
from domain.registry import default_registry

REGISTRY = default_registry()
GAMES = [REGISTRY.game(slug) for slug in ("im-schutze-der-burg", "keythedral", "carcassonne")]
EVERY_COUNT = [
    pytest.param(game, players, id=f"{game.slug}-{players}")
    for game in GAMES
    for players in range(game.engine.meta.min_players, game.engine.meta.max_players + 1)
]


def _start(game: HostedGame[Any], players: int, seed: int) -> Any:
    engine = game.engine
    state, _ = engine.setup(players, engine.meta.resolve_options({}), random.Random(seed))
    return state


def _advance(game: HostedGame[Any], state: Any, steps: int, rng: random.Random) -> Any:
    engine = game.engine
    for _ in range(steps):
        decision = engine.decision(state)
        if decision is None:
            break
        engine.apply(state, {s: rng.choice(engine.legal_choices(state, s)) for s in decision.seats})
    return state


def _searched(game: HostedGame[Any], state: Any, seed: int, budget: SearchBudget) -> Any:
    engine = game.engine
    decision = engine.decision(state)
    assert decision is not None and game.search is not None
    seat = decision.seats[0]
    context = context_for(engine, state, decision, seat, game.search)
    assert context.sample_state is not None
    return search(
        engine,
        game.search,
        seat,
        decision,
        context.choices,
        context.sample_state,
        random.Random(seed),
        budget,
    )


def test_strong_is_a_level_after_greedy() -> None:
    assert BOT_LEVELS == ("random", "greedy", "strong")


@pytest.mark.parametrize(("game", "players"), EVERY_COUNT)
def test_strong_plays_legal_choices_to_the_end(game: HostedGame[Any], players: int) -> None:
    """One strong seat (a small budget) among random ones, every decision to the final outcome."""
    engine = game.engine
    state = _start(game, players, players)
    strong_seat = players - 1
    rng = random.Random(players)
    searched = 0
    for _ in range(20_000):
        decision = engine.decision(state)
        if decision is None:
            break
        joint = {}
        for seat in decision.seats:
            legal = engine.legal_choices(state, seat)
            if seat == strong_seat:
                context = context_for(engine, state, decision, seat, game.search)
                picked = choose("strong", context, rng, SearchBudget(iterations=4))
                assert (
                    find_listed_choice(legal, picked) is picked
                    or find_listed_choice(legal, picked) is not None
                )
                searched += len(legal) > 1
            else:
                picked = rng.choice(legal)
            joint[seat] = picked
        engine.apply(state, joint)
    outcome = engine.outcome(state)
    assert outcome is not None and len(outcome.scores) == players
    assert searched > 5


def test_the_same_generator_gives_the_same_pick_and_the_same_search() -> None:
    game = GAMES[2]
    state = _advance(game, _start(game, 3, 4), 30, random.Random(4))
    first = _searched(game, state, 9, SearchBudget(iterations=60))
    again = _searched(game, state, 9, SearchBudget(iterations=60))
    assert first.iterations == again.iterations == 60
    assert first.choice == again.choice and first.visits == again.visits
    assert sum(first.visits.values()) == 60


class SteppingClock:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_a_deadline_ends_the_search_with_the_best_choice_so_far() -> None:
    game = GAMES[2]
    state = _advance(game, _start(game, 2, 5), 20, random.Random(5))
    clock = SteppingClock()
    budget = SearchBudget.within(2.5, iterations=10_000, clock=clock)  # the deadline is t=3.5
    result = _searched(game, state, 1, budget)
    # The clock is read every DEADLINE_EVERY iterations: at t=2 (going on), then t=3, t=4 (over).
    assert result.iterations == 3 * DEADLINE_EVERY
    assert sum(result.visits.values()) == result.iterations
    best = max(result.visits.values())
    assert result.visits[repr(result.choice)] == best
    decision = game.engine.decision(state)
    assert decision is not None
    assert find_listed_choice(game.engine.legal_choices(state, decision.seats[0]), result.choice)


def test_a_single_choice_is_answered_without_searching() -> None:
    game = GAMES[2]
    state = _start(game, 2, 1)
    engine = game.engine
    decision = engine.decision(state)
    assert decision is not None and game.search is not None
    only = engine.legal_choices(state, decision.seats[0])[:1]
    result = search(
        engine,
        game.search,
        decision.seats[0],
        decision,
        only,
        lambda rng: state,
        random.Random(1),
        SearchBudget(),
    )
    assert result.choice == only[0] and result.iterations == 0


def test_more_iterations_spread_over_the_root_choices_and_favour_some() -> None:
    game = GAMES[2]
    state = _advance(game, _start(game, 2, 8), 24, random.Random(8))
    result = _searched(game, state, 3, SearchBudget(iterations=300))
    assert len(result.visits) > 3
    assert max(result.visits.values()) > 300 / len(result.visits)


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_the_roots_priors_average_as_many_samples_as_greedy_judges_on(game: HostedGame[Any]) -> None:
    """Before the first iteration, every root choice is judged on the game's ``samples`` sampled
    states (greedy's own number), not on one: the search draws that many more states."""
    engine = game.engine
    state, rng = _start(game, 2, 6), random.Random(6)
    while True:
        state = _advance(game, state, 1, rng)
        decision = engine.decision(state)
        assert decision is not None and game.search is not None
        seat = decision.seats[0]
        context = context_for(engine, state, decision, seat, game.search)
        if len(game.search.worth_trying(decision, context.choices)) > 2:
            break
    assert context.sample_state is not None
    drawn: list[Any] = []

    def sample(rng: random.Random) -> Any:
        assert context.sample_state is not None
        drawn.append(context.sample_state(rng))
        return drawn[-1]

    result = search(
        engine, game.search, seat, decision, context.choices, sample, random.Random(2), SearchBudget(5)
    )
    assert result.iterations == 5
    assert len(drawn) == 5 + max(1, game.search.samples)
