"""A bot's thinking as a request that can travel: the service reads the match, hands the thinking to
whoever runs it (a process pool shared by the server, or the caller's own thread) and commits the
answer only if the match has not moved on meanwhile. Nothing is stored while a bot thinks, so a
restart mid-thought loses nothing: the bot runner queues the game again and the bot thinks again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.bots.hooks import SearchHooks
from domain.bots.policies import choose, context_for
from domain.bots.search import SearchBudget
from domain.engine import Choice, GameEngine, Stored
from domain.model.seeding import rng_for_bot

SEARCHING_LEVELS = frozenset({"greedy", "strong"})
"""Levels whose thinking costs enough to run off the caller's thread (``random`` picks at once)."""


@dataclass(frozen=True, slots=True)
class BotBudget:
    """What a strong decision may spend: ``seconds`` (a wall-clock ceiling, None: iterations only)
    and at most ``iterations``; a seat on a running clock gets at most ``clock_share`` of what is
    left on it, and never less than ``floor_seconds``."""

    seconds: float | None = 1.0
    iterations: int = SearchBudget().iterations
    clock_share: float = 0.25
    floor_seconds: float = 0.05

    def for_clock(self, remaining: float | None) -> float | None:
        """The seconds for a decision whose seat has ``remaining`` seconds on its clock (None:
        no running clock)."""
        if remaining is None:
            return self.seconds
        short = max(self.floor_seconds, remaining * self.clock_share)
        return short if self.seconds is None else min(self.seconds, short)


@dataclass(frozen=True, slots=True)
class ThinkRequest:
    """Everything one bot decision needs, as plain values (it may cross to another process):
    the stored state (read there by the game's own engine), the seat and its level, what derives
    its generator, and its budget."""

    game_type: str
    state: Stored
    seat: int
    level: str
    seed: str
    salt: str | None
    version: int
    seconds: float | None
    iterations: int


Thinker = Callable[[ThinkRequest], Choice]
"""Runs a ``ThinkRequest`` and answers the bot's choice (``think`` where it runs)."""


def think(request: ThinkRequest, engine: GameEngine[Any], hooks: SearchHooks[Any] | None) -> Choice:
    """The bot's choice: the same pick ``domain.bots.turns.bot_choice`` makes on the match, from
    the seat's own information only (the search reads the state only through ``determinize``);
    ``engine`` and ``hooks``: the request's game's (``HostedGame.engine`` and ``.search``)."""
    state = engine.load(request.state)
    decision = engine.decision(state)
    assert decision is not None, "a bot thinks only when its seat has a decision"
    rng = rng_for_bot(request.seed, request.salt, request.version, request.seat)
    budget = (
        SearchBudget(iterations=request.iterations)
        if request.seconds is None
        else SearchBudget.within(request.seconds, iterations=request.iterations)
    )
    return choose(request.level, context_for(engine, state, decision, request.seat, hooks), rng, budget)
