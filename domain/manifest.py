"""What a game package offers the service: its ``HostedGame`` manifest.

Each game package exports one as ``GAME``; ``domain.registry`` lists the hosted ones and answers
engines, catalogs and capabilities by slug. Capabilities beyond the engine interface are typed
fields here, None when a game lacks them, so no caller probes an engine for a method by name (the
way OpenSpiel declares what a game can do as data).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic

from domain.bots.hooks import SearchHooks
from domain.catalog import GameCatalog
from domain.engine import GameEngine, S, TakeBackRules


@dataclass(frozen=True, slots=True)
class HostedGame(Generic[S]):
    """One hosted game: its rules, its texts and static data, and what else it can do."""

    engine: GameEngine[S]
    catalog: GameCatalog | None = None
    """Texts in every language and the static data; None for a game without any (tests' games),
    whose engine's own English texts are shown instead."""
    search: SearchHooks[S] | None = None
    """What the search bot needs; without it, every bot level plays at random."""
    check_invariants: Callable[[S], list[str]] | None = None
    """What is wrong with a state (nothing, in a correct engine): simulations check every step."""
    copy_state: Callable[[S], S] | None = None
    """An independent copy that behaves exactly as ``engine.load(engine.dump(state))`` would, for
    a game whose load costs more than a copy (Carcassonne replays its board on load): storage then
    keeps committed states and copies them instead of loading the stored dump."""

    takebacks: TakeBackRules | None = None
    """Which decisions a seat may take back (``domain.model.takebacks``); None: none ever."""

    @property
    def slug(self) -> str:
        return self.engine.meta.slug
