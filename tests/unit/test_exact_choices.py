"""A choice is matched exactly as JSON (type and value): ``true`` or ``1.0`` is not the listed ``1``.

Python's ``==`` says ``True == 1 == 1.0``; a type twin that slipped through was stored in the state
and bricked a game for good. Every engine refuses every type twin of every listed choice, the
aggregate applies the listed object (never the client's copy), and the game stays loadable.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from domain.engine import JSON, Choice, GameEngine, find_listed_choice, same_json
from domain.errors import IllegalChoice
from domain.model.match import Match, MatchStatus, Seat
from domain.registry import default_registry
from tests.support.duel_game import DuelEngine

ENGINES: list[GameEngine[Any]] = [DuelEngine(), *default_registry()]


def twins(value: JSON) -> list[JSON]:
    """Values Python calls equal to ``value`` that are a different JSON value."""
    if isinstance(value, bool):
        return [int(value), float(value)]
    if isinstance(value, int):
        found: list[JSON] = [float(value)]
        if value in (0, 1):
            found.append(bool(value))
        return found
    if isinstance(value, float) and value.is_integer():
        return [int(value)]
    return []


def twin_choices(choice: Choice) -> list[Choice]:
    """Every copy of ``choice`` with one scalar (at any depth) replaced by a type twin."""
    found: list[Choice] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for key, value in items:
            if isinstance(value, dict | list):
                walk(value, (*path, key))
                continue
            for twin in twins(value):
                changed = copy.deepcopy(choice)
                target: Any = changed
                for step in path:
                    target = target[step]
                target[key] = twin
                found.append(changed)

    walk(choice, ())
    return found


def test_same_json_tells_types_apart() -> None:
    assert same_json({"a": [1, {"b": True}]}, {"a": [1, {"b": True}]})
    assert not same_json({"a": 1}, {"a": True})
    assert not same_json({"a": 1}, {"a": 1.0})
    assert not same_json({"a": 0}, {"a": False})
    assert not same_json({"a": [1]}, {"a": [1.0]})
    assert not same_json({"a": 1}, {"a": 1, "b": None})
    assert same_json({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert find_listed_choice([{"x": 1}, {"x": True}], {"x": True}) == {"x": True}
    assert find_listed_choice([{"x": 1}], {"x": 1.0}) is None


def new_match(engine: GameEngine[Any], players: int, seed: str) -> Match:
    match = Match(
        id="g",
        engine=engine,
        options=engine.meta.resolve_options(None),
        seed=seed,
        seed_commitment="c",
        host_token_hash="h",
        created_at=None,  # type: ignore[arg-type]
    )
    match.seats = [Seat(i, f"p{i}", f"t{i}") for i in range(players)]
    match.start()
    return match


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.meta.slug)
def test_type_twins_of_listed_choices_are_refused_and_the_game_stays_playable(
    engine: GameEngine[Any],
) -> None:
    players = engine.meta.min_players + 1
    match = new_match(engine, players, "twins")
    chooser = random.Random("twins")
    refused = 0
    steps = 0
    while match.status is MatchStatus.IN_PROGRESS and steps < 400:
        steps += 1
        decision = match.decision()
        assert decision is not None
        seat = next(s for s in decision.seats if s not in match.sealed)
        _, legal = match.choices_for(seat)
        listed = chooser.choice(legal)
        for twin in twin_choices(listed)[:3]:
            if find_listed_choice(legal, twin) is not None:
                continue  # the twin is itself listed (a game may list both 1 and true)
            with pytest.raises(IllegalChoice):
                match.submit(seat, twin)
            refused += 1
        match.submit(seat, json.loads(json.dumps(listed)))
        dumped = engine.dump(match.state)
        assert engine.dump(engine.load(json.loads(json.dumps(dumped)))) == dumped
    assert refused > 0, f"{engine.meta.slug}: no listed choice had a numeric or boolean field"


def test_the_listed_object_is_applied_not_the_clients_copy() -> None:
    engine = DuelEngine()
    match = new_match(engine, 2, "listed")
    client_copy = {"card": 1}
    match.submit(0, client_copy)
    client_copy["card"] = 3  # a later change to the client's object must not reach the game
    assert match.sealed[0] == {"card": 1}
    assert match.sealed[0] is not client_copy
