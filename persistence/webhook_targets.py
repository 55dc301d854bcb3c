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

A move whose load skipped the row (its owner's kept row, ``persistence.hot_states``) in a batch
that holds its writes (``persistence.driver_sql.hold_writes``) has no answer until its save's
statement is sent: it may be ``assumed`` to have none when the owner's last write of the game was
answered none, and its save's answer then ``confirmed``: a target found means the move's outbox
was decided on a wrong "none", and its batch is run again without holding anything back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class KnownWithoutTargets:
    """Game id → the players seated when its row was read, for games with no active endpoint."""

    def __init__(self) -> None:
        self._players: dict[str, frozenset[str]] = {}
        self._assumed: set[str] = set()

    def loaded(self, game_id: str, has_targets: bool, seats: Iterable[Mapping[str, Any]]) -> None:
        """A game row was read under its lock, with the database's answer about its targets."""
        self._assumed.discard(game_id)
        if has_targets:
            self._players.pop(game_id, None)
        else:
            self._players[game_id] = frozenset(
                player for seat in seats if (player := seat.get("player_id")) is not None
            )

    def assumed(self, game_id: str, seats: Iterable[Mapping[str, Any]]) -> None:
        """Taken as without a target until ``confirmed`` (the owner's last write found none)."""
        self.loaded(game_id, False, seats)
        self._assumed.add(game_id)

    def confirmed(self, game_id: str, has_targets: bool, seats: Iterable[Mapping[str, Any]]) -> bool:
        """The database's answer for the seats just written; False if it refutes an assumption."""
        refuted = has_targets and game_id in self._assumed
        self._assumed.discard(game_id)
        self.loaded(game_id, has_targets, seats)
        return not refuted

    def retract(self, game_id: str) -> None:
        """An assumption its save will not confirm (a save without the answer) is not kept."""
        if game_id in self._assumed:
            self._assumed.discard(game_id)
            self._players.pop(game_id, None)

    def none_for(self, game_id: str, player_ids: Iterable[str]) -> bool:
        """True only when no endpoint can be interested in this game and these players."""
        seated = self._players.get(game_id)
        return seated is not None and seated.issuperset(player_ids)

    def forget(self) -> None:
        """An endpoint was added or reactivated in this transaction: nothing is known any more."""
        self._players.clear()
