"""Rematch: the next game of a finished one, with the same type, options, clock and seats."""

from __future__ import annotations

import uuid

from domain.errors import Unauthorized
from domain.model.clocks import Timing
from domain.model.match import Match
from domain.model.seeding import SEED_MODE_SERVER, commitment, new_salt, new_seed
from domain.model.takebacks import TakeBacks
from domain.model.tokens import hash_token, new_token
from domain.services.core import ServiceCore, retrying
from domain.services.lobby import Created
from domain.services.outbox import enqueue_outbox
from domain.services.seats import Joined


class RematchService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    def create(self, game_id: str, token: str | None) -> Created:
        """The next game: same type, options, clock and seats. Bots sit down at once; each
        person takes their seat by joining with the previous game's seat token (or player token).
        The caller (the host or a seat of the finished game) gets the new host token."""
        if token is None:
            raise Unauthorized("the host token or a seat token of the finished game is required")
        host_token = new_token()

        def once() -> Created:
            with self.core.uow() as uow:
                previous = uow.games.get(game_id, for_update=True)
                self.core.viewer(previous, token)  # refuses foreign tokens
                seed, salt = new_seed(), new_salt()
                match = Match(
                    id=uuid.uuid4().hex,
                    engine=previous.engine,
                    options=dict(previous.options),
                    seed=seed,
                    seed_commitment=commitment(seed, salt),
                    host_token_hash=hash_token(host_token),
                    created_at=self.core.clock.now(),
                    seed_salt=salt,
                    seed_mode=SEED_MODE_SERVER,
                    private=previous.private,
                    invite_code_hash=previous.invite_code_hash,
                    timing=Timing(previous.timing.settings),
                    takebacks=TakeBacks(previous.takebacks.allowed),
                    takeback_rules=previous.takeback_rules,
                )
                previous.link_rematch(match.id)
                match.offer_seats_of(previous)
                uow.games.add(match)
                self.core.save(uow, previous)
                for seat in match.seats:
                    if seat.player_id is not None:
                        uow.players.link_seat(seat.player_id, match.id, seat.index, match.created_at)
                enqueue_outbox(uow, match, set(), self.core.clock.now(), opening="rematch_offered")
                uow.commit()
            self.core.committed(previous)
            self.core.committed(match)
            return Created(match, host_token)

        return retrying(once)

    def take_held_seat(self, game_id: str, token: str) -> Joined | None:
        """A previous seat token takes its held rematch seat; None if the token holds none. The
        last held seat taken starts the game, in the same change: nobody has to press Start for a
        table that is already complete (every seat of a rematch was a seat of a started game)."""
        match = self.core.load(game_id)
        seat = match.seat_of_token_hash(hash_token(token))
        if seat is None or match.seats[seat].confirmed:
            return None
        fresh = new_token()

        def change(match: Match) -> int:
            index = match.seat_of_token_hash(hash_token(token))
            if index is None or match.seats[index].confirmed:
                raise Unauthorized("this seat has already been taken")
            match.confirm_seat(index, hash_token(fresh))
            if all(seat.confirmed for seat in match.seats):
                match.start()  # the table is complete again: the rematch starts by itself
            return index

        index, version = self.core.change(game_id, change)
        return Joined(index, fresh, version)
