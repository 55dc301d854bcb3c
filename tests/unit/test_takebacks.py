"""Take-backs in every hosted game (issue 30 item 5), on the match aggregate with random play:
a decision that revealed nothing is taken back at once, a reveal ends every take-back, after
other seats decided it is a request they accept or refuse, and the state after a take-back is
the replay of the seed and the choices that still count."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from domain.engine import Event
from domain.errors import NoTakeBackRequest, NothingToTakeBack, TakeBackPending, TakeBacksOff
from domain.manifest import HostedGame
from domain.model.match import Match, effective_choices
from domain.model.seeding import commitment, rng_for_seed
from domain.model.takebacks import MAX_POINTS, TakeBacks
from domain.registry import default_registry
from tests.support.json_values import untyped

REGISTRY = default_registry()
GAMES = {
    "carcassonne": ({"abbey_and_mayor": True}, 2),
    "im-schutze-der-burg": ({}, 2),
    "keythedral": ({}, 3),
}
REVEALING = {
    "carcassonne": {"tile_drawn", "tile_discarded"},
    "im-schutze-der-burg": {"reveal", "winter_card"},
    "keythedral": {"field_laid", "law_procured", "law_played", "law_vetoed", "row_revealed", "tile_swapped"},
}
"""Event types each game's module docstring names as reveals."""
STEPS = 4000


def nothing_recorded() -> list[Any]:
    return []  # the aggregate's own ``new_choices`` hold every choice of a match never saved


def new_match(slug: str, seed: str, allowed: bool = True) -> Match:
    game: HostedGame[Any] = REGISTRY.game(slug)
    options, players = GAMES[slug]
    match = Match(
        id=f"{slug}-{seed}",
        engine=game.engine,
        options=game.engine.meta.resolve_options(options),
        seed=seed,
        seed_commitment=commitment(seed, "salt"),
        host_token_hash="",
        created_at=datetime.now(UTC),
        takebacks=TakeBacks(allowed),
        takeback_rules=game.takebacks,
    )
    for seat in range(players):
        match.join(f"p{seat}", f"token{seat}")
    match.start()
    return match


def dump(match: Match) -> Any:
    return match.engine.dump(match.state)


def replayed(match: Match) -> Any:
    """The state replayed from the seed and the recorded choices, as ``ReplayService`` does."""
    state, _ = match.engine.setup(len(match.seats), match.options, rng_for_seed(match.seed))
    for applied in effective_choices(match.new_choices):
        match.engine.apply(state, applied.choices)
    return match.engine.dump(state)


def play_one(match: Match, rng: random.Random) -> tuple[int, list[Event]]:
    """One random choice of one deciding seat; returns the seat and the engine's events."""
    decision = match.decision()
    assert decision is not None
    seat = rng.choice([s for s in decision.seats if s not in match.sealed])
    choice = rng.choice(match.engine.legal_choices(match.state, seat))
    result = match.submit(seat, choice)
    return seat, [recorded.event for recorded in result.events]


def own_turn(match: Match) -> int | None:
    """The seat whose own (not simultaneous) decision is due, if any."""
    decision = match.decision()
    if decision is None or decision.simultaneous:
        return None
    return decision.seats[0]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_decision_that_revealed_nothing_is_taken_back_at_once(slug: str) -> None:
    rng = random.Random(1)
    match = new_match(slug, "quiet")
    kinds: set[str] = set()
    for _ in range(STEPS):
        if match.is_over or len(kinds) >= 3:
            break
        seat = own_turn(match)
        if seat is None:
            play_one(match, rng)
            continue
        before, decision, view_before = dump(match), match.decision(), match.view(seat)
        assert decision is not None
        played, _ = play_one(match, rng)
        target = match.takebacks.target_of(played)
        if target is None or match.takebacks.deciders_since(target) - {played} or match.is_over:
            continue
        version = match.version
        events = match.request_takeback(played, nothing_recorded)
        assert [e.event.type for e in events] == ["taken_back"]
        assert dump(match) == before and match.decision() == decision
        assert match.version == version + 1 and match.decision_version == match.version
        assert events[0].for_viewer(played)["data"]["view"] == view_before == match.view(played)
        assert events[0].for_viewer(None)["data"]["view"] == match.view(None)
        assert replayed(match) == dump(match)
        kinds.add(decision.kind)
        if rng.random() < 0.5:
            play_one(match, rng)  # go on with another choice, or make the same decision again
    assert len(kinds) >= 3, kinds
    assert replayed(match) == dump(match)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_reveal_ends_every_take_back(slug: str) -> None:
    rng = random.Random(2)
    match = new_match(slug, "reveal")
    refused = 0
    for _ in range(STEPS):
        if match.is_over or refused >= 3:
            break
        _, events = play_one(match, rng)
        if not any(event.type in REVEALING[slug] for event in events) or match.is_over:
            continue
        assert match.takebacks.points == []
        for anyone in range(len(match.seats)):
            with pytest.raises(NothingToTakeBack):
                match.request_takeback(anyone, nothing_recorded)
        refused += 1
    assert refused >= 3


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_after_other_seats_decided_a_take_back_is_asked_and_answered(slug: str) -> None:
    rng = random.Random(3)
    flows = 0
    for attempt in range(40):
        match = new_match(slug, f"ask-{attempt}")
        befores: dict[int, Any] = {}
        for _ in range(STEPS):
            if match.is_over:
                break
            befores[match.version] = dump(match)
            play_one(match, rng)
            asking = next(
                (
                    seat
                    for seat in range(len(match.seats))
                    if (index := match.takebacks.target_of(seat)) is not None
                    and match.takebacks.deciders_since(index) - {seat}
                ),
                None,
            )
            if asking is None or match.is_over:
                continue
            point = match.takebacks.points[match.takebacks.target_of(asking) or 0]
            before = befores[point.version - 1]
            asked = _ask_refuse_then_accept(match, asking)
            assert dump(match) == before, "the state before the decision taken back"
            assert replayed(match) == dump(match)
            assert asked, "someone decided since, so someone was asked"
            flows += 1
            break
        if flows >= 2:
            break
    assert flows >= 2


