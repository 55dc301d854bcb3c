"""Bot work is scheduled fairly (issue 10 items 9 and 10): a game where a person waits on a bot
goes before any number of games of bots only, those take turns and never starve, and at start every
in-progress game with a bot seat is queued, not only the newest thousand."""

from __future__ import annotations

from typing import cast

import pytest

from api.background.bots import URGENT_BURST, BotRunner
from domain.errors import TooManyBotOnlyGames
from domain.ports.games import BotGame
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.play import PlayService
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, FixedClock


class RecordingService:
    def __init__(self, games: list[BotGame] | None = None) -> None:
        self.games = sorted(games or [], key=lambda g: g.id)
        self.played: list[str] = []

    def play_bot_turn(self, game_id: str, *_: object) -> bool:
        self.played.append(game_id)
        return True

    def games_with_bots_in_progress(self, after: str, limit: int) -> list[BotGame]:
        return [g for g in self.games if g.id > after][:limit]


def runner_on(service: RecordingService) -> BotRunner:
    return BotRunner(cast(PlayService, service))


def test_a_waiting_person_goes_before_three_hundred_games_of_bots() -> None:
    """The attack: 300 anonymous games of bots made a victim's bot wait 1.35 s per move."""
    runner = runner_on(RecordingService())
    for n in range(300):
        runner.notify(f"bots-{n:03}", human_waiting=False)
    runner.notify("victim", human_waiting=True)
    assert runner.next_game() == "victim"


def test_games_of_bots_take_turns_and_never_starve() -> None:
    runner = runner_on(RecordingService())
    for name in ("a", "b", "c"):
        runner.notify(name, human_waiting=False)
    order = []
    for _ in range(6):
        game = runner.next_game()
        assert game is not None
        order.append(game)
        runner.notify(game, human_waiting=False)  # it played and has another decision
    assert order == ["a", "b", "c", "a", "b", "c"]
    for n in range(3 * URGENT_BURST):
        runner.notify(f"person-{n}", human_waiting=True)
    taken = [runner.next_game() for _ in range(URGENT_BURST + 1)]
    assert taken[-1] == "a" and all(str(t).startswith("person-") for t in taken[:-1])


def test_every_in_progress_game_with_a_bot_is_resumed_however_many_there_are() -> None:
    """The attack: after a restart only the 1,000 newest games got their bots back."""
    games = [BotGame(f"g{n:05}", has_humans=n % 3 == 0) for n in range(2_345)]
    service = RecordingService(games)
    runner = BotRunner(cast(PlayService, service), resume_page=100)
    assert runner.resume() == 2_345
    queued = set()
    while (game := runner.next_game()) is not None:
        queued.add(game)
    assert queued == {g.id for g in games}


@pytest.fixture
def service() -> Services:
    store = FakeRepository()
    service = Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), FixedClock()
    )
    service.seats.max_bot_only_games = 2
    return service


def bots_only_lobby(service: Services) -> tuple[str, str]:
    created = service.lobby.create_game("duel", None, None)
    for _ in range(2):
        service.seats.join(created.match.id, "bot", bot="random", token=created.host_token)
    return created.match.id, created.host_token


def test_starting_games_of_bots_only_is_bounded(service: Services) -> None:
    for _ in range(2):
        service.seats.start(*bots_only_lobby(service))
    with pytest.raises(TooManyBotOnlyGames):
        service.seats.start(*bots_only_lobby(service))
    # a game with a person in it is not bounded
    created = service.lobby.create_game("duel", None, None)
    service.seats.join(created.match.id, "ann")
    service.seats.join(created.match.id, "bot", bot="random", token=created.host_token)
    service.seats.start(created.match.id, created.host_token)


def test_the_service_lists_in_progress_games_with_bots_by_page(service: Services) -> None:
    service.seats.max_bot_only_games = None
    started = []
    for _ in range(5):
        game_id, host = bots_only_lobby(service)
        service.seats.start(game_id, host)
        started.append(game_id)
    human = service.lobby.create_game("duel", None, None).match.id
    service.seats.join(human, "a")
    service.seats.join(human, "b")
    first = service.play.games_with_bots_in_progress("", 3)
    rest = service.play.games_with_bots_in_progress(first[-1].id, 3)
    assert [g.id for g in first + rest] == sorted(started)
    assert not any(g.has_humans for g in first + rest)
