"""What anyone can check about a finished game, from its revealed seed and salt.

1. The commitment published at creation is ``sha256(salt + ":" + seed)``
   (``domain.model.seeding.verify_commitment``).
2. The seed alone replays every draw of chance: ``setup`` with ``rng_for_seed(seed)`` deals the same
   opening, so the tiles, cards and first player seen during the game can be compared.
3. Bots drew from ``rng_for_bot(seed, salt, version, seat)``: with the seed and salt, a game of bots
   replays event for event (``replay_bot_game``), and a bot's pick in any game can be recomputed.

``domain.services.replay`` answers a different question: it re-applies the *recorded* choices of any ended
game (people's included) to show a past moment; this module recomputes the bots' choices themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from domain.bots.turns import bot_choice, next_bot_seat
from domain.engine import JSON
from domain.manifest import HostedGame
from domain.model.match import Match, RecordedEvent
from domain.model.seeding import commitment

DECISION_CAP = 100_000


def replay_bot_game(
    game: HostedGame[Any],
    options: Mapping[str, JSON],
    bots: Sequence[str],
    seed: str,
    salt: str | None,
    lobby_events: int,
) -> list[RecordedEvent]:
    """The events of a game of bots from ``game_started`` on, recomputed from seed and salt.

    ``lobby_events`` is the number of events before ``game_started`` (its ``seq`` minus one): each
    lobby change was one event and one version, and bots draw by version.
    """
    match = Match(
        id="replay",
        engine=game.engine,
        options=dict(options),
        seed=seed,
        seed_commitment=commitment(seed, salt),
        host_token_hash="",
        created_at=datetime.now(UTC),
        seed_salt=salt,
    )
    for level in bots:
        match.join(f"{level} bot", "", level)
    match.version = match.last_seq = lobby_events
    match.new_events.clear()
    match.start()
    for _ in range(DECISION_CAP):
        seat = next_bot_seat(match)
        if seat is None:
            break
        match.submit(seat, bot_choice(match, seat, game.search), match.version)
    return list(match.new_events)
