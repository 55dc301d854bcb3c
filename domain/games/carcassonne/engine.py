"""The engine adapter: the ``GameEngine`` interface over the modules that hold the rules."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import JSON, Choice, Decision, Event, GameMeta, OptionSpec, Outcome, PlayerLimit, Stored
from domain.games.carcassonne import board, flow
from domain.games.carcassonne.bot import CarcassonneSearchHooks
from domain.games.carcassonne.invariants import check_invariants
from domain.games.carcassonne.scoring import outcome
from domain.games.carcassonne.setup import new_game
from domain.games.carcassonne.state import OVER, State, copy_state, dump_state, load_state
from domain.games.carcassonne.view import view_state

META = GameMeta(
    slug="carcassonne",
    name="Carcassonne",
    min_players=2,
    max_players=6,
    description=(
        "Tile-laying in southern France: build roads, cities, cloisters and fields, claim them "
        "with followers. Optionally with the Abbey & Mayor expansion (abbeys, mayors, wagons, "
        "barns)."
    ),
    options=(
        OptionSpec(
            "abbey_and_mayor",
            "bool",
            True,
            "Play with the Abbey & Mayor expansion (12 tiles, abbey, mayor, wagon, barn).",
        ),
        OptionSpec(
            "abbey_end_round",
            "enum",
            "mandatory",
            "After the last land tile: no abbey round, an optional one, or a mandatory one.",
            ("none", "optional", "mandatory"),
        ),
        OptionSpec(
            "wagon_move",
            "enum",
            "current",
            "Wagon range: 'current' = the 3x3 tiles around it; 'classic' = connected features.",
            ("current", "classic"),
        ),
        OptionSpec(
            "tiny_city_points",
            "int",
            4,
            "Points of a completed 2-tile city without pennants (classic: 2).",
            (4, 2),
        ),
        OptionSpec(
            "farm_scoring",
            "enum",
            "v3",
            "Farm scoring: v3 current (3 per city per field), v2 (a city once per "
            "player), v1 (4 per city to the farmer majority around it).",
            ("v3", "v2", "v1"),
        ),
        OptionSpec("barn_on_barn_field", "bool", False, "Allow a barn on a field that already holds a barn."),
    ),
    player_limits=(PlayerLimit("abbey_and_mayor", False, 5),),
)
DEFAULTS = {spec.name: spec.default for spec in META.options}


class CarcassonneEngine:
    """Carcassonne (current edition) with the Abbey & Mayor expansion as an option."""

    meta: GameMeta = META
    search_hooks: CarcassonneSearchHooks = CarcassonneSearchHooks()

    def setup(
        self, players: int, options: Mapping[str, JSON], rng: random.Random
    ) -> tuple[State, list[Event]]:
        return new_game(players, {**DEFAULTS, **options}, rng)

    def decision(self, state: State) -> Decision | None:
        return flow.decision(state)

    def legal_choices(self, state: State, seat: int) -> list[Choice]:
        return flow.legal_choices(state, seat)

    def apply(self, state: State, choices: Mapping[int, Choice]) -> list[Event]:
        return flow.apply(state, choices)

    def view(self, state: State, viewer: int | None) -> dict[str, JSON]:
        return view_state(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state) if state.phase == OVER else None

    def dump(self, state: State) -> dict[str, JSON]:
        return dump_state(state)

    def load(self, data: Stored) -> State:
        state = load_state(data)
        board.restore(state)
        return state

    def copy_state(self, state: State) -> State:
        """Copies the board's derived structures (``load`` rebuilds them tile by tile): a fiftieth
        of a load's cost on a full board, so storage keeps live states (``HostedGame.copy_state``)."""
        return copy_state(state)

    def check_invariants(self, state: State) -> list[str]:
        """Violated invariants of ``state`` in words (empty when all hold); for simulations."""
        return check_invariants(state)
