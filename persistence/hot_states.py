"""Engine states of recently committed games, kept in memory so a load can skip ``engine.load``.

Loading a Carcassonne game rebuilds its board by placing every tile again, a cost that grows with
the game. A game that can copy a state for less than a load (``HostedGame.copy_state``) gets its
committed states kept here: ``save`` takes a private copy of exactly the state it dumps, which is
kept once the commit succeeded (``TransactionStates``, one per unit of work, does all this
bookkeeping). A later load of that game whose row (read in that same load) has the kept version
gets it instead of a load: a writer takes the kept state itself (removed, so nobody else can reach
it; the writer's save keeps a copy of the next one), a reader gets a copy. A kept state is never
mutated nor reachable from two requests; another instance's write bumps the stored version and
turns a hit into an ordinary load.

A state kept by this process's own commit also keeps its game's other columns as written (``row``,
decoded as a read would decode them), so a writer in a group-commit work may skip the row's
read altogether (``TransactionStates.unread``): the owner of a game writes it over and over, and
its kept row is current unless another process wrote since. Nothing rests on that "unless": the
guarded ``UPDATE`` of the save refuses a load that is not current, and a work that loaded a game
without reading it is run again on a read row whenever it is refused, or ends without that guard
(``persistence.uow.SqlUnitOfWork.attempt``), so no answer is ever decided on an unread row alone.
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
    row: str | None = None
    """The game's other columns as this process wrote them at ``version`` (JSON), if it did."""
    targets: bool = True
    """False when that write's statement answered that the game had no webhook target."""


class HotStates:
    """At most ``capacity`` games' states, least recently used dropped first; thread-safe."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self.unread = 0
        """Writers' loads served without reading the row (``take_unread``)."""
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

    def take_unread(self, game_id: str) -> tuple[int, Any, str, bool] | None:
        """For a writer that need not read the row: the kept version, state, row and whether the
        game may have a webhook target (removed), or None (nothing kept, or no row kept with it:
        read the row)."""
        with self._lock:
            kept = self._kept.get(game_id)
            if kept is None or kept.row is None:
                return None
            del self._kept[game_id]
            self.unread += 1
        return kept.version, kept.state, kept.row, kept.targets

    def keep(
        self,
        game_id: str,
        version: int,
        state: Any,
        copy: Copier,
        row: str | None = None,
        targets: bool = True,
    ) -> None:
        """``state``: a copy nobody else holds, equal to what was stored at ``version``;
        ``row``: the other columns stored at ``version``, by this process; ``targets``: False if
        the write found the game without a webhook target."""
        with self._lock:
            self._kept[game_id] = _Kept(version, state, copy, row, targets)
            self._kept.move_to_end(game_id)
            while len(self._kept) > self.capacity:
                self._kept.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._kept.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._kept)


class TransactionStates:
    """What one unit of work does with the kept states: a load takes (a writer) or copies (a
    reader) a kept state; a write records its game and a copy of the state it stored; the copies
    are kept once the transaction commits, and the games it wrote are forgotten if it does not.
    Used by one thread (its unit of work's), so it needs no lock of its own."""

    def __init__(self, kept: HotStates | None) -> None:
        self._kept = kept
        self._written: list[str] = []
        self._to_keep: list[tuple[str, int, Any, Copier, str | None]] = []
        self.unread_allowed = False
        """Whether a writer's load may skip the row's read (set by the work that checks after)."""
        self._unread: list[str] = []
        """Games loaded without reading their row, in this transaction's current work."""
        self._without_targets: set[str] = set()
        """Games whose write in this transaction answered that they have no webhook target."""

    @property
    def keeping(self) -> bool:
        """Whether states are kept at all (else a write need not copy its state)."""
        return self._kept is not None

    def state_at(self, game_id: str, version: int, take: bool) -> Any | None:
        """``HotStates.state_at``, or None when nothing is kept."""
        return self._kept.state_at(game_id, version, take) if self._kept is not None else None

    def unread(self, game_id: str) -> tuple[int, Any, str, bool] | None:
        """For a writer, when allowed: ``HotStates.take_unread``, noted as unread."""
        if self._kept is None or not self.unread_allowed:
            return None
        taken = self._kept.take_unread(game_id)
        if taken is not None:
            self._unread.append(game_id)
        return taken

    @property
    def unchecked(self) -> bool:
        """Whether the current work loaded a game without reading its row and has not passed
        that game's guarded write since (``written`` checks one)."""
        return bool(self._unread)

    def begin_work(self) -> None:
        """A work of the transaction begins: nothing of it is unchecked yet."""
        self._unread.clear()

    def written(
        self, game_id: str, version: int, state: Any, copy: Copier | None, row: str | None = None
    ) -> None:
        """A game stored at ``version`` in this transaction (its guarded write went through), with
        the state just dumped (copied now, before anything can change it) and, for a change, the
        other columns written (``HotStates.keep``)."""
        self._written.append(game_id)
        if game_id in self._unread:
            self._unread.remove(game_id)
        if self._kept is not None and state is not None and copy is not None:
            self._to_keep.append((game_id, version, copy(state), copy, row))

    def answered_targets(self, game_id: str, has_targets: bool) -> None:
        """A write of the game answered whether it has a webhook target (kept with its row)."""
        if has_targets:
            self._without_targets.discard(game_id)
        else:
            self._without_targets.add(game_id)

    def forget(self, game_id: str) -> None:
        """What is kept of a game is stale (another writer's version is stored)."""
        if self._kept is not None:
            self._kept.forget(game_id)

    def mark(self) -> tuple[int, int]:
        """Where one of several works sharing the transaction begins (see ``undo``)."""
        return len(self._written), len(self._to_keep)

    def undo(self, mark: tuple[int, int]) -> None:
        """The work that began at ``mark`` was undone alone: forget what it wrote."""
        written, to_keep = mark
        undone = self._written[written:]
        del self._written[written:]
        del self._to_keep[to_keep:]
        for game_id in undone:
            self.forget(game_id)

    def committed(self) -> None:
        """Only a committed state may serve later loads."""
        if self._kept is not None:
            for game_id, version, state, copy, row in self._to_keep:
                self._kept.keep(game_id, version, state, copy, row, game_id not in self._without_targets)
        self._to_keep.clear()
        self._written.clear()
        self._without_targets.clear()

    def abandoned(self) -> None:
        """The transaction did not commit: drop what is kept of the games it wrote (the version
        guard would refuse those states anyway; dropping makes it plain)."""
        for game_id in self._written:
            self.forget(game_id)
        self._to_keep.clear()
        self._written.clear()
        self._without_targets.clear()
