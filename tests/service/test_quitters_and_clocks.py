"""Resigning, turn clocks and abandoned lobbies with fakes and a clock that moves on command."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.bots import BOT_LEVELS
from domain.engine import JSON
from domain.errors import (
    Forbidden,
    GameNotInProgress,
    InvalidOptions,
    SeatResigned,
    TooManyBotOnlyGames,
)
from domain.model.clocks import DEFAULT_STAND_IN, STAND_IN_LEVELS
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.deadlines import DeadlineService
from tests.support.duel_game import DuelEngine
from tests.support.duel_play import person_token
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock
from tests.support.json_values import untyped


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def publisher() -> FakePublisher:
    return FakePublisher()


@pytest.fixture
def service(clock: ManualClock, publisher: FakePublisher) -> Services:
    store = FakeRepository()
    return Services.build(lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), publisher, clock)


@pytest.fixture
def deadlines(service: Services) -> DeadlineService:
    return DeadlineService(service.core, lobby_ttl=timedelta(hours=1))


def start(
    service: Services, players: int = 2, rounds: int = 1, clock: dict[str, JSON] | None = None
) -> tuple[str, list[str]]:
    created = service.lobby.create_game("duel", {"rounds": rounds}, "seed", clock=clock)
    tokens = [person_token(service.seats.join(created.match.id, f"p{i}")) for i in range(players)]
    service.seats.start(created.match.id, created.host_token)
    return created.match.id, tokens


def run_bots(service: Services, game_id: str) -> int:
    played = 0
    while service.play.play_bot_turn(game_id):
        played += 1
    return played


def event_types(publisher: FakePublisher) -> list[str]:
    return [e.event.type for _, events in publisher.published for e in events]


def test_a_resigned_seat_is_played_by_a_bot_and_the_result_says_who_resigned(
    service: Services, publisher: FakePublisher
) -> None:
    game_id, tokens = start(service, players=3, rounds=2)
    service.seats.resign(game_id, tokens[1])
    match = service.core.load(game_id)
    assert match.seats[1].stand_in == "resigned" and match.seats[1].plays_itself
    assert "seat_resigned" in event_types(publisher)
    with pytest.raises(SeatResigned):
        service.play.submit(game_id, tokens[1], {"card": 1})
    with pytest.raises(SeatResigned):
        service.seats.resign(game_id, tokens[1])

    assert run_bots(service, game_id) == 1  # the zombie seals its card
    for _round in range(2):
        service.play.submit(game_id, tokens[0], {"card": 3 - _round})
        service.play.submit(game_id, tokens[2], {"card": 1 + _round})
        run_bots(service, game_id)
        match = service.core.load(game_id)
        decision = match.decision()
        if decision is not None and decision.kind == "bank":
            (banker,) = decision.seats
            if not match.seats[banker].plays_itself:
                service.play.submit(game_id, tokens[banker], {"action": "pass"})
            run_bots(service, game_id)
    match = service.core.load(game_id)
    assert match.status.value == "finished"
    assert match.result is not None
    assert match.result["resigned"] == [1] and match.result["forfeited"] == []
    assert 1 not in untyped(match.result)["winners"] and untyped(match.result)["winners"]


def test_only_a_seat_of_a_game_in_progress_resigns(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    token = service.seats.join(created.match.id, "a").token
    with pytest.raises(GameNotInProgress):
        service.seats.resign(created.match.id, token)
    with pytest.raises(Forbidden):
        service.seats.resign(created.match.id, created.host_token)


def expired_events(publisher: FakePublisher) -> list[object]:
    return [e.event.data for _, es in publisher.published for e in es if e.event.type == "clock_expired"]


def test_a_lapse_hands_the_stand_in_only_the_lapsed_decision_and_the_seat_keeps_its_clock(
    service: Services, deadlines: DeadlineService, clock: ManualClock, publisher: FakePublisher
) -> None:
    game_id, tokens = start(service, rounds=2, clock={"mode": "per_decision", "seconds": 30})
    service.play.submit(game_id, tokens[0], {"card": 3})
    match = service.core.load(game_id)
    assert match.timing.seats[1].deadline == clock.now() + timedelta(seconds=30)
    assert match.timing.seats[0].deadline is None  # sealed: its clock stopped

    clock.advance(29)
    assert deadlines.fire_due() == 0
    clock.advance(1)
    assert deadlines.fire_due() == 1
    assert deadlines.fire_due() == 0  # exactly once
    assert service.core.load(game_id).seats[1].stand_in == "lapsed"
    assert expired_events(publisher) == [{"seat": 1, "action": "bot", "until": "decision", "lapses": 1}]

    assert run_bots(service, game_id) == 1  # the stand-in seals seat 1's card: reveal
    assert run_bots(service, game_id) == 0  # and plays nothing more for it
    match = service.core.load(game_id)
    assert match.seats[1].stand_in is None
    service.play.submit(game_id, tokens[0], {"action": "pass"})  # round 1's bank is seat 0's
    match = service.core.load(game_id)
    assert match.timing.seats[1].deadline == clock.now() + timedelta(seconds=30), "its clock again"
    back = service.play.pending(game_id, tokens[1]).choices[0]
    service.play.submit(game_id, tokens[1], back)  # the player is back in time
    assert service.core.load(game_id).timing.seats[1].lapses == 0


def test_only_lapses_in_a_row_hand_the_seat_to_the_stand_in_until_the_player_returns(
    service: Services, deadlines: DeadlineService, clock: ManualClock, publisher: FakePublisher
) -> None:
    """Against bots a short clock must not let them play the game out in seconds: every lapse
    costs the whole clock, and only the third in a row keeps the stand-in in the seat."""
    game_id, tokens = start(service, rounds=3, clock={"mode": "per_decision", "seconds": 30})
    service.play.submit(game_id, tokens[0], {"card": 3})
    clock.advance(30)
    assert deadlines.fire_due() == 1 and run_bots(service, game_id) == 1
    service.play.submit(game_id, tokens[0], {"action": "pass"})
    service.play.submit(game_id, tokens[0], {"card": 2})
    assert run_bots(service, game_id) == 0, "the stand-in waits for the clock, not for the bot"
    clock.advance(30)
    assert deadlines.fire_due() == 1 and run_bots(service, game_id) == 1
    clock.advance(30)  # round 2's bank is seat 1's: a third lapse in a row
    assert deadlines.fire_due() == 1
    assert service.core.load(game_id).seats[1].stand_in == "timeout"
    assert [e["until"] for e in expired_events(publisher)] == ["decision", "decision", "return"]  # type: ignore[index]
    assert run_bots(service, game_id) >= 1
    service.seats.return_to_seat(game_id, tokens[1])
    assert service.core.load(game_id).seats[1].stand_in is None
    assert "seat_returned" in event_types(publisher)


def test_the_lapses_before_stand_in_are_fixed_when_the_game_is_created_and_shown_in_its_view(
    service: Services, deadlines: DeadlineService, clock: ManualClock
) -> None:
    """The server's setting when the game was created counts, not the one of the firing
    instance: a player is told how many lapses remain, and that number holds."""
    service.lobby.lapses_before_stand_in = 2
    game_id, tokens = start(service, rounds=3, clock={"mode": "per_decision", "seconds": 30})
    assert deadlines.lapses_before_stand_in == 3
    public = untyped(service.core.load(game_id).timing.public(clock.now()))
    assert public["lapses_before_stand_in"] == 2
    service.play.submit(game_id, tokens[0], {"card": 3})
    clock.advance(30)
    assert deadlines.fire_due() == 1 and run_bots(service, game_id) == 1
    assert untyped(service.core.load(game_id).timing.public(clock.now()))["seats"][1]["lapses"] == 1
    service.play.submit(game_id, tokens[0], {"action": "pass"})
    service.play.submit(game_id, tokens[0], {"card": 2})
    clock.advance(30)
    assert deadlines.fire_due() == 1
    assert service.core.load(game_id).seats[1].stand_in == "timeout"  # the second lapse, not the third


def test_a_fischer_clock_forfeits_the_seat_and_the_game_still_finishes(
    service: Services, deadlines: DeadlineService, clock: ManualClock
) -> None:
    game_id, tokens = start(
        service, rounds=1, clock={"mode": "fischer", "seconds": 60, "increment": 5, "on_expiry": "forfeit"}
    )
    clock.advance(10)
    service.play.submit(game_id, tokens[0], {"card": 2})
    assert service.core.load(game_id).timing.seats[0].bank == 55
    clock.advance(50)
    assert deadlines.fire_due() == 1
    match = service.core.load(game_id)
    assert match.seats[1].stand_in == "forfeited"
    with pytest.raises(SeatResigned):
        service.seats.return_to_seat(game_id, tokens[1])
    run_bots(service, game_id)
    match = service.core.load(game_id)
    if match.decision() is not None:
        service.play.submit(game_id, tokens[0], {"action": "pass"})
    match = service.core.load(game_id)
    assert match.status.value == "finished"
    assert match.result is not None and match.result["forfeited"] == [1]
    assert match.result["winners"] == [0]
    assert match.timing.seats[1].used == 60 and match.timing.next_deadline() is None


def test_an_abandoned_lobby_expires_with_a_recorded_event(
    service: Services, deadlines: DeadlineService, clock: ManualClock, publisher: FakePublisher
) -> None:
    old = service.lobby.create_game("duel", None, None).match.id
    clock.advance(3000)
    fresh = service.lobby.create_game("duel", None, None).match.id
    clock.advance(601)
    assert deadlines.fire_due() == 1
    assert service.core.load(old).status.value == "aborted"
    assert service.core.load(fresh).status.value == "lobby"
    (aborted,) = [e for _, es in publisher.published for e in es if e.event.type == "game_aborted"]
    assert aborted.event.data["reason"] == "lobby_expired"


def test_clock_settings_are_checked_when_the_game_is_created(service: Services) -> None:
    with pytest.raises(InvalidOptions, match="needs seconds"):
        service.lobby.create_game("duel", None, None, clock={"mode": "fischer", "seconds": 0})


def test_a_game_whose_people_all_lapsed_counts_against_the_cap_on_games_of_bots_only(
    service: Services, deadlines: DeadlineService, clock: ManualClock
) -> None:
    """Seating people who never play, on a short clock, must not get round the cap."""
    service.seats.max_bot_only_games = 1
    start(service, rounds=3, clock={"mode": "per_decision", "seconds": 5})
    bots = service.lobby.create_game("duel", None, None)
    service.seats.join(bots.match.id, "b1", bot="random", token=bots.host_token)
    service.seats.join(bots.match.id, "b2", bot="random", token=bots.host_token)
    clock.advance(5)
    assert deadlines.fire_due() == 1  # both seats lapse: the server plays every seat now
    with pytest.raises(TooManyBotOnlyGames):
        service.seats.start(bots.match.id, bots.host_token)


def play_own_decision(service: Services, game_id: str, tokens: list[str]) -> None:
    """One awaited seat's person plays its first legal choice with its own token."""
    match = service.core.load(game_id)
    seat = min(match.awaited_seats())
    choice = match.engine.legal_choices(match.state, seat)[0]
    service.play.submit(game_id, tokens[seat], choice)


