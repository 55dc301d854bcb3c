"""Bot policies, and the hooks a game provides so the stronger bot can search."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from domain.engine import Choice, Decision, GameEngine, S
from domain.errors import UnknownBotLevel

BOT_LEVELS = ("random", "greedy")


class SearchHooks(Protocol[S]):
    """What a game offers the search bot (a field of its ``HostedGame``). ``determinize`` and
    ``evaluate`` must respect hidden information; a game's hooks subclass this protocol to inherit
    the search's defaults for the rest."""

    samples: int = 3
    """Sampled states per decision."""
    max_candidates: int = 48
    """Choices tried per decision (a random sample of them when there are more)."""

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with what ``seat`` can see; hidden parts resampled with ``rng``."""
        ...

    def evaluate(self, state: S, seat: int) -> float:
        """How good ``state`` is for ``seat`` (higher is better), from a determinized state."""
        ...

    def worth_trying(self, decision: Decision, choices: list[Choice]) -> list[Choice]:
        """The choices the search considers: all of them, unless a game leaves some out (a
        choice that only steps back, say, which a one-step search could repeat for ever)."""
        return choices


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


def choose(level: str, context: BotContext, rng: random.Random) -> Choice:
    if level == "greedy" and context.hooks is not None and context.sample_state is not None:
        return _search(context, rng)
    return rng.choice(context.choices)


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
