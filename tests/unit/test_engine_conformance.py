"""Every engine (the hosted ones and the test game) passes the same conformance checks:
random playouts to the end, JSON round trip of the state, replay from seed, views that are JSON and
never show a seat's secrets to another, and a catalog whose defaults are valid."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.engine import GameEngine
from domain.model.match import RESERVED_EVENT_TYPES
from domain.model.seeding import rng_for_seed
from domain.registry import default_registry
from tests.support.duel_game import DuelEngine

ENGINES: list[GameEngine[Any]] = [DuelEngine(), *default_registry()]
STEP_CAP = 20_000


def play(engine: GameEngine[Any], players: int, seed: str, checks: bool = True) -> Any:
    state, opening = engine.setup(players, engine.meta.resolve_options(None), rng_for_seed(seed))
    assert not [e.type for e in opening if e.type in RESERVED_EVENT_TYPES]
    chooser = random.Random(seed)
    steps = 0
    while (decision := engine.decision(state)) is not None:
        steps += 1
        assert steps < STEP_CAP, f"{engine.meta.slug} did not end within {STEP_CAP} decisions"
        assert decision.seats, "a decision names at least one seat"
        choices = {}
        for seat in decision.seats:
            legal = engine.legal_choices(state, seat)
            assert legal, f"{decision.kind}: seat {seat} is asked but has no legal choice"
            choices[seat] = chooser.choice(legal)
        if checks and steps % 7 == 1:
            dumped = engine.dump(state)
            assert engine.dump(engine.load(json.loads(json.dumps(dumped)))) == dumped
            for viewer in [None, *range(players)]:
                json.dumps(engine.view(state, viewer))
            json.dumps([decision.kind, decision.prompt, dict(decision.data)])
        events = engine.apply(state, choices)
        reserved = [e.type for e in events if e.type in RESERVED_EVENT_TYPES]
        assert not reserved, f"{engine.meta.slug} emits platform event types {reserved}"
        if checks:
            json.dumps([[e.type, dict(e.data), {str(k): v for k, v in e.private.items()}] for e in events])
    return state


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.meta.slug)
def test_random_playouts_end_with_an_outcome_for_every_player_count(engine: GameEngine[Any]) -> None:
    meta = engine.meta
    for players in range(meta.min_players, meta.max_players_for(meta.resolve_options(None)) + 1):
        state = play(engine, players, f"conformance-{players}")
        outcome = engine.outcome(state)
        assert outcome is not None
        assert len(outcome.scores) == players
        assert outcome.winners and set(outcome.winners) <= set(range(players))
        json.dumps(dict(outcome.details))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.meta.slug)
def test_same_seed_and_choices_replay_the_same_game(engine: GameEngine[Any]) -> None:
    players = engine.meta.min_players + 1
    first = play(engine, players, "replay", checks=False)
    second = play(engine, players, "replay", checks=False)
    assert engine.dump(first) == engine.dump(second)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.meta.slug)
def test_catalog_defaults_are_valid_options(engine: GameEngine[Any]) -> None:
    meta = engine.meta
    assert meta.min_players <= meta.max_players
    options = meta.resolve_options(None)
    for spec in meta.options:
        assert spec.validate(spec.default) == options[spec.name]
