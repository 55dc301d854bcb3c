"""Random games of a game type through the match aggregate, as every viewer sees them.

The per-game JSON Schemas are drafted from these samples (``api/openapi/game_schemas.py``) and the
schema tests validate other samples against them: both need the same walk through a game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from domain.engine import Decision, GameEngine, event_for
from domain.model.match import DescribedDecision, Match
from domain.services.decisions import describe_decision

STEP_CAP = 20_000


@dataclass
class Snapshot:
    """One moment of a game: its views (per viewer), the decision and its choices per seat."""

    views: dict[int | None, dict[str, Any]]
    decision: DescribedDecision | None
    choices: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Played:
    slug: str
    players: int
    options: dict[str, Any]
    snapshots: list[Snapshot]
    events: list[tuple[int | None, str, dict[str, Any]]]
    """(viewer, type, data) of every event, as every viewer sees it."""


def variants(engine: GameEngine[Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every player count with the default options, then each other option value once."""
    meta = engine.meta
    defaults = meta.resolve_options(None)
    for players in range(meta.min_players, meta.max_players_for(defaults) + 1):
        yield players, defaults
    for spec in meta.options:
        values = (not spec.default,) if spec.kind == "bool" else spec.allowed
        for value in values:
            if value != spec.default:
                changed = {**defaults, spec.name: value}
                yield meta.max_players_for(changed), changed


def play(engine: GameEngine[Any], players: int, options: dict[str, Any], seed: str, every: int = 1) -> Played:
    """A random game to its end; a snapshot at the first decision and every ``every`` after."""
    match = Match(
        id="sample",
        engine=engine,
        options=dict(options),
        seed=seed,
        seed_commitment="-",
        host_token_hash="-",
        created_at=datetime.now(UTC),
    )
    for seat in range(players):
        match.join(f"player {seat}", f"hash {seat}")
    match.start()
    chooser = random.Random(seed)
    snapshots: list[Snapshot] = []
    steps = 0
    while (decision := match.decision()) is not None:
        steps += 1
        if steps > STEP_CAP:
            raise RuntimeError(f"{engine.meta.slug} did not end within {STEP_CAP} decisions")
        if steps % every == 0 or steps == 1:
            snapshots.append(_snapshot(match, decision))
        seat = next(s for s in decision.seats if s not in match.sealed)
        _, legal = match.choices_for(seat)
        match.submit(seat, chooser.choice(legal))
    snapshots.append(_snapshot(match, None))
    events = [
        (viewer, *event_for(recorded.event, viewer))
        for recorded in match.new_events
        for viewer in [None, *range(players)]
    ]
    return Played(engine.meta.slug, players, dict(options), snapshots, events)


def _snapshot(match: Match, decision: Decision | None) -> Snapshot:
    viewers = [None, *range(len(match.seats))]
    views = {viewer: match.view(viewer) or {} for viewer in viewers}
    described = describe_decision(decision, match, None) if decision else None
    choices = {seat: match.choices_for(seat)[1] for seat in (decision.seats if decision else ())}
    return Snapshot(views, described, choices)
