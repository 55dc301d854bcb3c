"""``./run bench-bots --first``: a row played in parts is the row played at once, game for game
(each game depends only on its index, the seed and the budget), so long rows can be split and
joined, and two versions of a bot compared deal by deal through the rows' ``credits``."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from bots import run  # bench/ is not a package: found through sys.path

GAME = "im-schutze-der-burg"


def test_a_row_played_in_two_parts_gives_the_same_games_as_the_row_played_at_once() -> None:
    with ThreadPoolExecutor(2) as pool:
        whole = run(GAME, 2, 4, "parts", 2, pool)
        head = run(GAME, 2, 2, "parts", 2, pool)
        tail = run(GAME, 2, 2, "parts", 2, pool, first=2)
    assert (whole.first, head.first, tail.first) == (0, 0, 2)
    assert len(whole.credits) == 4
    assert whole.credits == head.credits + tail.credits
    assert whole.strong_wins == sum(whole.credits)
    assert head.strong_wins + tail.strong_wins == whole.strong_wins
    assert all(credit in (0.0, 0.5, 1.0) for credit in whole.credits)