def _ask_refuse_then_accept(match: Match, asking: int) -> list[int]:
    state = dump(match)
    requested = match.request_takeback(asking, nothing_recorded)
    assert [e.event.type for e in requested] == ["takeback_requested"]
    waiting = [int(seat) for seat in untyped(requested[0].event.data)["waiting"]]
    assert waiting and asking not in waiting and dump(match) == state
    with pytest.raises(TakeBackPending):
        match.request_takeback(asking, nothing_recorded)
    with pytest.raises(NoTakeBackRequest):
        match.answer_takeback(asking, True, nothing_recorded)
    refused = match.answer_takeback(waiting[-1], False, nothing_recorded)
    assert [e.event.type for e in refused] == ["takeback_refused"]
    assert refused[0].event.data == {"seat": asking, "by": waiting[-1]}
    assert match.takebacks.request is None and dump(match) == state
    match.request_takeback(asking, nothing_recorded)
    for answering in waiting[:-1]:
        accepted = match.answer_takeback(answering, True, nothing_recorded)
        assert [e.event.type for e in accepted] == ["takeback_accepted"] and dump(match) == state
    done = match.answer_takeback(waiting[-1], True, nothing_recorded)
    assert [e.event.type for e in done] == ["takeback_accepted", "taken_back"]
    assert done[-1].event.data["accepted"] == sorted(waiting)
    return waiting


def test_a_choice_made_while_a_request_waits_cancels_it() -> None:
    rng = random.Random(4)
    for attempt in range(40):
        match = new_match("keythedral", f"cancel-{attempt}")
        for _ in range(STEPS):
            if match.is_over:
                break
            play_one(match, rng)
            for seat in range(len(match.seats)):
                index = match.takebacks.target_of(seat)
                if index is None or not match.takebacks.deciders_since(index) - {seat}:
                    continue
                match.request_takeback(seat, nothing_recorded)
                _, events = play_one(match, rng)
                assert match.takebacks.request is None
                cancelled = [e.data for e in events if e.type == "takeback_cancelled"]
                assert cancelled == [{"seat": seat, "reason": "game_moved"}]
                with pytest.raises(NoTakeBackRequest):
                    match.answer_takeback((seat + 1) % len(match.seats), True, nothing_recorded)
                return
    pytest.fail("no request situation found")


def test_a_game_created_without_take_backs_refuses_them() -> None:
    match = new_match("carcassonne", "off", allowed=False)
    play_one(match, random.Random(5))
    assert match.takebacks.points == []
    with pytest.raises(TakeBacksOff):
        match.request_takeback(0, nothing_recorded)


def test_a_seat_with_no_decision_yet_has_nothing_to_take_back() -> None:
    match = new_match("carcassonne", "fresh")
    assert not match.can_take_back(1)
    with pytest.raises(NothingToTakeBack):
        match.request_takeback(1, nothing_recorded)


def test_only_the_latest_decisions_are_kept_for_taking_back() -> None:
    rng = random.Random(6)
    match = new_match("keythedral", "bounded")
    longest = 0
    for _ in range(STEPS):
        if match.is_over:
            break
        play_one(match, rng)
        longest = max(longest, len(match.takebacks.points))
    assert longest == MAX_POINTS  # reached, never passed
