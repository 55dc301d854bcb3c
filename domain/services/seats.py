"""Seats and the table's life: joining, leaving, starting, aborting, resigning, returning."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.bots import validate_level
from domain.errors import Forbidden, InviteRequired, TooManyBotOnlyGames, Unauthorized
from domain.model.idempotency import (
    Remembered,
    check_token_key,
    fingerprint,
    key_hash,
    new_nonce,
    same_request,
    token_for_key,
)
from domain.model.match import Match
from domain.model.names import clean_seat_name
from domain.model.tokens import hash_token, new_token, token_matches
from domain.services.core import ServiceCore, retrying


@dataclass(frozen=True, slots=True)
class Joined:
    seat: int
    token: str | None  # None for a bot seat: no token exists for it
    version: int


class SeatService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self.max_bot_only_games: int | None = None
        """In-progress games of bots only, across instances; None: unbounded."""

    def join(
        self,
        game_id: str,
        name: str,
        bot: str | None = None,
        token: str | None = None,
        invite_code: str | None = None,
        idempotency_key: str | None = None,
        player_id: str | None = None,
        caller: str = "",
        address: str | None = None,
    ) -> Joined:
        """Take the next seat. A bot is seated by the host only and gets no token at all; a
        person joins a private game only with its invite code. A retried key takes no second seat.
        With ``player_id`` the seat is tied to that player (or, in a rematch, the player's held
        seat is taken). The client ``address`` is kept (hashed) with the seat, so that a host
        can block whoever took it.
        """
        if bot is not None:
            validate_level(bot)
        name = clean_seat_name(name)
        key = check_token_key(idempotency_key) if idempotency_key is not None else None
        request = fingerprint({"name": name, "bot": bot, "invite_code": invite_code})
        return retrying(
            lambda: self._join_once(
                game_id, name, bot, token, invite_code, key, request, player_id, caller, address
            )
        )

    def _join_once(
        self,
        game_id: str,
        name: str,
        bot: str | None,
        token: str | None,
        invite_code: str | None,
        key: str | None,
        request: str,
        player_id: str | None = None,
        caller: str = "",
        address: str | None = None,
    ) -> Joined:
        remembered_as = f"join:{key_hash(key, caller)}" if key is not None else None
        nonce = new_nonce()
        seat_token = None
        if bot is None:
            seat_token = token_for_key(key, nonce, "seat") if key else new_token()
        with self.core.uow() as uow:
            match = uow.games.get(game_id, for_update=True)
            if key is not None and remembered_as is not None:
                earlier = uow.games.idempotent_result(game_id, remembered_as)
                if earlier is not None:
                    return _joined_earlier(match, earlier, key, request)
            if bot is not None:
                self.core.require_host(match, token)
            elif match.private:
                self._require_invite(match, invite_code)
            held = [s for s in match.seats if not s.confirmed and s.player_id == player_id]
            if player_id is not None and held:
                # The player's seat in a rematch: taking it confirms it (already linked).
                assert seat_token is not None
                seat = held[0].index
                match.confirm_seat(seat, hash_token(seat_token))
            else:
                joined = match.join(
                    name,
                    hash_token(seat_token) if seat_token else "",
                    bot,
                    player_id=player_id,
                    address_hash=hash_token(address) if address is not None else None,
                )
                seat = joined.index
                if player_id is not None:
                    uow.players.link_seat(player_id, match.id, seat, self.core.clock.now())
            self.core.save(uow, match)
            if remembered_as is not None:
                result = {"seat": seat, "nonce": nonce, "version": match.version, "bot": bot is not None}
                uow.games.remember_result(game_id, remembered_as, result, request)
            uow.commit()
        self.core.committed(match)
        return Joined(seat, seat_token, match.version)

    def remove_seat(self, game_id: str, seat: int, token: str | None, block: bool = False) -> Match:
        """Free a lobby seat: the host may remove any seat, a seat only itself. ``block`` (host
        only): whoever took the seat cannot sit down in this game again."""

        def change(match: Match) -> Match:
            if token is None:
                raise Unauthorized("the host's or the seat's token is required")
            viewer = self.core.viewer(match, token)
            if block and not viewer.is_host:
                raise Forbidden("only the host may block a seat-taker")
            if viewer.seat == seat:
                match.leave(seat, "self")
            elif viewer.is_host:
                match.leave(seat, "host", block=block)
            else:
                raise Forbidden("a seat may only remove itself; the host may remove any seat")
            return match

        match, _ = self.core.change(game_id, change)
        return match  # type: ignore[no-any-return]

    def start(self, game_id: str, token: str | None) -> Match:
        """Start the game (host). Games of bots only are bounded: anyone may create them, and
        nobody waits on them, so they must not crowd out games where people play."""
        limit = self.max_bot_only_games
        if limit is not None:
            with self.core.uow() as uow:
                match = uow.games.get(game_id)
                self.core.require_host(match, token)
                bots_only = bool(match.seats) and all(seat.bot for seat in match.seats)
                if bots_only and uow.games.count_bot_only_in_progress() >= limit:
                    raise TooManyBotOnlyGames(
                        "{games} games of bots only are already in progress; seat a person, "
                        "or start this game later",
                        games=limit,
                    )
        return self._host_change(game_id, token, lambda match: match.start())

    def abort(self, game_id: str, token: str | None) -> Match:
        return self._host_change(game_id, token, lambda match: match.abort())

    # -- quitters ----------------------------------------------------------------------------------

    def resign(self, game_id: str, token: str | None) -> Match:
        """The token's seat resigns; a bot plays it to the end and the result says so."""
        return self._seat_change(game_id, token, lambda match, seat: match.resign(seat))

    def return_to_seat(self, game_id: str, token: str | None) -> Match:
        """A seat whose clock ran out takes it back from the bot that stood in."""
        return self._seat_change(game_id, token, lambda match, seat: match.return_to_seat(seat))

    def _seat_change(self, game_id: str, token: str | None, change: Callable[[Match, int], Any]) -> Match:
        def guarded(match: Match) -> Match:
            change(match, self.core.require_seat(match, token))
            return match

        match, _ = self.core.change(game_id, guarded)
        return match  # type: ignore[no-any-return]

    @staticmethod
    def _require_invite(match: Match, invite_code: str | None) -> None:
        if not token_matches(invite_code, match.invite_code_hash):
            raise InviteRequired("game {game} is private: join it with its invite code", game=match.id)

    def _host_change(self, game_id: str, token: str | None, change: Callable[[Match], Any]) -> Match:
        def guarded(match: Match) -> Match:
            self.core.require_host(match, token)
            change(match)
            return match

        match, _ = self.core.change(game_id, guarded)
        return match  # type: ignore[no-any-return]


def _joined_earlier(match: Match, earlier: Remembered, key: str, request: str) -> Joined:
    """The first answer to a retried join: the same token, and the seat where it sits now (a seat
    before it may have left since)."""
    same_request(earlier, request)
    response = earlier.response
    seat = int(response["seat"])
    if response.get("bot"):
        return Joined(seat, None, int(response["version"]))
    seat_token = token_for_key(key, str(response["nonce"]), "seat")
    now = match.seat_of_token_hash(hash_token(seat_token))
    return Joined(seat if now is None else now, seat_token, int(response["version"]))
