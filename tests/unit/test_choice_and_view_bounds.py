"""No decision of any game lists more choices, and no view is bigger, than a person and a phone
can handle: random games of every game and player count stay under stated bounds.

The sizes are measured the way ``python -m api simulate`` reports them (``largest`` in its
summary): every choice list a deciding seat is offered, and that seat's view as compact JSON.
"""

from __future__ import annotations

from typing import Any

import pytest

from api.entrypoints.simulate import Largest, play_one
from domain.manifest import HostedGame
from domain.registry import default_registry

MAX_CHOICES = 400
"""At most "a few hundred" choices in one list (issue 11): a list a person can still scroll
and search, about 25 kB at the ~60 bytes a choice takes. Measured in random games: Im Schutze
der Burg about 80 (a build payment; a hoard is narrowed to at most 102), Carcassonne about 90
(a tile placement), Keythedral about 270 (a cube payment)."""

MAX_VIEW_BYTES = 64_000
"""A view a phone fetches on every change: 64 kB is half a second on a slow 1 Mbit/s link.
Measured in random games: Im Schutze der Burg about 6 kB, Carcassonne about 14 kB (the board
grows), Keythedral about 16 kB."""

GAMES_PER_COUNT = {"im-schutze-der-burg": 6, "keythedral": 2, "carcassonne": 2}
"""Random games per player count: enough to reach the big lists (builds with large holdings,
late tile placements), few enough for a unit test."""

CASES = [
    pytest.param(game, players, id=f"{game.slug}-{players}p")
    for game in default_registry().games()
    for players in range(game.engine.meta.min_players, game.engine.meta.max_players + 1)
]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_games_stay_under_the_choice_and_view_bounds(game: HostedGame[Any], players: int) -> None:
    largest = Largest()
    options = game.engine.meta.resolve_options({})
    for index in range(GAMES_PER_COUNT[game.slug]):
        result = play_one(game, players, options, index, f"bounds-{players}-{index}", ("random",), 20_000)
        assert result.abnormal is None, result.abnormal
        got = result.largest
        largest = largest.grown(got.choices, got.choices_kind, got.view_bytes)
    assert 0 < largest.choices <= MAX_CHOICES, largest
    assert 0 < largest.view_bytes <= MAX_VIEW_BYTES, largest


def test_every_game_has_bounds_stated() -> None:
    assert {engine.meta.slug for engine in default_registry()} == set(GAMES_PER_COUNT)
