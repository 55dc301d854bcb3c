"""The chat's storage, in a unit of work of its own (chat never touches the match)."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from datetime import datetime
from types import TracebackType
from typing import Protocol, Self

from domain.model.chat import ChatEntry
from domain.ports.games import GameRepository


class SeqTaken(Exception):
    """Raised by a repository when another writer committed the same ``seq`` first."""


class ChatRepository(Protocol):
    def last_seq(self, game_id: str) -> int:
        """The chat's highest ``seq`` (0: empty)."""
        ...

    def lock(self, game_id: str) -> None:
        """Take the chat's write lock, held to the end of the unit of work (again: a no-op), so
        what the writer counts (its recent entries, the chat's size) stays true until it commits."""
        ...

    def next_seq(self, game_id: str) -> int:
        """The ``seq`` a writer gives its entry (SQLite: under the write lock, taken here)."""
        ...

    def add(self, entry: ChatEntry) -> None:
        """Store an entry; ``SeqTaken`` if its ``seq`` exists (at the latest on commit)."""
        ...

    def entries(self, game_id: str, after: int, limit: int) -> builtins.list[ChatEntry]: ...

    def message_times(self, game_id: str, seat: int, since: datetime) -> builtins.list[datetime]:
        """When the seat wrote its entries (messages, hides and shows) after ``since``."""
        ...

    def muted(self, game_id: str) -> frozenset[str]:
        """The people the host muted (``domain.model.chat.person``'s names)."""
        ...

    def set_muted(self, game_id: str, people: Sequence[str], muted: bool) -> bool:
        """Mute (or unmute) every one of ``people``; whether anything changed."""
        ...

    def hidden(self, game_id: str, hider: Sequence[str]) -> frozenset[str]:
        """The people any of ``hider`` hides."""
        ...

    def set_hidden(self, game_id: str, hider: Sequence[str], target: Sequence[str], hidden: bool) -> bool:
        """Whether it changed."""
        ...


class ChatUnitOfWork(Protocol):
    games: GameRepository
    chat: ChatRepository

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def commit(self) -> None: ...
