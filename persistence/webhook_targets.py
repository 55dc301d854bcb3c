"""Which games of this transaction have no webhook target, learnt with their row lock.

Every move asks the outbox for the game's webhook targets (endpoints of the game and of its seats'
players), and on PostgreSQL that is one more round trip a move, although most games have none.
The ``get`` that locks the game's row (``SELECT … FOR UPDATE``) answers it in the same statement;
this records the answer so that ``SqlWebhookRepository.endpoints_for_game`` can skip its query.

Only "none" is kept, and only while it stays true: for the players seated when the row was read
(a player who joins later is looked up as before), and until this transaction adds or reactivates
an endpoint. Another transaction's endpoint committed before the ``get`` is seen by it; one
committed after could have been missed by the lookup as well (read committed), so the outcome is
the same as with the lookup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class KnownWithoutTargets:
    """Game id → the players seated when its row was read, for games with no active endpoint."""

    def __init__(self) -> None:
        self._players: dict[str, frozenset[str]] = {}

    def loaded(self, game_id: str, has_targets: bool, seats: Iterable[Mapping[str, Any]]) -> None:
        """A game row was read under its lock, with the database's answer about its targets."""
        if has_targets:
            self._players.pop(game_id, None)
        else:
            self._players[game_id] = frozenset(
                player for seat in seats if (player := seat.get("player_id")) is not None
            )

    def none_for(self, game_id: str, player_ids: Iterable[str]) -> bool:
        """True only when no endpoint can be interested in this game and these players."""
        seated = self._players.get(game_id)
        return seated is not None and seated.issuperset(player_ids)

    def forget(self) -> None:
        """An endpoint was added or reactivated in this transaction: nothing is known any more."""
        self._players.clear()
