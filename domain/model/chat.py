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
characters. A seat writes at most ``BURST`` entries in any ``BURST_WINDOW`` (counted under the
chat's lock, so simultaneous posts count each other), and a chat holds at most ``MAX_ENTRIES``.

Each game has its own chat sequence (``seq`` 1, 2, ... with no gap in storage), so a reader
resumes after the last entry it has. Chat never touches the match: no version, no game event, no
replay changes when people talk.
"""

from __future__ import annotations

import builtins
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from domain.engine import JSON, Event
from domain.errors import InvalidChatMessage
from domain.model.match import Match, RecordedEvent, Seat
from domain.model.names import MAX_COMBINING_RUN, refuse_invisible

MAX_MESSAGE_LENGTH = 500
BURST = 5
BURST_WINDOW = timedelta(seconds=10)
"""A seat writes at most ``BURST`` entries (messages, hides and shows) in any ``BURST_WINDOW``."""
MAX_ENTRIES = 5000
"""What one game's chat stores at most (``TABLETOP_MAX_CHAT_ENTRIES``): then it is full."""

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
WRITTEN_BY_SEAT = (MESSAGE, HIDDEN, SHOWN)
"""Entries a seat writes itself: what its rate rule counts."""

MESSAGE_RULE = (
    f"1 to {MAX_MESSAGE_LENGTH} characters after Unicode NFC normalisation, one line, with at least "
    "one visible character (a letter, digit, punctuation mark or symbol); control, bidi, zero-width "
    "(but a joiner inside an emoji sequence, and the tags of an emoji flag), private-use, "
    "unassigned and blank-looking characters are refused, a variation selector only directly after "
    f"what it varies, at most {MAX_COMBINING_RUN} combining marks in a row"
)

_ZWJ = "\u200d"
_EMOJI_PARTS = {"So", "Sk"}
"""What a zero-width joiner may join: emoji (``So``) and their skin-tone modifiers (``Sk``)."""
_VARIATION_SELECTORS = {"\ufe0e", "\ufe0f"}
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0020, 0xE007F)
_CANCEL_TAG = "\U000e007f"
_MAX_TAGS = 8
"""An emoji flag of a region is the black flag, its code in tag letters (``gbsct``), a cancel tag."""
_VISIBLE = frozenset("LNPS")
"""The major categories that draw something: letters, digits, punctuation, symbols."""


def clean_message(text: str) -> str:
    """The text to store, or ``InvalidChatMessage`` naming the refused character."""
    normalised = unicodedata.normalize("NFC", text)
    refuse_invisible(
        normalised,
        "chat messages",
        InvalidChatMessage,
        lambda text, index: (text[index] == _ZWJ and _joins_emoji(text, index)) or _in_flag(text, index),
    )
    _refuse_stray_selectors(normalised)
    cleaned = " ".join(normalised.split())
    if not any(unicodedata.category(char)[0] in _VISIBLE for char in cleaned):
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


def _is_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def _refuse_stray_selectors(text: str) -> None:
    """A variation selector picks how the character before it is drawn: one, right after a
    visible character; alone, after a space or piled up, it only hides in the text."""
    for index, char in enumerate(text):
        if not _is_selector(char):
            continue
        before = text[index - 1] if index else ""
        if not before or unicodedata.category(before)[0] not in _VISIBLE:
            raise InvalidChatMessage(
                "{what} may not contain {character} ({unicode_name}) where it varies nothing",
                what="chat messages",
                character=f"U+{ord(char):04X}",
                unicode_name=unicodedata.name(char, "unnamed"),
            )


def _in_flag(text: str, index: int) -> bool:
    """A tag character inside an emoji flag's tag sequence: the black flag, 1 to ``_MAX_TAGS``
    tag letters, a cancel tag."""
    char = text[index]
    if ord(char) not in _TAGS and char != _CANCEL_TAG:
        return False
    start = index - 1 if char == _CANCEL_TAG else index
    while start >= 0 and ord(text[start]) in _TAGS:
        start -= 1
    end = index
    while end < len(text) and ord(text[end]) in _TAGS:
        end += 1
    tags = end - start - 1
    return (
        start >= 0
        and text[start] == _BLACK_FLAG
        and 1 <= tags <= _MAX_TAGS
        and end < len(text)
        and text[end] == _CANCEL_TAG
        and (char != _CANCEL_TAG or end == index)
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


def person(seat: Seat) -> tuple[str, ...]:
    """Who sits at ``seat``, as a mute or a hide stores it: as a host's block names it, its player
    identity and its client address (``player:<id>``, ``address:<hash>``), else its seat token;
    a bot seat is nobody (it never writes). Seats move up in a lobby when one leaves, so a mute or
    a hide names the person, and a newcomer on a vacated number inherits none of them."""
    found = tuple(seat.identities())
    if found:
        return found
    return (f"token:{seat.token_hash}",) if seat.token_hash and seat.bot is None else ()


def known_as(seat: Seat) -> tuple[str, ...]:
    """What a stored mute or hide must name to hold for ``seat``: its player identity if it has
    one (a player sharing an address with a muted person is not muted), else its address (or
    token): a muted player who comes back without its identity, from its address, stays muted."""
    return person(seat)[:1]


def seats_of(match: Match, people: frozenset[str], besides: int | None = None) -> frozenset[int]:
    """The seats now held by any of ``people`` (not ``besides``, the reader's own)."""
    return frozenset(
        seat.index for seat in match.seats if seat.index != besides and people.intersection(known_as(seat))
    )


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
