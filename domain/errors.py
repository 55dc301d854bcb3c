"""Typed domain errors. Each carries a stable machine-readable ``code`` that the API maps to HTTP."""

from __future__ import annotations

import json


def as_json(value: object) -> str:
    """A value quoted in an error message as the client wrote it: JSON, never a Python repr."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return json.dumps(str(value), ensure_ascii=False)


class DomainError(Exception):
    """Base of every expected failure; the message is safe to show to the caller."""

    code = "domain_error"
    status = 400

    def __init__(self, message: str) -> None:
        # A lone surrogate a client sent (say, as an option name) cannot be encoded as UTF-8:
        # quoted back verbatim it would turn a refusal into a 500.
        message = message.encode("utf-8", "backslashreplace").decode("utf-8")
        super().__init__(message)
        self.message = message


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


class ChatRateLimited(DomainError):
    """The seat wrote its burst of messages: it waits ``retry_after`` seconds."""

    code = "chat_rate_limited"
    status = 429

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after
