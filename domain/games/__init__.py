"""One package per game; ``all_engines`` lists the hosted ones."""

from __future__ import annotations

from typing import Any

from domain.engine import GameEngine


def all_engines() -> list[GameEngine[Any]]:
    engines: list[GameEngine[Any]] = []
    return engines
