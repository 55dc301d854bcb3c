"""The hosted games, keyed by stable slug: the one list of them, and the registry that answers
their engines, catalogs and capabilities.

The base types (``domain.engine``, ``domain.catalog``, ``domain.manifest``) import no game; this
module imports every game, and no game imports it back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from domain.catalog import GameCatalog
from domain.engine import GameEngine
from domain.errors import UnknownGameType
from domain.games.carcassonne import GAME as CARCASSONNE
from domain.games.im_schutze_der_burg import GAME as IM_SCHUTZE_DER_BURG
from domain.games.keythedral import GAME as KEYTHEDRAL
from domain.manifest import HostedGame

HOSTED_GAMES: tuple[HostedGame[Any], ...] = (IM_SCHUTZE_DER_BURG, KEYTHEDRAL, CARCASSONNE)
"""Every game the service hosts."""


class EngineRegistry:
    """Hosted games by slug. Built once by the composition root; tests may add their own games
    (an engine alone is hosted without a catalog or any optional capability)."""

    def __init__(self, games: Iterable[HostedGame[Any] | GameEngine[Any]] = ()) -> None:
        self._games: dict[str, HostedGame[Any]] = {}
        for game in games:
            self.register(game)

    def register(self, game: HostedGame[Any] | GameEngine[Any]) -> None:
        hosted = game if isinstance(game, HostedGame) else HostedGame(game)
        self._games[hosted.slug] = hosted

    def game(self, slug: str) -> HostedGame[Any]:
        """The manifest of ``slug``: engine, catalog and optional capabilities."""
        try:
            return self._games[slug]
        except KeyError:
            raise UnknownGameType(
                "unknown game type {type!q}; known: {known}", type=slug, known=sorted(self._games)
            ) from None

    def get(self, slug: str) -> GameEngine[Any]:
        """The engine of ``slug``."""
        return self.game(slug).engine

    def catalog(self, slug: str) -> GameCatalog | None:
        """The catalog of ``slug``, or None for a game without one or a type nobody hosts."""
        hosted = self._games.get(slug)
        return hosted.catalog if hosted is not None else None

    def catalogs(self) -> dict[str, GameCatalog]:
        """The catalog of every registered game that has one, by slug."""
        return {game.slug: game.catalog for game in self.games() if game.catalog is not None}

    def games(self) -> list[HostedGame[Any]]:
        """Every registered game, by slug."""
        return [self._games[slug] for slug in sorted(self._games)]

    def __iter__(self) -> Iterator[GameEngine[Any]]:
        return iter([game.engine for game in self.games()])


def default_registry() -> EngineRegistry:
    """Every game the service hosts."""
    return EngineRegistry(HOSTED_GAMES)
