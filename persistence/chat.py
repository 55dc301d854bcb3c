"""The SQL chat repository: entries with their own per-game sequence, mutes and hides."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from domain.model.chat import WRITTEN_BY_SEAT, ChatEntry
from domain.ports.chat import SeqTaken
from persistence.mapping import as_utc
from persistence.tables import chat_entries, chat_hides, chat_mutes


def _lock_key(game_id: str) -> int:
    """A signed 64-bit advisory lock key of one game's chat."""
    digest = hashlib.sha256(f"tabletop-chat:{game_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class SqlChatRepository:
    """``domain.ports.chat.ChatRepository`` on the unit of work's session."""

    def __init__(self, session: Session, before_write: Callable[[], None]) -> None:
        self.session = session
        self._before_write = before_write
        self._locked: set[str] = set()

    def lock(self, game_id: str) -> None:
        """Take the lock of this game's chat, held to the end of the transaction: SQLite's write
        lock, or on PostgreSQL a transaction-level advisory lock for this chat alone (game moves
        never wait on it). Taking it again in the same transaction is free."""
        self._before_write()
        if self.session.get_bind().dialect.name == "postgresql" and game_id not in self._locked:
            self.session.execute(select(func.pg_advisory_xact_lock(_lock_key(game_id))))
            self._locked.add(game_id)

    def next_seq(self, game_id: str) -> int:
        """Read under the chat's lock, so no other writer of this game's chat reads the same one.
        Should two writers still meet, the primary key lets one in and sends the other back
        (``SeqTaken``) to try again."""
        self.lock(game_id)
        return self.last_seq(game_id) + 1

    def last_seq(self, game_id: str) -> int:
        found = self.session.execute(
            select(func.max(chat_entries.c.seq)).where(chat_entries.c.game_id == game_id)
        ).scalar()
        return int(found or 0)

    def add(self, entry: ChatEntry) -> None:
        self._before_write()
        try:  # no savepoint: a taken seq abandons the whole transaction, which is tried again
            self.session.execute(
                insert(chat_entries).values(
                    game_id=entry.game_id,
                    seq=entry.seq,
                    kind=entry.kind,
                    seat=entry.seat,
                    target=entry.target,
                    text=entry.text,
                    phrase=entry.phrase,
                    created_at=as_utc(entry.created_at),
                )
            )
        except IntegrityError as taken:
            raise SeqTaken(f"chat entry {entry.seq} of game {entry.game_id} exists") from taken

    def entries(self, game_id: str, after: int, limit: int) -> list[ChatEntry]:
        rows = self.session.execute(
            select(chat_entries)
            .where(chat_entries.c.game_id == game_id, chat_entries.c.seq > after)
            .order_by(chat_entries.c.seq)
            .limit(limit)
        ).mappings()
        return [
            ChatEntry(
                game_id=row["game_id"],
                seq=row["seq"],
                kind=row["kind"],
                created_at=as_utc(row["created_at"]),
                seat=row["seat"],
                target=row["target"],
                text=row["text"],
                phrase=row["phrase"],
            )
            for row in rows
        ]

    def message_times(self, game_id: str, seat: int, since: datetime) -> list[datetime]:
        rows = self.session.execute(
            select(chat_entries.c.created_at).where(
                chat_entries.c.game_id == game_id,
                chat_entries.c.seat == seat,
                chat_entries.c.kind.in_(WRITTEN_BY_SEAT),
                chat_entries.c.created_at > as_utc(since),
            )
        )
        return [as_utc(at) for (at,) in rows]

    def muted(self, game_id: str) -> frozenset[str]:
        rows = self.session.execute(select(chat_mutes.c.person).where(chat_mutes.c.game_id == game_id))
        return frozenset(person for (person,) in rows)

    def set_muted(self, game_id: str, people: Sequence[str], muted: bool) -> bool:
        self._before_write()
        if muted:
            missing = [p for p in dict.fromkeys(people) if p not in self.muted(game_id)]
            for person in missing:
                self.session.execute(insert(chat_mutes).values(game_id=game_id, person=person))
            return bool(missing)
        gone = self.session.execute(
            delete(chat_mutes).where(chat_mutes.c.game_id == game_id, chat_mutes.c.person.in_(people))
        )
        return bool(gone.rowcount)  # type: ignore[attr-defined]

    def hidden(self, game_id: str, hider: Sequence[str]) -> frozenset[str]:
        rows = self.session.execute(
            select(chat_hides.c.target).where(chat_hides.c.game_id == game_id, chat_hides.c.hider.in_(hider))
        )
        return frozenset(target for (target,) in rows)

    def set_hidden(self, game_id: str, hider: Sequence[str], target: Sequence[str], hidden: bool) -> bool:
        self._before_write()
        if hidden:
            stored = set(
                self.session.execute(
                    select(chat_hides.c.hider, chat_hides.c.target).where(
                        chat_hides.c.game_id == game_id, chat_hides.c.hider.in_(hider)
                    )
                ).tuples()
            )
            missing = [
                (h, t) for h in dict.fromkeys(hider) for t in dict.fromkeys(target) if (h, t) not in stored
            ]
            for h, t in missing:
                self.session.execute(insert(chat_hides).values(game_id=game_id, hider=h, target=t))
            return bool(missing)
        gone = self.session.execute(
            delete(chat_hides).where(
                chat_hides.c.game_id == game_id,
                chat_hides.c.hider.in_(hider),
                chat_hides.c.target.in_(target),
            )
        )
        return bool(gone.rowcount)  # type: ignore[attr-defined]
