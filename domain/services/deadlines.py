"""Deadlines that fire from the database, not from one process's memory: clocks and old lobbies.

Every instance runs ``fire_due`` now and then. Each round claims one due game in its own
transaction (on PostgreSQL the row is locked with ``FOR UPDATE SKIP LOCKED``, so instances never
wait for each other or take the same game), applies what is due through the match aggregate and
commits. The match's version guard makes a second firing impossible even without the lock: a
deadline fires exactly once, also across restarts, because it is a stored time, not a timer.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from domain.model.clocks import LAPSES_BEFORE_STAND_IN
from domain.model.match import Match, MatchStatus
from domain.services.core import ServiceCore


class DeadlineService:
    def __init__(
        self,
        core: ServiceCore,
        lobby_ttl: timedelta | None = None,
        lapses_before_stand_in: int = LAPSES_BEFORE_STAND_IN,
    ) -> None:
        self.core = core
        self.lobby_ttl = lobby_ttl
        self.lapses_before_stand_in = lapses_before_stand_in

    def fire_due(self, limit: int = 100) -> int:
        """Fire what is due now, one game per transaction; the number of games changed."""
        fired = 0
        while fired < limit:
            with self.core.uow() as uow:
                now = self.core.clock.now()
                lobby_cutoff = now - self.lobby_ttl if self.lobby_ttl is not None else None
                game_id = uow.games.claim_due(now, lobby_cutoff)
                if game_id is None:
                    return fired
                match = uow.games.get(game_id)
                if not self._fire(match, now):
                    return fired  # claimed but nothing due: never spin on it
                self.core.save(uow, match)
                uow.commit()
            self.core.committed(match)
            fired += 1
        return fired

    def _fire(self, match: Match, now: datetime) -> bool:
        if match.status is MatchStatus.LOBBY:
            match.expire_lobby()
            return True
        expired = [seat for seat in match.timing.expired(now) if not match.seats[seat].plays_itself]
        for seat in expired:
            self._lapse(match, seat)
        return bool(expired)

    def _lapse(self, match: Match, seat: int) -> None:
        """A lapse hands the stand-in this decision only; the player may be back for the next
        one. Only ``lapses_before_stand_in`` lapses in a row give it the seat until the player
        returns: a short clock against bots must not let them play the game out in seconds."""
        settings = match.timing.settings
        clock = match.timing.clock(seat)
        clock.lapses += 1
        if not settings.runs:  # the inactivity limit: days of silence, not a lapse of attention
            match.expire_clock(seat, "bot")
        elif settings.on_expiry == "bot" and clock.lapses < (
            settings.lapses_before_stand_in or self.lapses_before_stand_in
        ):
            match.lapse(seat, clock.lapses)
        else:
            match.expire_clock(seat, settings.on_expiry)
