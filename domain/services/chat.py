"""The chat's use cases: post, read, mute and hide (the rules and values are in ``domain.model.chat``)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from datetime import datetime

from domain.errors import (
    ChatFull,
    ChatMuted,
    ChatRateLimited,
    Forbidden,
    InvalidChatMessage,
    SeatNotFound,
    Unauthorized,
)
from domain.model.chat import (
    BURST,
    BURST_WINDOW,
    HIDDEN,
    MAX_ENTRIES,
    MESSAGE,
    MUTED,
    SHOWN,
    UNMUTED,
    ChatEntry,
    ChatPage,
    ChatState,
    Reader,
    chat_channel,
    check_phrase,
    clean_message,
    known_as,
    person,
    retry_after,
    seats_of,
)
from domain.model.match import Match
from domain.ports.chat import ChatUnitOfWork, SeqTaken
from domain.ports.clock import Clock
from domain.ports.events import EventPublisher
from domain.services.core import ServiceCore

MAX_SEQ_ATTEMPTS = 5
"""Two writers that took the same next ``seq`` at once: the loser tries again this many times."""


class ChatService:
    """Post, read, mute and hide; each change committed, then published on the chat's channel."""

    def __init__(
        self,
        core: ServiceCore,
        units: Callable[[], ChatUnitOfWork],
        publisher: EventPublisher,
        clock: Clock,
        max_entries: int = MAX_ENTRIES,
    ) -> None:
        self.core = core
        self.units = units
        self.publisher = publisher
        self.clock = clock
        self.max_entries = max_entries

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
            if uow.chat.muted(game_id).intersection(known_as(match.seats[seat])):
                raise ChatMuted("the host muted seat {seat}: it cannot write in this game's chat", seat=seat)
            now = self._room(uow, game_id, seat)
            return self._add(uow, game_id, MESSAGE, now, seat=seat, text=content, phrase=code)

        entry, _ = self._change(game_id, token, write)
        assert entry is not None
        return entry

    def mute(self, game_id: str, token: str | None, seat: int, muted: bool) -> ChatState:
        """The host mutes (or unmutes) a seat (nothing changes if it already was)."""

        def write(uow: ChatUnitOfWork, match: Match, reader: Reader) -> ChatEntry | None:
            if not reader.is_host:
                raise Forbidden("only the host's token mutes a seat")
            people = self._people_at(match, seat)
            now = self._room(uow, game_id, None)
            if not uow.chat.set_muted(game_id, people, muted):
                return None
            return self._add(uow, game_id, MUTED if muted else UNMUTED, now, target=seat)

        return self._change(game_id, token, write)[1]

    def hide(self, game_id: str, token: str | None, target: int, hidden: bool) -> ChatState:
        """A seat hides (or shows again) another seat's messages, for itself only."""

        def write(uow: ChatUnitOfWork, match: Match, reader: Reader) -> ChatEntry | None:
            seat = self._writer(reader)
            people = self._people_at(match, target)
            if target == seat:
                raise Forbidden("a seat cannot hide its own messages")
            now = self._room(uow, game_id, seat)
            if not uow.chat.set_hidden(game_id, person(match.seats[seat]), people, hidden):
                return None
            kind = HIDDEN if hidden else SHOWN
            return self._add(uow, game_id, kind, now, seat=seat, target=target)

        return self._change(game_id, token, write)[1]

    def page(self, game_id: str, token: str | None, after: int, limit: int) -> tuple[Reader, ChatPage]:
        """The entries after ``after`` that the token's reader sees, with the chat's state."""
        with self.units() as uow:
            match = uow.games.get(game_id)
            reader = self.reader(match, token)
            state = self._state(uow, match, reader)
            found = uow.chat.entries(game_id, after, limit)
        shown = [e for e in found if e.visible_to(reader.seat, state.hidden)]
        last = found[-1].seq if len(found) == limit else state.last_seq
        return reader, ChatPage(shown, last, state.hidden, state.muted)

    def follow(self, game_id: str, token: str | None) -> tuple[Reader, ChatState]:
        """Who follows the chat live, and the state its stream starts from."""
        with self.units() as uow:
            match = uow.games.get(game_id)
            reader = self.reader(match, token)
            return reader, self._state(uow, match, reader)

    def state(self, game_id: str, reader: Reader) -> ChatState:
        with self.units() as uow:
            return self._state(uow, uow.games.get(game_id), reader)

    def entries(self, game_id: str, after: int, limit: int) -> builtins.list[ChatEntry]:
        """Stored entries, unfiltered (a stream filters them for its reader)."""
        with self.units() as uow:
            return uow.chat.entries(game_id, after, limit)

    # -- internals --------------------------------------------------------------------------------

    def _room(self, uow: ChatUnitOfWork, game_id: str, seat: int | None) -> datetime:
        """Under the chat's lock (held to the commit, so simultaneous writers count each other):
        the chat has room for one more entry, and ``seat`` (None: the host) has written fewer than
        ``BURST`` entries in the last ``BURST_WINDOW``. The time the entry is written at."""
        uow.chat.lock(game_id)
        if uow.chat.last_seq(game_id) >= self.max_entries:
            raise ChatFull(
                "the chat of game {game} holds {max_entries} entries, as many as a chat may; "
                "nothing more is stored",
                game=game_id,
                max_entries=self.max_entries,
            )
        now = self.clock.now()
        if seat is None:
            return now
        wait = retry_after(uow.chat.message_times(game_id, seat, now - BURST_WINDOW), now)
        if wait is not None:
            raise ChatRateLimited(
                "a seat writes at most {max_messages} entries in {window_seconds:g} seconds; "
                "try again in {retry_s:.1f} s",
                retry_after=wait,
                max_messages=BURST,
                window_seconds=BURST_WINDOW.total_seconds(),
                retry_s=wait,
            )
        return now

    @staticmethod
    def _state(uow: ChatUnitOfWork, match: Match, reader: Reader) -> ChatState:
        """Mutes and hides name people: the seats they hold now (a hider's own seat never)."""
        hidden: frozenset[int] = frozenset()
        if reader.seat is not None:
            people = uow.chat.hidden(match.id, known_as(match.seats[reader.seat]))
            hidden = seats_of(match, people, besides=reader.seat)
        return ChatState(uow.chat.last_seq(match.id), hidden, seats_of(match, uow.chat.muted(match.id)))

    @staticmethod
    def _writer(reader: Reader) -> int:
        if reader.seat is None:
            if reader.is_host:
                raise Forbidden("the host token reads the chat; only seats write (use a seat's token)")
            raise Unauthorized("a seat token is required to write (Authorization: Bearer <token>)")
        return reader.seat

    @staticmethod
    def _people_at(match: Match, seat: int) -> tuple[str, ...]:
        """Who a mute or hide of ``seat`` names; a bot seat never writes, so it names nobody."""
        if not 0 <= seat < len(match.seats):
            raise SeatNotFound("game {game} has no seat {seat}", game=match.id, seat=seat)
        people = person(match.seats[seat])
        if not people:
            raise Forbidden("seat {seat} is a bot's: it never writes in the chat", seat=seat)
        return people

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
                    state = self._state(uow, match, reader)
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
