"""The Keythedral engine: the ``GameEngine`` interface over the frame machine."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import (
    JSON,
    Choice,
    Decision,
    Event,
    GameMeta,
    OptionSpec,
    Outcome,
)
from domain.games.keythedral import actions, flow, laws, transfers  # noqa: F401  (frames)
from domain.games.keythedral.bot import KeythedralSearchHooks
from domain.games.keythedral.core import answer, rebuild_pending
from domain.games.keythedral.invariants import check_invariants
from domain.games.keythedral.scoring import outcome
from domain.games.keythedral.setup import new_game
from domain.games.keythedral.state import State, dump_state, load_state
from domain.games.keythedral.view import prompt, view

META = GameMeta(
    slug="keythedral",
    name="Keythedral",
    min_players=2,
    max_players=5,
    description=(
        "Richard Breese's Keythedral (Pro Ludo edition): lay fields and cottages, send workers "
        "out, turn resources into places in the Keythedral, and play law cards against rivals."
    ),
    options=(
        OptionSpec(
            "length",
            "enum",
            "short",
            "Short game (17 building tiles) or full game (22: one orange space per row).",
            ("short", "full"),
        ),
        OptionSpec(
            "face_up_tiles",
            "bool",
            False,
            "Variant two: every building tile is face up from the start (rows are still bought in order).",
        ),
        OptionSpec(
            "first_player",
            "enum",
            "random",
            "Who starts the tile laying and round 1: 'random' (drawn from the game's seeded "
            "randomness) or a seat number '0' to '4' (the rules let the youngest player choose).",
            ("random", "0", "1", "2", "3", "4"),
        ),
        OptionSpec(
            "law_cards_face_up",
            "bool",
            False,
            "Open question Q3: the new-law cards lie face up instead of face down.",
            verified=False,
        ),
        OptionSpec(
            "optional_placement",
            "bool",
            False,
            "Open question Q1: placing workers is optional (by default a cottage must place its "
            "worker, and a house both, whenever a legal field exists).",
            verified=False,
        ),
    ),
)


class KeythedralEngine:
    meta = META
    search_hooks: KeythedralSearchHooks = KeythedralSearchHooks()

    def setup(
        self, players: int, options: Mapping[str, JSON], rng: random.Random
    ) -> tuple[State, list[Event]]:
        return new_game(players, options, rng)

    def decision(self, state: State) -> Decision | None:
        pending = state.pending
        if pending is None:
            return None
        if pending.decision is None:
            if pending.seats is not None:
                pending.decision = Decision(
                    tuple(pending.seats),
                    pending.kind,
                    prompt(pending.kind),
                    simultaneous=True,
                    data=pending.data,
                )
            else:
                pending.decision = _decision(pending.seat, pending.kind, pending.data)
        return pending.decision

    def legal_choices(self, state: State, seat: int) -> list[Choice]:
        pending = state.pending
        if pending is None:
            return []
        return list(pending.choices_of(seat))

    def apply(self, state: State, choices: Mapping[int, Choice]) -> list[Event]:
        events: list[Event] = []
        answer(state, choices, events)
        return events

    def view(self, state: State, viewer: int | None) -> dict[str, JSON]:
        return view(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state) if state.over else None

    def dump(self, state: State) -> dict[str, JSON]:
        return dump_state(state)

    def load(self, data: Mapping[str, JSON]) -> State:
        state = load_state(dict(data))
        rebuild_pending(state)
        return state

    def check_invariants(self, state: State) -> list[str]:
        """Broken invariants (conservation, no negatives, board consistency), in words."""
        return check_invariants(state)


_DECISIONS: dict[tuple[object, ...], Decision] = {}


def _decision(seat: int, kind: str, data: dict[str, JSON]) -> Decision:
    """Decisions are frozen and their data are scalars, so equal ones are shared, not rebuilt."""
    key = (seat, kind, *data.items()) if data else (seat, kind)
    found = _DECISIONS.get(key)
    if found is None:
        if len(_DECISIONS) > 50_000:
            _DECISIONS.clear()
        found = _DECISIONS[key] = Decision((seat,), kind, prompt(kind), data=data)
    return found


ENGINE = KeythedralEngine()
