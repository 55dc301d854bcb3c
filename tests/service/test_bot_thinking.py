"""A bot thinks outside the transaction, within its budget, and its answer counts only if the
game did not move on meanwhile (issue 29 item 3): a restart mid-thought loses nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from api.background.bots import BotRunner
from api.background.thinking import NICENESS, ProcessThinker
from domain.bots.thinking import BotBudget, ThinkRequest, think
from domain.engine import JSON, Choice
from domain.errors import VersionConflict
from domain.registry import default_registry
from domain.services.bundle import Services
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, FixedClock
from tests.support.waiting import eventually


@pytest.fixture
def store() -> FakeRepository:
    return FakeRepository()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def service(store: FakeRepository, clock: FixedClock) -> Services:
    return Services.build(lambda: FakeUnitOfWork(store), default_registry(), FakePublisher(), clock)


def bot_game(service: Services, level: str, clock: dict[str, JSON] | None = None) -> str:
    """Carcassonne, a bot of ``level`` at seat 0 (whose turn it is) and a person at seat 1."""
    created = service.lobby.create_game("carcassonne", None, None, clock=clock)
    game_id = created.match.id
    service.seats.join(game_id, "bot", bot=level, token=created.host_token)
    service.seats.join(game_id, "ann")
    service.seats.start(game_id, created.host_token)
    return game_id


class Recording:
    """A thinker that records the requests and answers with the real thinking."""

    def __init__(self, before_answer: object = None) -> None:
        self.requests: list[ThinkRequest] = []
        self.before_answer = before_answer

    def __call__(self, request: ThinkRequest) -> Choice:
        self.requests.append(request)
        if callable(self.before_answer):
            self.before_answer()
        game = default_registry().game(request.game_type)
        return think(request, game.engine, game.search)


def test_a_searching_bot_thinks_through_the_thinker_within_its_budget(service: Services) -> None:
    game_id = bot_game(service, "strong")
    before = service.core.load(game_id)
    thinker = Recording()
    assert service.play.play_bot_turn(game_id, thinker, BotBudget(0.5, 30))
    (request,) = thinker.requests
    assert (request.seat, request.level, request.version) == (0, "strong", before.version)
    assert (request.seconds, request.iterations) == (0.5, 30)
    assert service.core.load(game_id).version > before.version


def test_a_random_bot_does_not_use_the_pool(service: Services) -> None:
    game_id = bot_game(service, "random")
    thinker = Recording()
    assert service.play.play_bot_turn(game_id, thinker, BotBudget(0.5, 30))
    assert thinker.requests == []


def test_an_answer_to_a_game_that_moved_on_is_dropped_and_the_bot_thinks_again(
    service: Services, store: FakeRepository
) -> None:
    game_id = bot_game(service, "greedy")
    before = service.core.load(game_id)

    def meanwhile() -> None:  # the game moves on while the bot thinks (another instance played)
        match = service.core.load(game_id)
        match.version += 1
        with FakeUnitOfWork(store) as uow:
            uow.games.save(match)
            uow.commit()

    with pytest.raises(VersionConflict):
        service.play.play_bot_turn(game_id, Recording(meanwhile), BotBudget(0.2, 20))
    after = service.core.load(game_id)
    assert after.version == before.version + 1 and after.last_seq == before.last_seq
    thinker = Recording()
    assert service.play.play_bot_turn(game_id, thinker, BotBudget(0.2, 20))
    assert thinker.requests[0].version == before.version + 1


def test_a_restart_mid_thought_loses_nothing(service: Services) -> None:
    """The first server dies while its bot thinks: nothing was written, and the next one's runner
    queues the game at start and plays the decision."""
    game_id = bot_game(service, "strong")
    before = service.core.load(game_id)

    class Dies(Exception):
        pass

    def dies() -> None:
        raise Dies

    with pytest.raises(Dies):
        service.play.play_bot_turn(game_id, Recording(dies), BotBudget(0.2, 20))
    assert service.core.load(game_id).version == before.version
    runner = BotRunner(service.play, thinker=Recording(), budget=BotBudget(0.2, 20))
    assert runner.resume() == 1
    queued = runner.next_game()
    assert queued == game_id
    runner.play(queued)
    assert service.core.load(game_id).last_seq > before.last_seq


@pytest.mark.parametrize(
    ("remaining", "seconds"),
    [(None, 1.0), (120.0, 1.0), (2.0, 0.5), (0.01, 0.05)],
)
def test_a_short_clock_shortens_the_budget(remaining: float | None, seconds: float) -> None:
    assert BotBudget(1.0, 100).for_clock(remaining) == pytest.approx(seconds)


def test_without_a_wall_clock_ceiling_only_the_seats_clock_bounds_the_time() -> None:
    assert BotBudget(None, 100).for_clock(None) is None
    assert BotBudget(None, 100).for_clock(8.0) == pytest.approx(2.0)


def test_the_pool_answers_what_the_search_answers_here(service: Services) -> None:
    """A request crosses to a worker process and back: the same pick as on this thread (an
    iterations-only budget is reproducible)."""
    game_id = bot_game(service, "strong")
    match = service.core.load(game_id)
    request = ThinkRequest(
        "carcassonne",
        match.engine.dump(match.state),
        0,
        "strong",
        match.seed,
        match.seed_salt,
        match.version,
        None,
        40,
    )
    game = default_registry().game("carcassonne")
    here = think(request, game.engine, game.search)
    pool = ProcessThinker(1)
    try:
        assert pool(request) == here
    finally:
        pool.close()
    assert here in match.engine.legal_choices(match.state, 0)


def test_the_seats_clock_limits_the_thinking_time(service: Services) -> None:
    """In a game that gives each decision 8 s, a bot thinks at most a quarter of it: 2 s, not the
    5 s set (the clock of a seat the server plays does not run)."""
    game_id = bot_game(service, "strong", clock={"mode": "per_decision", "seconds": 8})
    thinker = Recording()
    assert service.play.play_bot_turn(game_id, thinker, BotBudget(5.0, 10))
    assert thinker.requests[0].seconds == pytest.approx(2.0)


def test_a_resigned_seat_is_played_at_the_games_stand_in_level(service: Services) -> None:
    created = service.lobby.create_game("carcassonne", None, None, clock={"stand_in": "strong"})
    game_id = created.match.id
    ann = service.seats.join(game_id, "ann")
    service.seats.join(game_id, "bob")
    service.seats.start(game_id, created.host_token)
    assert ann.token is not None
    service.seats.resign(game_id, ann.token)
    thinker = Recording()
    assert service.play.play_bot_turn(game_id, thinker, BotBudget(0.2, 10))
    assert [(r.seat, r.level) for r in thinker.requests] == [(0, "strong")]


def test_the_pools_workers_run_at_the_lowest_niceness_and_a_normal_policy() -> None:
    """A thinking bot yields to the server's processes but is never starved: niceness 19 in its
    own session, the normal policy (not ``SCHED_IDLE``, under which a busy machine stalls it)."""
    pool = ProcessThinker(1)
    try:
        worker = pool._executor()
        policy = worker.submit(os.sched_getscheduler, 0).result(timeout=300)
        niceness = worker.submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=300)
    finally:
        pool.close()
    assert policy == os.SCHED_OTHER
    assert niceness == NICENESS


def test_the_pools_workers_end_when_their_server_is_killed() -> None:
    """A server killed outright (SIGKILL: nothing of it runs) leaves no thinking worker behind."""
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\n"
            "from api.background.thinking import ProcessThinker\n"
            "pool = ProcessThinker(1)\n"
            "worker = pool._executor()\n"
            "print(worker.submit(__import__('os').getpid).result(timeout=300), flush=True)\n"
            "time.sleep(600)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        os.kill(server.pid, signal.SIGKILL)
        server.wait(30)

        def gone() -> bool:
            try:
                os.kill(worker, 0)
            except ProcessLookupError:
                return True
            try:
                with open(f"/proc/{worker}/stat") as stat:  # a zombie (not reaped yet) has ended
                    return stat.read().split(") ")[1].startswith("Z")
            except FileNotFoundError:
                return True

        eventually(gone, 30, "the worker ended with its server")
    finally:
        server.kill()
        server.wait(30)
