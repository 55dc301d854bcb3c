"""Which bot seat plays next in a match, and its choice: shared by the service and by anyone
replaying a finished game from its revealed seed and salt (see ``domain.services.verification``)."""

from __future__ import annotations

from typing import Any

from domain.bots.hooks import SearchHooks
from domain.bots.policies import choose, context_for
from domain.bots.search import SearchBudget
from domain.engine import Choice
from domain.model.match import Match
from domain.model.seeding import rng_for_bot


def next_bot_seat(match: Match) -> int | None:
    """The first seat the server plays (a bot, or a stand-in for a player who resigned or ran
    out of time) that the current decision still waits for, if any."""
    decision = match.decision()
    if decision is None:
        return None
    for seat in decision.seats:
        if match.seats[seat].plays_itself and seat not in match.sealed:
            return seat
    return None


def bot_choice(
    match: Match, seat: int, hooks: SearchHooks[Any] | None, budget: SearchBudget | None = None
) -> Choice:
    """The bot's pick for the current decision, from what its seat may see and a generator that
    only the server can derive until the game ends; ``hooks``: the game's ``HostedGame.search``;
    ``budget``: the strong level's (its default iterations when None, as a replay recomputes)."""
    decision = match.decision()
    level = match.bot_level(seat)
    assert decision is not None and level is not None
    rng = rng_for_bot(match.seed, match.seed_salt, match.version, seat)
    return choose(level, context_for(match.engine, match.state, decision, seat, hooks), rng, budget)
