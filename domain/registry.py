"""The registry of game engines, keyed by stable slug."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from domain.engine import GameEngine
from domain.errors import UnknownGameType


class EngineRegistry:
    """Engines by slug. Built once by the composition root; tests may add their own games."""

    def __init__(self, engines: Iterable[GameEngine[Any]] = ()) -> None:
        self._engines: dict[str, GameEngine[Any]] = {}
        for engine in engines:
            self.register(engine)

    def register(self, engine: GameEngine[Any]) -> None:
        self._engines[engine.meta.slug] = engine

    def get(self, slug: str) -> GameEngine[Any]:
        try:
            return self._engines[slug]
        except KeyError:
            raise UnknownGameType(
                "unknown game type {type!q}; known: {known}", type=slug, known=sorted(self._engines)
            ) from None

    def __iter__(self) -> Iterator[GameEngine[Any]]:
        return iter(sorted(self._engines.values(), key=lambda e: e.meta.slug))


def default_registry() -> EngineRegistry:
    """Every game the service hosts."""
    from domain.games import all_engines

    return EngineRegistry(all_engines())
