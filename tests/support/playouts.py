"""Random games of every hosted game for the catalog and schema tests (see ``domain.services.samples``)."""

from __future__ import annotations

from typing import Any

from domain.engine import GameEngine
from domain.registry import default_registry
from domain.services.samples import Played, Snapshot, play, variants

__all__ = ["Played", "Snapshot", "hosted_engines", "play", "variants"]


def hosted_engines() -> list[GameEngine[Any]]:
    return list(default_registry())
