"""Player identities: one token across games, "my games", and re-issuing a lost seat token.

A player is optional: anonymous seat tokens keep working. Joining with a player token ties the
seat to the player; the player's token is never a seat token itself (a leaked seat token only
exposes one seat, a player token only what the player's own seats may see).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from domain.engine import JSON
from domain.errors import Forbidden, GameNotFound, Unauthorized
from domain.model.match import Match
from domain.model.names import clean_seat_name
from domain.model.players import Player
from domain.model.tokens import hash_token, new_token
from domain.ports.unit_of_work import UnitOfWork
from domain.services.core import ServiceCore
from domain.services.seats import Joined, SeatService


@dataclass(frozen=True, slots=True)
class PlayerCreated:
    player: Player
    token: str


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One of a player's games as that player's seat sees its status."""

    game_id: str
    game_type: str
    status: str
    seat: int
    version: int
    decision_version: int | None
    """The seat's concurrency token for its current decision (None: nothing to decide)."""
    your_turn: bool
    waiting_since: datetime | None
    deadline: datetime | None
    joined_at: datetime
    stand_in: str | None


class PlayerService:
    def __init__(self, core: ServiceCore, seats: SeatService) -> None:
        self.core = core
        self.seats = seats

    def create(self, name: str) -> PlayerCreated:
        """The name follows the seat-name rules: it becomes the seat name of the player's seats."""
        token = new_token()
        name = clean_seat_name(name)
        player = Player(uuid.uuid4().hex, name, hash_token(token), self.core.clock.now())
        with self.core.uow() as uow:
            uow.players.add(player)
            uow.commit()
        return PlayerCreated(player, token)

    def authenticate(self, token: str | None) -> Player:
        if token is None:
            raise Unauthorized("a player token is required (Authorization: Bearer <player token>)")
        with self.core.uow() as uow:
            return self._player(uow, token)

    def find(self, token: str) -> Player | None:
        """The player of a token, or None when it is no player token."""
        with self.core.uow() as uow:
            return uow.players.by_token_hash(hash_token(token))

    def join(self, game_id: str, token: str, name: str | None, invite_code: str | None = None) -> Joined:
        """Take the next seat as this player (named after the player unless a name is given)."""
        player = self.authenticate(token)
        return self.seats.join(game_id, name or player.name, None, None, invite_code, player_id=player.id)

    def games_of(self, token: str | None, limit: int, offset: int) -> list[PlayerGame]:
        player = self.authenticate(token)
        found = []
        with self.core.uow() as uow:
            for link in uow.players.seats_of(player.id, limit, offset):
                match = uow.games.get(link.game_id)
                # Seats move up when an earlier one leaves the lobby: find the player's seat now.
                seat = next((s.index for s in match.seats if s.player_id == player.id), None)
                if seat is None:
                    continue  # the player left that lobby
                clock = match.timing.seats.get(seat)
                found.append(
                    PlayerGame(
                        game_id=match.id,
                        game_type=match.game_type,
                        status=match.status.value,
                        seat=seat,
                        version=match.version,
                        decision_version=match.decision_version_for(seat),
                        your_turn=seat in match.awaited_seats(),
                        waiting_since=clock.since if clock else None,
                        deadline=clock.deadline if clock else None,
                        joined_at=link.joined_at,
                        stand_in=match.seats[seat].stand_in,
                    )
                )
        return found

    def reissue_seat_token(self, token: str | None, game_id: str, seat: int) -> Joined:
        """A new token for the player's own seat; the old seat token stops working at once."""
        player = self.authenticate(token)
        new = new_token()

        def change(match: Match) -> int:
            if not 0 <= seat < len(match.seats):
                raise GameNotFound("game {game} has no seat {seat}", game=game_id, seat=seat)
            if match.seats[seat].player_id != player.id:
                raise Forbidden(
                    "seat {seat} of game {game} is not held by this player", seat=seat, game=game_id
                )
            match.replace_seat_token(seat, hash_token(new))
            return seat

        _, version = self.core.change(game_id, change)
        return Joined(seat, new, version)

    @staticmethod
    def _player(uow: UnitOfWork, token: str) -> Player:
        player = uow.players.by_token_hash(hash_token(token))
        if player is None:
            raise Unauthorized("the bearer token is not a player token")
        return player


def player_public(player: Player) -> dict[str, JSON]:
    return {"id": player.id, "name": player.name, "created_at": player.created_at.isoformat()}
