"""Random playouts with invariants after every step, round trips, replay and secrecy."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.engine import event_for
from domain.games.im_schutze_der_burg.data import PLAYER_COUNTS, winter_rounds

from .support import E, check_invariants

CASES = [(n, w) for n in (2, 3, 4) for w in (False, True)]


def _play(players: int, winter: bool, seed: int, check: bool = True) -> tuple[Any, list[Any]]:
    rng = random.Random(seed * 7919 + players)
    s, events = E.setup(players, {"winter": winter}, random.Random(seed))
    log: list[Any] = []
    steps = 0
    while (d := E.decision(s)) is not None:
        choices = {seat: rng.choice(E.legal_choices(s, seat)) for seat in d.seats}
        log.append(choices)
        events = E.apply(s, choices)
        steps += 1
        assert steps < 2000
        if check:
            check_invariants(s)
            for event in events:
                for viewer in (None, *range(players)):
                    json.dumps(event_for(event, viewer))
    assert s.over and s.round <= PLAYER_COUNTS[players].rounds
    return s, log


@pytest.mark.parametrize(("players", "winter"), CASES)
def test_random_games_keep_every_invariant_and_end(players: int, winter: bool) -> None:
    for seed in range(12):
        s, _ = _play(players, winter, seed)
        outcome = E.outcome(s)
        assert outcome is not None
        assert len(outcome.scores) == players and outcome.winners
        json.dumps(outcome.details)
        if winter and s.round == s.rounds:
            assert len(s.winter_seen) == len(winter_rounds(s.rounds))


@pytest.mark.parametrize(("players", "winter"), CASES)
def test_same_seed_and_choices_reproduce_the_game(players: int, winter: bool) -> None:
    first, log = _play(players, winter, 5, check=False)
    s, _ = E.setup(players, {"winter": winter}, random.Random(5))
    for choices in log:
        E.apply(s, choices)
    assert E.dump(s) == E.dump(first)
    assert E.outcome(s) == E.outcome(first)


@pytest.mark.parametrize(("players", "winter"), CASES)
def test_dump_json_load_round_trip_mid_game_and_continue(players: int, winter: bool) -> None:
    rng = random.Random(3)
    s, _ = E.setup(players, {"winter": winter}, random.Random(3))
    step = 0
    while (d := E.decision(s)) is not None:
        dumped = E.dump(s)
        text = json.dumps(dumped)
        assert json.loads(text) == dumped
        copy = E.load(json.loads(text))
        assert E.dump(copy) == dumped
        assert E.decision(copy) == d
        for seat in d.seats:
            assert E.legal_choices(copy, seat) == E.legal_choices(s, seat)
        choices = {seat: rng.choice(E.legal_choices(s, seat)) for seat in d.seats}
        if step % 7 == 0:
            E.apply(copy, choices)
            E.apply(s, choices)
            assert E.dump(copy) == E.dump(s)
            s = copy
        else:
            E.apply(s, choices)
        step += 1


@pytest.mark.parametrize(("players", "winter"), CASES)
def test_views_are_json_and_never_show_another_seats_secret_pick(players: int, winter: bool) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        s, _ = E.setup(players, {"winter": winter}, random.Random(seed))
        while (d := E.decision(s)) is not None:
            for viewer in (None, *range(players)):
                view = E.view(s, viewer)
                json.dumps(view)
                if not s.revealed:
                    assert "picks" not in view
                    if viewer is None or not s.picks:
                        assert "my_picks" not in view
            text = json.dumps([d.kind, d.prompt, dict(d.data)])
            assert "my_picks" not in text and 'picks"' not in text
            choices = {seat: rng.choice(E.legal_choices(s, seat)) for seat in d.seats}
            E.apply(s, choices)


def test_pick_decision_is_one_simultaneous_decision_for_the_seats_with_a_choice() -> None:
    s, _ = E.setup(4, {}, random.Random(0))
    d = E.decision(s)
    assert d is not None and d.simultaneous and d.kind == "pick_cards"
    assert d.seats == (0, 1, 2, 3)
    assert {"card": "master_builder"} not in E.legal_choices(s, 0)
    assert len(E.legal_choices(s, 0)) == 7


def test_two_player_pick_lists_every_unordered_pair_once() -> None:
    s, _ = E.setup(2, {}, random.Random(0))
    choices = E.legal_choices(s, 0)
    assert len(choices) == 21  # C(7, 2): the Master Builder is barred with a full hand
    assert {"cards": ["messenger", "trader"]} in choices
    assert {"cards": ["trader", "messenger"]} not in choices


def test_only_the_deciding_seat_gets_choices() -> None:
    s, _ = E.setup(4, {}, random.Random(0))
    E.apply(s, {seat: {"card": "trader"} for seat in range(4)})
    d = E.decision(s)
    assert d is not None and d.kind == "trader" and not d.simultaneous
    assert d.seats == (s.start,)
    for seat in range(4):
        assert bool(E.legal_choices(s, seat)) == (seat == s.start)
