"""One package per game; ``all_engines`` lists the hosted ones."""

from __future__ import annotations

from typing import Any

from domain.engine import GameEngine


def all_engines() -> list[GameEngine[Any]]:
    from domain.games.carcassonne import ENGINE as carcassonne
    from domain.games.im_schutze_der_burg import ENGINE as im_schutze_der_burg
    from domain.games.keythedral import ENGINE as keythedral

    return [im_schutze_der_burg, keythedral, carcassonne]
