"""Table talk: a game's chat, beside the game and never part of it.

Who may do what:
- every reader of the game (its seats, its host, spectators) reads the chat: talk at a table is
  public, as at a real one; there is no private message;
- only seats write (a seat that resigned too: it is still a person at the table); the host, unless
  it also holds a seat, and spectators only read;
- the host mutes and unmutes a seat: a muted seat cannot write until unmuted, and everyone sees
  the ``muted`` / ``unmuted`` entry;
- a seat hides another seat's messages for itself only (``hidden`` / ``shown`` entries are seen by
  the seat that made them, nobody else); hiding is retroactive and follows the seat everywhere
  (page, subscription, stream).

A message is either text or a canned phrase (``PHRASES``), sent as its code and rendered in each
reader's language. Text follows the rules of names (``domain.model.names``) for what it may contain:
no control characters (no newlines: one message is one line), no bidi overrides or isolates, no
zero-width characters (except a joiner inside an emoji sequence), no private-use or unassigned
code points, at most a few combining marks in a row; it is NFC-normalised (not NFKC: full-width
and compatibility letters are the writer's to choose) and at most ``MAX_MESSAGE_LENGTH``
characters. A seat writes at most ``BURST`` messages in any ``BURST_WINDOW``.

Each game has its own chat sequence (``seq`` 1, 2, ... with no gap in storage), so a reader
resumes after the last entry it has. Chat never touches the match: no version, no game event, no
replay changes when people talk.
"""

from __future__ import annotations

import builtins
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import TracebackType
from typing import Protocol, Self

from domain.engine import JSON, Event
from domain.errors import (
    ChatMuted,
    ChatRateLimited,
    Forbidden,
    InvalidChatMessage,
    SeatNotFound,
    Unauthorized,
)
from domain.model.match import Match, RecordedEvent
from domain.model.names import MAX_COMBINING_RUN, refuse_invisible
from domain.ports import Clock, EventPublisher, GameRepository
from domain.services.core import ServiceCore

MAX_MESSAGE_LENGTH = 500
BURST = 5
BURST_WINDOW = timedelta(seconds=10)
MAX_SEQ_ATTEMPTS = 5
"""Two writers that took the same next ``seq`` at once: the loser tries again this many times."""

PHRASES: tuple[str, ...] = (
    "hello",
    "good_luck",
    "your_turn",
    "thinking",
    "one_moment",
    "well_played",
    "oops",
    "thanks",
    "good_game",
    "bye",
)
"""Canned phrases, sent as codes, rendered in the reader's language (``chat.phrase.<code>``)."""

MESSAGE = "message"
MUTED = "muted"
UNMUTED = "unmuted"
HIDDEN = "hidden"
SHOWN = "shown"
KINDS = (MESSAGE, MUTED, UNMUTED, HIDDEN, SHOWN)
PRIVATE_KINDS = frozenset({HIDDEN, SHOWN})
"""Entries seen only by the seat that made them."""

MESSAGE_RULE = (
    f"1 to {MAX_MESSAGE_LENGTH} characters after Unicode NFC normalisation, one line, with at least "
    "one visible character; control, bidi, zero-width (but a joiner inside an emoji sequence), "
    f"private-use, unassigned and blank-looking characters are refused, at most {MAX_COMBINING_RUN} "
    "combining marks in a row"
)

_ZWJ = "\u200d"
_EMOJI_PARTS = {"So", "Sk"}
"""What a zero-width joiner may join: emoji (``So``) and their skin-tone modifiers (``Sk``)."""
_VARIATION_SELECTORS = {"\ufe0e", "\ufe0f"}


def clean_message(text: str) -> str:
    """The text to store, or ``InvalidChatMessage`` naming the refused character."""
    normalised = unicodedata.normalize("NFC", text)
    refuse_invisible(
        normalised,
        "chat messages",
        InvalidChatMessage,
        lambda text, index: text[index] == _ZWJ and _joins_emoji(text, index),
    )
    cleaned = " ".join(normalised.split())
    if not cleaned:
        raise InvalidChatMessage("a chat message needs at least one visible character")
    if len(cleaned) > MAX_MESSAGE_LENGTH:
        raise InvalidChatMessage(
            "chat messages have at most {max_characters} characters, not {got}",
            max_characters=MAX_MESSAGE_LENGTH,
            got=len(cleaned),
        )
    return cleaned


