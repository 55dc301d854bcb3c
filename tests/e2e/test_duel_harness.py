"""The play harness itself, on the test game: a whole game, every viewer recorded."""

from __future__ import annotations

import hashlib

import httpx

from tests.support.play import SPECTATOR, play_over_rest


def test_harness_plays_a_whole_game_and_records_every_viewer(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        game = play_over_rest(http, "duel", 3, {"rounds": 3}, seed="harness")
    assert game.final["status"] == "finished"
    salted = f"{game.final['seed_salt']}:{game.final['seed']}"
    assert hashlib.sha256(salted.encode()).hexdigest() == game.seed_commitment
    assert set(game.seen) == {"0", "1", "2", SPECTATOR}
    assert game.decisions == 6
