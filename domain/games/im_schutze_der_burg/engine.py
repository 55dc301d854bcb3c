"""The engine adapter: the ``GameEngine`` interface over the modules that hold the rules."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import JSON, Choice, Decision, Event, GameMeta, OptionSpec, Outcome, Stored
from domain.games.im_schutze_der_burg import flow
from domain.games.im_schutze_der_burg.bot import SchutzeDerBurgSearchHooks
from domain.games.im_schutze_der_burg.invariants import check_invariants
from domain.games.im_schutze_der_burg.scoring import outcome
from domain.games.im_schutze_der_burg.setup import new_game
from domain.games.im_schutze_der_burg.state import State, dump_state, load_state
from domain.games.im_schutze_der_burg.view import view_state

META = GameMeta(
    slug="im-schutze-der-burg",
    name="Im Schutze der Burg",
    min_players=2,
    max_players=4,
    description=(
        "Inka & Markus Brand's castle-building game (eggertspiele 2008): choose character "
        "cards in secret, gather resources, build the castle and place helpers that score "
        "at the end."
    ),
    options=(
        OptionSpec(
            name="winter",
            kind="bool",
            default=False,
            verified=False,
            description=(
                "The Castle in Winter: winter cards come up in marked rounds. The card texts "
                "are reconstructed placeholders, not the published ones."
            ),
        ),
    ),
)


class SchutzeDerBurgEngine:
    """Im Schutze der Burg (A Castle for All Seasons)."""

    meta: GameMeta = META
    search_hooks: SchutzeDerBurgSearchHooks = SchutzeDerBurgSearchHooks()

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
        return load_state(data)

    def check_invariants(self, state: State) -> list[str]:
        """Broken invariants (conservation, no negatives, board and cards), empty when sound."""
        return check_invariants(state)
