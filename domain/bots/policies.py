"""Bot policies: the levels a host can seat, and how each one picks a choice."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.bots.hooks import SearchHooks
from domain.bots.search import SearchBudget, SearchResult, search
from domain.bots.turn_search import search_turns
from domain.engine import Choice, Decision, GameEngine
from domain.errors import UnknownBotLevel

BOT_LEVELS = ("random", "greedy", "strong")
"""Weakest first."""


@dataclass(frozen=True, slots=True)
class BotContext:
    engine: GameEngine[Any]
    seat: int
    decision: Decision
    choices: list[Choice]
    sample_state: Callable[[random.Random], Any] | None
    hooks: SearchHooks[Any] | None


def context_for(
    engine: GameEngine[Any], state: Any, decision: Decision, seat: int, hooks: SearchHooks[Any] | None
) -> BotContext:
    """What a bot seat may use: its legal choices, and states sampled from its own information
    by the game's search ``hooks`` (``HostedGame.search``, when the game has them)."""

    def sample(rng: random.Random) -> Any:
        assert hooks is not None
        return hooks.determinize(state, seat, rng)

    return BotContext(
        engine=engine,
        seat=seat,
        decision=decision,
        choices=engine.legal_choices(state, seat),
        sample_state=sample if hooks is not None else None,
        hooks=hooks,
    )


def validate_level(level: str) -> str:
    if level not in BOT_LEVELS:
        raise UnknownBotLevel("unknown bot level {level!q}; known: {known}", level=level, known=BOT_LEVELS)
    return level


def choose(level: str, context: BotContext, rng: random.Random, budget: SearchBudget | None = None) -> Choice:
    """The pick of a bot of ``level``; ``budget`` bounds the strong level's search (its default
    iterations when None). A game without search hooks gets random picks at every level."""
    if context.hooks is None or context.sample_state is None:
        return rng.choice(context.choices)
    if level == "greedy":
        return _search(context, rng)
    if level == "strong":
        return strong_search(context, rng, budget or SearchBudget()).choice
    return rng.choice(context.choices)


def strong_search(context: BotContext, rng: random.Random, budget: SearchBudget) -> SearchResult:
    """The strong level's search: the whole-turn search for a game that asks for it
    (``SearchHooks.turn_rollouts``), the tree otherwise."""
    assert context.hooks is not None and context.sample_state is not None
    chosen = search_turns if context.hooks.turn_rollouts else search
    return chosen(
        context.engine,
        context.hooks,
        context.seat,
        context.decision,
        context.choices,
        context.sample_state,
        rng,
        budget,
    )


def _search(context: BotContext, rng: random.Random) -> Choice:
    """Try every choice (up to a cap) on a few sampled states and keep the best average value."""
    assert context.hooks is not None and context.sample_state is not None
    if len(context.choices) == 1:
        return context.choices[0]
    engine, seat, hooks = context.engine, context.seat, context.hooks
    candidates = hooks.worth_trying(context.decision, context.choices)
    if len(candidates) > hooks.max_candidates:
        candidates = rng.sample(candidates, hooks.max_candidates)
    best: tuple[float, int] | None = None
    samples = [context.sample_state(rng) for _ in range(hooks.samples)]
    dumped = [engine.dump(s) for s in samples]
    for index, choice in enumerate(candidates):
        total = 0.0
        for data in dumped:
            state = engine.load(data)
            engine.apply(state, _joint_choices(engine, state, context.decision, seat, choice, rng))
            total += hooks.evaluate(state, seat)
        score = (total / len(dumped), -index)
        if best is None or score > best:
            best = score
    assert best is not None
    return candidates[-best[1]]


def _joint_choices(
    engine: GameEngine[Any],
    state: Any,
    decision: Decision,
    seat: int,
    choice: Choice,
    rng: random.Random,
) -> Mapping[int, Choice]:
    """The bot's choice plus a guessed (random) choice for every other seat deciding at once."""
    joint = {seat: choice}
    for other in decision.seats:
        if other != seat:
            joint[other] = rng.choice(engine.legal_choices(state, other))
    return joint
