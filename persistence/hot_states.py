"""Engine states of recently committed games, kept in memory so a load can skip ``engine.load``.

Loading a Carcassonne game rebuilds its board by placing every tile again, a cost that grows with
the game. An engine that can copy a state for less than a load (``domain.engine.CopiesState``)
gets its committed states kept here: ``save`` takes a private copy of exactly the state it dumps,
the unit of work keeps it once the commit succeeded, and the next load of that game receives its
own copy, made only if the version read from the row in that same load equals the kept one. The
kept object is never handed out and never mutated (a newer commit replaces it), so no two requests
ever share a state; any other instance's write bumps the stored version and turns a hit into an
ordinary load.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from threading import Lock
from typing import Any

from domain.engine import GameEngine

Copier = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Kept:
    version: int
    state: Any
    copy: Copier


def state_copier(engine: GameEngine[Any]) -> Copier | None:
    """The engine's ``copy_state`` when it has one (an optional capability of engines)."""
    copier = getattr(engine, "copy_state", None)
    return copier if callable(copier) else None


class HotStates:
    """At most ``capacity`` games' states, least recently used dropped first; thread-safe."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = Lock()

    def copy_of(self, game_id: str, version: int) -> Any | None:
        """A private copy of the state committed at ``version``, or None (then load the row)."""
        with self._lock:
            kept = self._kept.get(game_id)
            if kept is None or kept.version != version:
                self.misses += 1
                return None
            self._kept.move_to_end(game_id)
            self.hits += 1
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
