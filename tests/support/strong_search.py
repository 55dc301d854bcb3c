"""The strong level's search on one state, as the per-game tests call it: the seat's own legal
choices and the game's determinizer, nothing else of the state."""

from __future__ import annotations

import random
from typing import Any

from domain.bots.hooks import SearchHooks
from domain.bots.search import SearchBudget, SearchResult, search
from domain.engine import GameEngine


def strong_search(
    engine: GameEngine[Any], hooks: SearchHooks[Any], state: Any, seat: int, seed: int, iterations: int
) -> SearchResult:
    """What the strong level finds for ``seat`` at ``state`` with ``iterations`` and the generator
    seeded ``seed``."""
    decision = engine.decision(state)
    assert decision is not None
    return search(
        engine,
        hooks,
        seat,
        decision,
        engine.legal_choices(state, seat),
        lambda rng: hooks.determinize(state, seat, rng),
        random.Random(seed),
        SearchBudget(iterations=iterations),
    )
