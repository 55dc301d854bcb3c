"""A tiny test-only game that exercises every platform path: setup chance, a sealed simultaneous
decision with a reveal, a one-seat decision, private event data and a final outcome.

Each round every seat secretly plays one card from its hand (1, 2 or 3, each once per game; the
hand is secret). After the reveal the highest unique card scores its value; then the round's first
seat (rotating) may "bank" one point or "pass". A hidden bonus card dealt at setup from a seeded
shuffle is known only to its holder and adds to that seat's final score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.engine import Decision, Event, GameMeta, OptionSpec, Outcome, reveal_event


@dataclass
class DuelState:
    players: int
    rounds: int
    round: int = 1
    phase: str = "play"
    hands: list[list[int]] = field(default_factory=list)
    bonus: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)


class DuelEngine:
    meta = GameMeta(
        slug="duel",
        name="Duel (test game)",
        min_players=2,
        max_players=3,
        description="Test-only game with a sealed simultaneous pick.",
        options=(
            OptionSpec("rounds", "int", 2, "Rounds to play.", allowed=(1, 2, 3)),
            OptionSpec("bank_allowed", "bool", True, "Whether the first seat may bank a point."),
        ),
    )

    def setup(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> tuple[DuelState, list[Event]]:
        bonus = list(range(10, 10 + players))
        rng.shuffle(bonus)
        state = DuelState(
            players=players,
            rounds=int(options["rounds"]),
            hands=[[1, 2, 3] for _ in range(players)],
            bonus=bonus,
            scores=[0] * players,
        )
        dealt = Event("bonus_dealt", {"players": players}, {s: {"bonus": b} for s, b in enumerate(bonus)})
        return state, [dealt]

    def decision(self, state: DuelState) -> Decision | None:
        if state.phase == "over":
            return None
        if state.phase == "play":
            return Decision(tuple(range(state.players)), "play_card", "Play one card", simultaneous=True)
        return Decision(((state.round - 1) % state.players,), "bank", "Bank a point or pass")

    def legal_choices(self, state: DuelState, seat: int) -> list[dict[str, Any]]:
        decision = self.decision(state)
        if decision is None or seat not in decision.seats:
            return []
        if state.phase == "play":
            return [{"card": card} for card in state.hands[seat]]
        return [{"action": "bank"}, {"action": "pass"}]

    def apply(self, state: DuelState, choices: Mapping[int, dict[str, Any]]) -> list[Event]:
        if state.phase == "play":
            events = [reveal_event(choices)]
            played = {seat: int(choice["card"]) for seat, choice in choices.items()}
            for seat, card in played.items():
                state.hands[seat].remove(card)
            unique = [c for c in played.values() if list(played.values()).count(c) == 1]
            if unique:
                winner = next(s for s, c in played.items() if c == max(unique))
                state.scores[winner] += max(unique)
                events.append(Event("round_won", {"seat": winner, "points": max(unique)}))
            state.phase = "bank"
            return events
        ((seat, choice),) = choices.items()
        if choice["action"] == "bank":
            state.scores[seat] += 1
        events = [Event("banked" if choice["action"] == "bank" else "passed", {"seat": seat})]
        state.round += 1
        state.phase = "play" if state.round <= state.rounds else "over"
        return events

    def view(self, state: DuelState, viewer: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "round": state.round,
            "phase": state.phase,
            "scores": list(state.scores),
            "hand_sizes": [len(h) for h in state.hands],
        }
        if viewer is not None:
            view["hand"] = list(state.hands[viewer])
            view["bonus"] = state.bonus[viewer]
        if state.phase == "over":
            view["bonuses"] = list(state.bonus)
        return view

    def outcome(self, state: DuelState) -> Outcome | None:
        if state.phase != "over":
            return None
        totals = tuple(s + b for s, b in zip(state.scores, state.bonus, strict=True))
        best = max(totals)
        return Outcome(totals, tuple(i for i, t in enumerate(totals) if t == best))

    def dump(self, state: DuelState) -> dict[str, Any]:
        return dict(state.__dict__)

    def load(self, data: Mapping[str, Any]) -> DuelState:
        return DuelState(**{k: v for k, v in data.items()})
