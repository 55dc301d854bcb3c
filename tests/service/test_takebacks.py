"""Take-backs through the services with fakes and a clock that moves on command: the default per
game, the clocks given back, the events published, and the replay of the stored choices."""

from __future__ import annotations

from typing import Any

import pytest

from domain.engine import JSON
from domain.errors import InvalidOptions, NothingToTakeBack, Unauthorized
from domain.model.match import effective_choices
from domain.model.seeding import rng_for_seed
from domain.registry import default_registry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.replay import ReplayService
from domain.services.takebacks import TakeBackService
from domain.services.webhooks import WebhookService
from tests.support.duel_game import DuelEngine
from tests.support.duel_play import person_token
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock
from tests.support.json_values import untyped

FISCHER: dict[str, JSON] = {"mode": "fischer", "seconds": 100, "increment": 10}


@pytest.fixture
def store() -> FakeRepository:
    return FakeRepository()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def publisher() -> FakePublisher:
    return FakePublisher()


@pytest.fixture
def services(store: FakeRepository, clock: ManualClock, publisher: FakePublisher) -> Services:
    registry = default_registry()
    registry.register(DuelEngine())
    return Services.build(lambda: FakeUnitOfWork(store), registry, publisher, clock)


def test_take_backs_are_off_by_default_only_for_a_game_that_may_be_rated(services: Services) -> None:
    def allowed(seed: str | None = None, **given: Any) -> bool:
        return services.lobby.create_game("carcassonne", None, seed, **given).match.takebacks.allowed

    assert allowed() is True  # no clock: never rated
    assert allowed(clock=FISCHER) is False  # a clock and the server's seed: may be rated
    assert allowed("s", clock=FISCHER, seed_mode="host") is True  # the host's seed: unrated
    assert allowed(clock=FISCHER, takebacks=True) is True
    assert allowed(takebacks=False) is False
    with pytest.raises(InvalidOptions):
        services.lobby.create_game("duel", {"rounds": 1}, None, takebacks=True)  # it has no rules


def _figure_step_tile(services: Services, game_id: str) -> dict[str, Any]:
    """A legal tile placement of the seat to play after which it is asked for a figure."""
    match = services.core.load(game_id)
    for choice in match.engine.legal_choices(match.state, 0):
        state = match.engine.load(match.engine.dump(match.state))
        match.engine.apply(state, {0: choice})
        decision = match.engine.decision(state)
        if decision is not None and decision.kind == "place_figure":
            return choice
    raise AssertionError("no placement offers a figure")


def test_a_take_back_gives_the_time_back_and_replays_as_the_game_stands(
    services: Services, store: FakeRepository, clock: ManualClock, publisher: FakePublisher
) -> None:
    takebacks = TakeBackService(services.core)
    created = services.lobby.create_game("carcassonne", None, "seed", "host", clock=FISCHER)
    game_id = created.match.id
    tokens = [person_token(services.seats.join(game_id, name)) for name in ("ada", "bo")]
    services.seats.start(game_id, created.host_token)
    before = services.core.load(game_id)
    assert before.decision() is not None and before.decision().kind == "place_tile"  # type: ignore[union-attr]
    clock.advance(30)
    services.play.submit(game_id, tokens[0], _figure_step_tile(services, game_id))
    placed = services.core.load(game_id)
    assert placed.timing.seats[0].bank == 80 and placed.timing.seats[0].used == 30  # 100 - 30 + 10
    placed_seq = placed.last_seq
    clock.advance(5)
    with pytest.raises(Unauthorized):
        takebacks.request(game_id, None)
    with pytest.raises(NothingToTakeBack):
        takebacks.request(game_id, tokens[1])

    after = takebacks.request(game_id, tokens[0])

    loaded = services.core.load(game_id)
    assert loaded.engine.dump(loaded.state) == before.engine.dump(before.state)
    seat_clock = loaded.timing.seats[0]
    assert (seat_clock.used, seat_clock.bank) == (0, 100)  # the 30 s, the increment and the 5 s back
    assert seat_clock.since == clock.now() and seat_clock.deadline is not None
    assert (seat_clock.deadline - clock.now()).total_seconds() == 100
    _, published = publisher.published[-1]
    assert [e.event.type for e in published] == ["taken_back"]
    assert published[-1].next_for[0]["decision"]["kind"] == "place_tile"  # what to answer next
    assert published[-1].for_viewer(0)["data"]["view"] == loaded.view(0)
    assert after.version == loaded.version

    applied = store.applied_choices(game_id)
    assert [a.undoes for a in applied] == [(), (applied[0].version,)]
    state, _ = loaded.engine.setup(2, loaded.options, rng_for_seed(loaded.seed))
    for kept in effective_choices(applied):
        loaded.engine.apply(state, kept.choices)
    assert loaded.engine.dump(state) == loaded.engine.dump(loaded.state)

    services.seats.abort(game_id, created.host_token)
    replays = ReplayService(services.core)
    final = services.core.load(game_id)
    assert replays.at(game_id, final.last_seq, None).matches_final_state is True
    at_placement = untyped(replays.at(game_id, placed_seq, None).state)
    at_end = untyped(replays.at(game_id, final.last_seq, None).state)
    assert at_placement != at_end and at_end == final.view(None)


def test_a_takeback_webhook_gets_the_take_back_events_as_its_seat_sees_them(
    services: Services, store: FakeRepository
) -> None:
    players = PlayerService(services.core, services.seats)
    webhooks = WebhookService(services.core, lambda url: None)
    ann = players.create("Ann")
    created = services.lobby.create_game("carcassonne", None, "seed", "host")
    game_id = created.match.id
    seat = players.join(game_id, ann.token, None)
    person_token(services.seats.join(game_id, "Bo"))
    hook = webhooks.register(ann.token, "https://ann.example/takebacks", ["takeback"], None)
    services.seats.start(game_id, created.host_token)
    assert seat.seat == 0
    services.play.submit(game_id, person_token(seat), _figure_step_tile(services, game_id))
    TakeBackService(services.core).request(game_id, person_token(seat))

    sent = [untyped(d.payload) for d in store.webhooks.outbox if d.endpoint_id == hook.id]
    assert [p["event"]["type"] for p in sent] == ["taken_back"]  # nothing else passes the filter
    assert sent[0]["seat"] == 0 and sent[0]["event"]["data"]["view"] == services.core.load(game_id).view(0)
