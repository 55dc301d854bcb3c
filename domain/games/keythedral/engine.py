"""The engine adapter: the ``GameEngine`` interface over the modules that hold the rules."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import JSON, Choice, Decision, Event, GameMeta, OptionSpec, Outcome, Stored
from domain.games.keythedral import actions, flow, laws, phases, transfers  # noqa: F401  (frames)
from domain.games.keythedral.bot import KeythedralSearchHooks
from domain.games.keythedral.invariants import check_invariants
from domain.games.keythedral.scoring import outcome
from domain.games.keythedral.setup import new_game
from domain.games.keythedral.state import State, dump_state, load_state
from domain.games.keythedral.view import view_state

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
    """Keythedral (Pro Ludo edition)."""

    meta: GameMeta = META
    search_hooks: KeythedralSearchHooks = KeythedralSearchHooks()

    def setup(
        self, players: int, options: Mapping[str, JSON], rng: random.Random
    ) -> tuple[State, list[Event]]:
        return new_game(players, options, rng)

    def decision(self, state: State) -> Decision | None:
        return flow.decision(state)

    def legal_choices(self, state: State, seat: int) -> list[Choice]:
        return flow.legal_choices(state, seat)

    def apply(self, state: State, choices: Mapping[int, Choice]) -> list[Event]:
        return flow.apply(state, choices)

    def view(self, state: State, viewer: int | None) -> dict[str, JSON]:
        return view_state(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state) if state.over else None

    def dump(self, state: State) -> dict[str, JSON]:
        return dump_state(state)

    def load(self, data: Stored) -> State:
        state = load_state(data)
        flow.rebuild_pending(state)
        return state

    def check_invariants(self, state: State) -> list[str]:
        """Broken invariants (conservation, no negatives, board consistency), in words."""
        return check_invariants(state)


ENGINE = KeythedralEngine()
