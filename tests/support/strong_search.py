"""The strong level's search on one state, as the per-game tests call it: the seat's own legal
choices and the game's determinizer, nothing else of the state (the tree, or the whole-turn search
for a game that asks for it, as the level picks)."""

from __future__ import annotations

import random
from typing import Any

from domain.bots.hooks import SearchHooks
from domain.bots.policies import context_for
from domain.bots.policies import strong_search as level_search
from domain.bots.search import SearchBudget, SearchResult
from domain.engine import GameEngine


def strong_search(
    engine: GameEngine[Any], hooks: SearchHooks[Any], state: Any, seat: int, seed: int, iterations: int
) -> SearchResult:
    """What the strong level finds for ``seat`` at ``state`` with ``iterations`` and the generator
    seeded ``seed``."""
    decision = engine.decision(state)
    assert decision is not None
    context = context_for(engine, state, decision, seat, hooks)
    return level_search(context, random.Random(seed), SearchBudget(iterations=iterations))
