"""Engine states of recently committed games, kept in memory so a load can skip ``engine.load``.

Loading a Carcassonne game rebuilds its board by placing every tile again, a cost that grows with
the game. A game that can copy a state for less than a load (``HostedGame.copy_state``)
gets its committed states kept here: ``save`` takes a private copy of exactly the state it dumps,
and the unit of work keeps it once the commit succeeded. A later load of that game whose row (read
in that same load) has the kept version gets it instead of a load: a writer takes the kept state
itself (removed, so nobody else can reach it; the writer's save keeps a copy of the next one), a
reader gets a copy. A kept state is never mutated nor reachable from two requests; another
instance's write bumps the stored version and turns a hit into an ordinary load.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock
from typing import Any

Copier = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Kept:
    version: int
    state: Any
    copy: Copier


class HotStates:
    """At most ``capacity`` games' states, least recently used dropped first; thread-safe."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = Lock()

    def state_at(self, game_id: str, version: int, take: bool = False) -> Any | None:
        """The state committed at ``version`` for one request alone, or None (then load the row):
        ``take`` (a writer) removes the kept one and returns it, otherwise it returns a copy."""
        with self._lock:
            kept = self._kept.get(game_id)
            if kept is None or kept.version != version:
                self.misses += 1
                return None
            self.hits += 1
            if take:
                del self._kept[game_id]
                return kept.state
            self._kept.move_to_end(game_id)
        return kept.copy(kept.state)  # the kept state is never mutated: no lock needed to read it

    def keep(self, game_id: str, version: int, state: Any, copy: Copier) -> None:
        """``state``: a copy nobody else holds, equal to what was stored at ``version``."""
        with self._lock:
            self._kept[game_id] = _Kept(version, state, copy)
            self._kept.move_to_end(game_id)
            while len(self._kept) > self.capacity:
                self._kept.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._kept.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._kept)