def _joins_emoji(text: str, index: int) -> bool:
    """A zero-width joiner between two emoji (a family, a profession): one joiner, no flood."""
    before = index - 1
    while before >= 0 and text[before] in _VARIATION_SELECTORS:
        before -= 1
    after = index + 1
    return (
        before >= 0
        and after < len(text)
        and unicodedata.category(text[before]) in _EMOJI_PARTS
        and unicodedata.category(text[after]) in _EMOJI_PARTS
    )


def check_phrase(code: str) -> str:
    if code not in PHRASES:
        raise InvalidChatMessage(
            "unknown phrase {phrase!r}; one of {allowed}", phrase=code[:40], allowed=PHRASES
        )
    return code


def retry_after(recent: builtins.list[datetime], now: datetime) -> float | None:
    """Seconds until the seat may write again, given its messages of the last window; None: now."""
    inside = sorted(at for at in recent if at > now - BURST_WINDOW)
    if len(inside) < BURST:
        return None
    return max(0.0, (inside[-BURST] + BURST_WINDOW - now).total_seconds())


@dataclass(frozen=True, slots=True)
class ChatEntry:
    """One line of a game's chat: a message, or a mute or hide by ``seat`` about ``target``.

    For a message ``seat`` is its writer and ``text`` or ``phrase`` its content; for ``muted`` /
    ``unmuted`` ``target`` is the seat the host muted; for ``hidden`` / ``shown`` ``seat`` is the
    seat that hid ``target`` for itself."""

    game_id: str
    seq: int
    kind: str
    created_at: datetime
    seat: int | None = None
    target: int | None = None
    text: str | None = None
    phrase: str | None = None

    def visible_to(self, reader: int | None, hidden: frozenset[int]) -> bool:
        if self.kind in PRIVATE_KINDS:
            return reader is not None and reader == self.seat
        return not (self.kind == MESSAGE and self.seat in hidden)

    def as_event(self) -> RecordedEvent:
        """The entry on the broker, which carries ``RecordedEvent``s (its ``seq`` is the chat's)."""
        data: dict[str, JSON] = {
            "kind": self.kind,
            "created_at": self.created_at.isoformat(),
            "seat": self.seat,
            "target": self.target,
            "text": self.text,
            "phrase": self.phrase,
        }
        return RecordedEvent(self.seq, Event(CHAT_EVENT, data))

    @classmethod
    def of_event(cls, game_id: str, recorded: RecordedEvent) -> ChatEntry:
        data = recorded.event.data

        def number(key: str) -> int | None:
            value = data.get(key)
            return value if isinstance(value, int) else None

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        return cls(
            game_id=game_id,
            seq=recorded.seq,
            kind=str(data["kind"]),
            created_at=datetime.fromisoformat(str(data["created_at"])),
            seat=number("seat"),
            target=number("target"),
            text=text("text"),
            phrase=text("phrase"),
        )


CHAT_EVENT = "chat"


def chat_channel(game_id: str) -> str:
    """The broker's key for a game's chat: beside the game's own, never mixed with its events."""
    return f"{game_id}:chat"


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a game's chat: a seat (None: the host or a spectator), and whether it may write."""

    seat: int | None
    is_host: bool
    can_write: bool


@dataclass(frozen=True, slots=True)
class ChatState:
    """Where a reader starts: the chat's last ``seq``, the seats it hides and the muted seats."""

    last_seq: int
    hidden: frozenset[int]
    muted: frozenset[int]


@dataclass(frozen=True, slots=True)
class ChatPage:
    entries: builtins.list[ChatEntry]
    last_seq: int
    """The chat's last ``seq`` when read (resume after it, even if the last entries are hidden)."""
    hidden: frozenset[int] = field(default_factory=frozenset)
    muted: frozenset[int] = field(default_factory=frozenset)