def test_a_game_whose_people_never_play_still_counts_after_the_stand_in_played_their_decisions(
    service: Services, deadlines: DeadlineService, clock: ManualClock
) -> None:
    """Issue 31 item 12: between two lapses the seats are the people's again, but nobody has
    played: the game stays a game of bots only until a person acts."""
    service.seats.max_bot_only_games = 1
    game_id, tokens = start(service, rounds=3, clock={"mode": "per_decision", "seconds": 5})
    bots = service.lobby.create_game("duel", None, None)
    service.seats.join(bots.match.id, "b1", bot="random", token=bots.host_token)
    service.seats.join(bots.match.id, "b2", bot="random", token=bots.host_token)
    clock.advance(5)
    assert deadlines.fire_due() == 1
    assert run_bots(service, game_id) >= 1  # the stand-ins played the lapsed decisions
    match = service.core.load(game_id)
    assert match.status.value == "in_progress"
    assert all(seat.stand_in is None for seat in match.seats), "the seats are the people's again"
    with pytest.raises(TooManyBotOnlyGames):
        service.seats.start(bots.match.id, bots.host_token)
    play_own_decision(service, game_id, tokens)
    service.seats.start(bots.match.id, bots.host_token)  # a person played: the cap has room


def test_a_seat_silent_past_the_inactivity_limit_of_a_clockless_game_goes_to_the_stand_in(
    service: Services, deadlines: DeadlineService, clock: ManualClock, publisher: FakePublisher
) -> None:
    """No clock, yet nobody closing a tab blocks the game for ever: the server's limit applies."""
    service.lobby.inactivity_days = 7
    game_id, tokens = start(service, rounds=2)
    assert service.core.load(game_id).timing.public(clock.now())["inactivity_days"] == 7
    service.play.submit(game_id, tokens[0], {"card": 3})
    clock.advance(7 * 86400 - 1)
    assert deadlines.fire_due() == 0
    clock.advance(1)
    assert deadlines.fire_due() == 1
    assert service.core.load(game_id).seats[1].stand_in == "timeout"
    assert expired_events(publisher) == [{"seat": 1, "action": "bot", "until": "return"}]
    assert run_bots(service, game_id) == 1
    service.seats.return_to_seat(game_id, tokens[1])
    assert service.core.load(game_id).seats[1].stand_in is None


