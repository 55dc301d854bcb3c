"""Replay with fakes: the game after any event, from the seed and the recorded choices only."""

from __future__ import annotations

import pytest

from domain.errors import GameNotFinished, SeatNotFound
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.replay import ReplayService
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock


def test_a_finished_game_replays_after_every_event_for_every_viewer() -> None:
    store = FakeRepository()
    clock = ManualClock()
    games = Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), clock
    )
    replays = ReplayService(games.core)
    created = games.lobby.create_game(
        "duel", {"rounds": 2}, "seed", clock={"mode": "fischer", "seconds": 100}
    )
    game_id = created.match.id
    tokens = [games.seats.join(game_id, name).token for name in ("a", "b")]
    games.seats.start(game_id, created.host_token)
    with pytest.raises(GameNotFinished):
        replays.at(game_id, 1, None)
    for round_cards, banker_action in (((3, 1), "bank"), ((1, 2), "pass")):
        clock.advance(4)
        games.play.submit(game_id, tokens[0], {"card": round_cards[0]})
        clock.advance(6)
        games.play.submit(game_id, tokens[1], {"card": round_cards[1]})
        decision = games.core.load(game_id).decision()
        assert decision is not None
        games.play.submit(game_id, tokens[decision.seats[0]], {"action": banker_action})
    final = games.core.load(game_id)
    assert final.status.value == "finished"

    last = replays.at(game_id, final.last_seq, None)
    assert last.matches_final_state is True and last.phase == "finished"
    assert last.state == final.view(None)
    assert last.used_seconds == [8.0, 20.0]  # seat 1 waited 4 + 6 s in each round
    assert replays.at(game_id, 0, None).phase == "lobby" and replays.at(game_id, 2, 0).state is None

    started = replays.at(game_id, 4, 0)  # after joins, game_started and the deal
    assert started.phase == "in_progress" and started.state is not None
    assert started.state["hand"] == [1, 2, 3] and started.state["scores"] == [0, 0]
    assert "hand" not in (replays.at(game_id, 4, None).state or {})
    for seq in range(1, final.last_seq + 1):
        replayed = replays.at(game_id, seq, 1)
        assert [e["seq"] for e in replayed.events] == list(range(1, seq + 1))
    with pytest.raises(SeatNotFound):
        replays.at(game_id, 3, 5)