class SeqTaken(Exception):
    """Raised by a repository when another writer committed the same ``seq`` first."""


class ChatRepository(Protocol):
    def last_seq(self, game_id: str) -> int:
        """The chat's highest ``seq`` (0: empty)."""
        ...

    def next_seq(self, game_id: str) -> int:
        """The ``seq`` a writer gives its entry (SQLite: under the write lock, taken here)."""
        ...

    def add(self, entry: ChatEntry) -> None:
        """Store an entry; ``SeqTaken`` if its ``seq`` exists (at the latest on commit)."""
        ...

    def entries(self, game_id: str, after: int, limit: int) -> builtins.list[ChatEntry]: ...

    def message_times(self, game_id: str, seat: int, since: datetime) -> builtins.list[datetime]: ...

    def muted(self, game_id: str) -> frozenset[int]: ...

    def set_muted(self, game_id: str, seat: int, muted: bool) -> bool:
        """Whether it changed."""
        ...

    def hidden(self, game_id: str, seat: int) -> frozenset[int]: ...

    def set_hidden(self, game_id: str, seat: int, target: int, hidden: bool) -> bool:
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


class ChatService:
    """Post, read, mute and hide; each change committed, then published on the chat's channel."""

    def __init__(
        self,
        core: ServiceCore,
        units: Callable[[], ChatUnitOfWork],
        publisher: EventPublisher,
        clock: Clock,
    ) -> None:
        self.core = core
        self.units = units
        self.publisher = publisher
        self.clock = clock

    def reader(self, match: Match, token: str | None) -> Reader:
        """Any reader of the game reads the chat; seats (resigned ones too) write."""
        viewer = self.core.viewer(match, token)
        seat = viewer.seat if viewer.seat is not None else viewer.quit_seat
        return Reader(seat, viewer.is_host, seat is not None)

    def post(self, game_id: str, token: str | None, text: str | None, phrase: str | None) -> ChatEntry:
        """A seat's message: ``text`` or ``phrase``, exactly one."""
        if (text is None) == (phrase is None):
            raise InvalidChatMessage("send either text or a phrase")
        content = clean_message(text) if text is not None else None
        code = check_phrase(phrase) if phrase is not None else None

        def write(uow: ChatUnitOfWork, match: Match, reader: Reader) -> ChatEntry | None:
            seat = self._writer(reader)
            if seat in uow.chat.muted(game_id):
                raise ChatMuted("the host muted seat {seat}: it cannot write in this game's chat", seat=seat)
            now = self.clock.now()
            wait = retry_after(uow.chat.message_times(game_id, seat, now - BURST_WINDOW), now)
            if wait is not None:
                raise ChatRateLimited(
                    "a seat writes at most {max_messages} messages in {window_seconds:g} seconds; "
                    "try again in {retry_s:.1f} s",
                    retry_after=wait,
                    max_messages=BURST,
                    window_seconds=BURST_WINDOW.total_seconds(),
                    retry_s=wait,
                )
            return self._add(uow, game_id, MESSAGE, now, seat=seat, text=content, phrase=code)

        entry, _ = self._change(game_id, token, write)
        assert entry is not None
        return entry

    def mute(self, game_id: str, token: str | None, seat: int, muted: bool) -> ChatState:
        """The host mutes (or unmutes) a seat (nothing changes if it already was)."""

        def write(uow: ChatUnitOfWork, match: Match, reader: Reader) -> ChatEntry | None:
            if not reader.is_host:
                raise Forbidden("only the host's token mutes a seat")
            self._seat_of(match, seat)
            if not uow.chat.set_muted(game_id, seat, muted):
                return None
            return self._add(uow, game_id, MUTED if muted else UNMUTED, self.clock.now(), target=seat)

        return self._change(game_id, token, write)[1]

    def hide(self, game_id: str, token: str | None, target: int, hidden: bool) -> ChatState:
        """A seat hides (or shows again) another seat's messages, for itself only."""

        def write(uow: ChatUnitOfWork, match: Match, reader: Reader) -> ChatEntry | None:
            seat = self._writer(reader)
            self._seat_of(match, target)
            if target == seat:
                raise Forbidden("a seat cannot hide its own messages")
            if not uow.chat.set_hidden(game_id, seat, target, hidden):
                return None
            kind = HIDDEN if hidden else SHOWN
            return self._add(uow, game_id, kind, self.clock.now(), seat=seat, target=target)

        return self._change(game_id, token, write)[1]

    def page(self, game_id: str, token: str | None, after: int, limit: int) -> tuple[Reader, ChatPage]:
        """The entries after ``after`` that the token's reader sees, with the chat's state."""
        with self.units() as uow:
            match = uow.games.get(game_id)
            reader = self.reader(match, token)
            state = self._state(uow, game_id, reader)
            found = uow.chat.entries(game_id, after, limit)
        shown = [e for e in found if e.visible_to(reader.seat, state.hidden)]
        last = found[-1].seq if len(found) == limit else state.last_seq
        return reader, ChatPage(shown, last, state.hidden, state.muted)

    def follow(self, game_id: str, token: str | None) -> tuple[Reader, ChatState]:
        """Who follows the chat live, and the state its stream starts from."""
        with self.units() as uow:
            match = uow.games.get(game_id)
            reader = self.reader(match, token)
            return reader, self._state(uow, game_id, reader)

    def state(self, game_id: str, reader: Reader) -> ChatState:
        with self.units() as uow:
            return self._state(uow, game_id, reader)

    def entries(self, game_id: str, after: int, limit: int) -> builtins.list[ChatEntry]:
        """Stored entries, unfiltered (a stream filters them for its reader)."""
        with self.units() as uow:
            return uow.chat.entries(game_id, after, limit)

    # -- internals --------------------------------------------------------------------------------

    @staticmethod
    def _state(uow: ChatUnitOfWork, game_id: str, reader: Reader) -> ChatState:
        hidden = uow.chat.hidden(game_id, reader.seat) if reader.seat is not None else frozenset()
        return ChatState(uow.chat.last_seq(game_id), hidden, uow.chat.muted(game_id))

    @staticmethod
    def _writer(reader: Reader) -> int:
        if reader.seat is None:
            if reader.is_host:
                raise Forbidden("the host token reads the chat; only seats write (use a seat's token)")
            raise Unauthorized("a seat token is required to write (Authorization: Bearer <token>)")
        return reader.seat

    @staticmethod
    def _seat_of(match: Match, seat: int) -> int:
        if not 0 <= seat < len(match.seats):
            raise SeatNotFound("game {game} has no seat {seat}", game=match.id, seat=seat)
        return seat

    @staticmethod
    def _add(
        uow: ChatUnitOfWork,
        game_id: str,
        kind: str,
        now: datetime,
        seat: int | None = None,
        target: int | None = None,
        text: str | None = None,
        phrase: str | None = None,
    ) -> ChatEntry:
        entry = ChatEntry(game_id, uow.chat.next_seq(game_id), kind, now, seat, target, text, phrase)
        uow.chat.add(entry)
        return entry

    def _change(
        self,
        game_id: str,
        token: str | None,
        write: Callable[[ChatUnitOfWork, Match, Reader], ChatEntry | None],
    ) -> tuple[ChatEntry | None, ChatState]:
        """Run ``write`` in a transaction, again if another writer took its ``seq``; publish after
        the commit (a reader that misses it live finds it by ``seq`` in storage). With the state
        of the chat for the writer, as the change left it."""
        for attempt in range(MAX_SEQ_ATTEMPTS):
            try:
                with self.units() as uow:
                    match = uow.games.get(game_id)
                    reader = self.reader(match, token)
                    entry = write(uow, match, reader)
                    state = self._state(uow, game_id, reader)
                    if entry is None:
                        return None, state
                    uow.commit()
            except SeqTaken:
                if attempt == MAX_SEQ_ATTEMPTS - 1:
                    raise
                continue
            self.publisher.publish(chat_channel(game_id), [entry.as_event()])
            return entry, state
        raise AssertionError("unreachable")