def test_a_game_with_a_clock_or_a_server_without_a_limit_has_no_inactivity_deadline(
    service: Services, clock: ManualClock
) -> None:
    game_id, _ = start(service)
    assert service.core.load(game_id).timing.next_deadline() is None
    service.lobby.inactivity_days = 7
    clocked, _ = start(service, clock={"mode": "per_decision", "seconds": 60})
    match = service.core.load(clocked)
    assert match.timing.settings.inactivity_days is None
    assert match.timing.next_deadline() == clock.now() + timedelta(seconds=60)


def test_a_stand_in_plays_at_the_level_the_game_chose_greedy_unless_told(service: Services) -> None:
    default_id, default_tokens = start(service, players=3)
    strong_id, strong_tokens = start(service, players=3, clock={"stand_in": "strong"})
    for game_id, tokens in ((default_id, default_tokens), (strong_id, strong_tokens)):
        service.seats.resign(game_id, tokens[1])
    assert service.core.load(default_id).bot_level(1) == "greedy"
    strong = service.core.load(strong_id)
    assert strong.bot_level(1) == "strong" and strong.bot_level(0) is None
    assert (
        strong.timing.public(strong.timing.seats[0].since or service.core.clock.now())["stand_in"] == "strong"
    )


def test_a_stand_in_level_that_is_no_bot_level_is_refused(service: Services) -> None:
    with pytest.raises(InvalidOptions) as refused:
        service.lobby.create_game("duel", None, None, clock={"stand_in": "expert"})
    assert refused.value.detail.values["clock"] == "stand_in"


def test_every_stand_in_level_is_a_bot_level() -> None:
    assert set(STAND_IN_LEVELS) <= set(BOT_LEVELS) and DEFAULT_STAND_IN == "greedy"
