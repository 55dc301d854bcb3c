"""Typed domain errors. Each carries a stable machine-readable ``code`` that the API maps to HTTP,
and the values at fault as named fields: a sentence with ``{field}`` placeholders and the values
that fill them (``raise SeatNotFound("game {game} has no seat {seat}", game=game_id, seat=7)``).

English is the sentence filled in. Another language shows the code's own sentence followed by the
same values, each with the words ``FIELDS`` gives its field (``Platz 7``, ``höchstens 64 Zeichen``):
``api.problems.translations``. A field name means one thing wherever it is used."""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Self


def as_json(value: object) -> str:
    """A value quoted in an error message as the client wrote it: JSON, never a Python repr."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return json.dumps(str(value), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Field:
    """How a translation names a field's value: the word before it and the word after it, as
    ``problem.word.<word>`` texts of ``domain/i18n``; or not at all, for a field that only words the
    English sentence (``this {whose}``: player, client address)."""

    label: str | None = None
    unit: str | None = None
    in_translation: bool = True


# fmt: off
FIELDS: dict[str, Field] = {
    # what the value is
    "game": Field("game"), "seat": Field("seat"), "version": Field("version"),
    "game_version": Field("version"), "changed_version": Field("version"),
    "decision_version": Field("decision_version"), "option": Field("option"),
    "level": Field("level"), "phrase": Field("phrase"), "endpoint": Field("endpoint"),
    "host": Field("host"), "mode": Field("mode"), "clock": Field("clock"),
    "status": Field("status"), "type": Field("type"), "other_type": Field("type"),
    # lists of names
    "known": Field("known"), "allowed": Field("allowed"), "unknown": Field("unknown"),
    "waiting": Field("waiting"),
    # the value sent, and bounds
    "got": Field("got"), "at_most": Field("at_most"), "at_least": Field("at_least"),
    "max_characters": Field("at_most", "characters"), "max_messages": Field("at_most", "messages"),
    "min_seats": Field("at_least", "seats"), "max_requests": Field("more_than", "requests"),
    "retry_s": Field("retry", "s"), "window_s": Field(unit="s"), "window_seconds": Field(unit="seconds"),
    "bytes": Field(unit="bytes"), "seats": Field(unit="seats"), "players": Field(unit="players"),
    "games": Field(unit="games"), "min_distinct": Field("at_least"), "min_bits": Field("at_least"),
    "deadline_s": Field(unit="s"), "timeout_s": Field(unit="s"), "requests": Field(unit="requests"),
    "levels": Field(unit="levels"), "max_levels": Field("at_most", "levels"), "fields": Field(unit="fields"),
    "aliases": Field(unit="aliases"), "max_entries": Field("at_most", "entries"),
    # words of the English sentence, not values at fault
    "what": Field(in_translation=False), "whose": Field(in_translation=False),
    "unicode_name": Field(in_translation=False),
}
"""Every field with a word of its own; any other field's value is shown alone: an id, a name the
API spells (``seed_mode``, ``body.type``), a number whose sentence already says what it is."""
# fmt: on


@dataclass(frozen=True, slots=True)
class Range:
    """Two bounds, said ``1 and 200`` or ``2 to 4`` in English (``{bounds:and}``, ``{bounds:to}``)
    and ``1–200`` in a translation."""

    low: int | float
    high: int | float

    def __format__(self, spec: str) -> str:
        return f"{self.low} {spec} {self.high}" if spec else str(self)

    def __str__(self) -> str:
        return f"{self.low}–{self.high}"


@dataclass(frozen=True, slots=True)
class Shown:
    """One value of a detail as it reads: the field it fills and its text."""

    field: str
    text: str


@dataclass(frozen=True, slots=True)
class Detail:
    """A sentence with named values. Placeholders follow ``str.format`` (``{seat}``, ``{wait:g}``,
    ``{name!r}``), with ``!q`` for a value in single quotes and ``!j`` for one quoted as JSON; a list
    or tuple reads as its items joined by commas."""

    template: str
    values: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def plain(cls, text: str) -> Detail:
        """A sentence that names no value (a library's own, say), taken as it is."""
        return cls(text.replace("{", "{{").replace("}", "}}"))

    @property
    def english(self) -> str:
        return "".join(literal + (text.text if text is not None else "") for literal, text in self._parts())

    def shown(self) -> list[Shown]:
        """The values in the order the sentence names them, each as the English shows it (a
        range as ``1–200``)."""
        return [text for _, text in self._parts(translated=True) if text is not None]

    def _parts(self, translated: bool = False) -> list[tuple[str, Shown | None]]:
        parts: list[tuple[str, Shown | None]] = []
        for literal, name, spec, conversion in string.Formatter().parse(self.template):
            if name is None:
                parts.append((literal, None))
                continue
            value = self.values[name]
            if conversion == "j":
                value = as_json(value)
            elif conversion == "q":
                value = f"'{value}'"
            elif conversion == "r":
                value = repr(value)
            elif isinstance(value, list | tuple):
                value = ", ".join(str(item) for item in value)
            text = str(value) if translated and isinstance(value, Range) else format(value, spec or "")
            parts.append((literal, Shown(name, _encodable(text))))
        return parts


def _encodable(text: str) -> str:
    """A lone surrogate a client sent (say, as an option name) cannot be encoded as UTF-8: quoted
    back verbatim it would turn a refusal into a 500."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class DomainError(Exception):
    """Base of every expected failure; the message is safe to show to the caller."""

    code = "domain_error"
    status = 400

    def __init__(self, template: str, /, **values: object) -> None:
        self.detail = Detail(template, values)
        self.message = self.detail.english
        super().__init__(self.message)

    @classmethod
    def saying(cls, detail: Detail) -> Self:
        """This error with another's detail (the same fault, seen from another resource)."""
        return cls(detail.template, **detail.values)

    def __reduce__(self) -> tuple[object, ...]:
        """Copied or pickled with its fields: its message is no template to fill again."""
        return (_restored, (type(self), self.message, self.__dict__))


def _restored(kind: type[DomainError], message: str, state: dict[str, object]) -> DomainError:
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class UnknownGameType(DomainError):
    """A game type named in a request (body or query) that is not hosted."""

    code = "unknown_game_type"
    status = 422


class GameTypeNotFound(UnknownGameType):
    """The same fault when the game type is the resource read (a path): 404, same code."""

    status = 404


class InvalidOptions(DomainError):
    code = "invalid_options"
    status = 422


class GameNotFound(DomainError):
    code = "game_not_found"
    status = 404


class GameFull(DomainError):
    code = "game_full"
    status = 409


class NotEnoughPlayers(DomainError):
    code = "not_enough_players"
    status = 409


class GameNotInLobby(DomainError):
    code = "game_not_in_lobby"
    status = 409


class GameNotInProgress(DomainError):
    code = "game_not_in_progress"
    status = 409


class GameOver(DomainError):
    code = "game_over"
    status = 409


class NotYourDecision(DomainError):
    code = "not_your_decision"
    status = 409


class IllegalChoice(DomainError):
    code = "illegal_choice"
    status = 422


class VersionConflict(DomainError):
    code = "version_conflict"
    status = 409


class StaleDecision(VersionConflict):
    """The client decided on a decision that has since moved on (the guard, not a storage race:
    trying again on fresh state cannot help)."""


class Unauthorized(DomainError):
    code = "unauthorized"
    status = 401


class Forbidden(DomainError):
    code = "forbidden"
    status = 403


class UnknownBotLevel(DomainError):
    code = "unknown_bot_level"
    status = 422


class InvalidSeed(DomainError):
    code = "invalid_seed"
    status = 422


class InvalidName(DomainError):
    code = "invalid_name"
    status = 422


class InviteRequired(DomainError):
    """A private game is joined only with its invite code."""

    code = "invite_required"
    status = 403


class SeatNotFound(DomainError):
    code = "seat_not_found"
    status = 404


class IdempotencyKeyReused(DomainError):
    """The IETF Idempotency-Key draft: a key reused with a different request body is refused."""

    code = "idempotency_key_reused"
    status = 422


class InvalidIdempotencyKey(DomainError):
    code = "invalid_idempotency_key"
    status = 422


class TooManyBotOnlyGames(DomainError):
    """Games of bots only cost the service and nobody waits on them: their number is bounded."""

    code = "too_many_bot_only_games"
    status = 429


class SeatBlocked(DomainError):
    """The host removed this identity (player, or client address) from the game and blocked it."""

    code = "seat_blocked"
    status = 403


class TooManyListedGames(DomainError):
    """Listed lobbies are bounded per player and per client address, so a script cannot flood
    the public lobby: start or abort one, or create a private (unlisted) game."""

    code = "too_many_listed_games"
    status = 429


class InvalidRequest(DomainError):
    code = "invalid_request"
    status = 422


class SeatResigned(DomainError):
    """The seat resigned or forfeited: a bot plays it for the rest of the game."""

    code = "seat_resigned"
    status = 409


class WebhookNotFound(DomainError):
    code = "webhook_not_found"
    status = 404


class WebhookTargetRefused(DomainError):
    """The URL points where the server must not send requests (private networks, metadata...)."""

    code = "webhook_target_refused"
    status = 422


class RematchExists(DomainError):
    code = "rematch_exists"
    status = 409


class GameNotFinished(DomainError):
    code = "game_not_finished"
    status = 409


class PlayerNotFound(DomainError):
    code = "player_not_found"
    status = 404


class InvalidChatMessage(DomainError):
    """A chat message that is empty, too long, carries refused characters or an unknown phrase."""

    code = "invalid_chat_message"
    status = 422


class ChatMuted(DomainError):
    code = "chat_muted"
    status = 403


class ChatFull(DomainError):
    """The game's chat holds as many entries as one chat may: nothing more is stored."""

    code = "chat_full"
    status = 409


class ChatRateLimited(DomainError):
    """The seat wrote its burst of messages: it waits ``retry_after`` seconds."""

    code = "chat_rate_limited"
    status = 429

    def __init__(self, template: str, /, *, retry_after: float, **values: object) -> None:
        super().__init__(template, **values)
        self.retry_after = retry_after


class TakeBacksOff(DomainError):
    """The game was created without take-backs (or its type has none)."""

    code = "takebacks_off"
    status = 409


class NothingToTakeBack(DomainError):
    """The seat has no decision it may still take back (none yet, or a reveal followed it)."""

    code = "nothing_to_take_back"
    status = 409


class TakeBackPending(DomainError):
    """A take-back request is already waiting for answers."""

    code = "takeback_pending"
    status = 409


class NoTakeBackRequest(DomainError):
    """No take-back request is waiting for this seat's answer."""

    code = "no_takeback_request"
    status = 409


class TournamentNotFound(DomainError):
    code = "tournament_not_found"
    status = 404


class RegistrationClosed(DomainError):
    """Players register and unregister only before the tournament starts."""

    code = "registration_closed"
    status = 409


class AlreadyRegistered(DomainError):
    code = "already_registered"
    status = 409


class NotRegistered(DomainError):
    code = "not_registered"
    status = 409


class TournamentFull(DomainError):
    code = "tournament_full"
    status = 409


class AlreadyWithdrawn(DomainError):
    code = "already_withdrawn"
    status = 409


class TournamentOver(DomainError):
    code = "tournament_over"
    status = 409


class TournamentRunning(DomainError):
    """A running tournament is not cancelled: its players withdraw one by one."""

    code = "tournament_running"
    status = 409


class NoticesOff(DomainError):
    """This server sends no notices on that channel (no VAPID keys, or no SMTP server, set)."""

    code = "notices_off"
    status = 409


class PushSubscriptionNotFound(DomainError):
    code = "push_subscription_not_found"
    status = 404


class InvalidPushSubscription(DomainError):
    """Not a browser's push subscription: an https endpoint and its p256dh and auth keys."""

    code = "invalid_push_subscription"
    status = 422


class InvalidEmail(DomainError):
    code = "invalid_email"
    status = 422
