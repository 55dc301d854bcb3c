"""Replay: a finished game as it stood after any event, recomputed from the seed and the choices.

Nothing of the stored state is used: the engine is set up again from the revealed seed and every
recorded decision is applied again in order, which is also the proof that the published seed and
the recorded choices determine the game (``matches_final_state``). A decision taken back
(``domain.model.takebacks``) is applied at the moments before its take-back, and not after.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.engine import JSON
from domain.errors import GameNotFinished, SeatNotFound
from domain.model.match import ShownEvent, effective_choices
from domain.model.seeding import rng_for_seed
from domain.services.core import ServiceCore


@dataclass(frozen=True, slots=True)
class Replayed:
    game_id: str
    at: int
    last_seq: int
    seat: int | None
    phase: str  # lobby or in_progress at that moment, or the game's final status
    state: dict[str, JSON] | None
    events: list[ShownEvent]
    used_seconds: list[float] | None
    matches_final_state: bool | None
    game_type: str = ""


class ReplayService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    def at(self, game_id: str, at: int, seat: int | None) -> Replayed:
        """The game after event ``at`` as ``seat`` (or a spectator) saw it then."""
        with self.core.uow() as uow:
            match = uow.games.get(game_id)
            if not match.is_over:
                raise GameNotFinished(
                    "game {game} is {status}; only an ended game replays",
                    game=game_id,
                    status=match.status.value,
                )
            if seat is not None and not 0 <= seat < len(match.seats):
                raise SeatNotFound("game {game} has no seat {seat}", game=game_id, seat=seat)
            at = max(0, min(at, match.last_seq))
            events = uow.games.events(game_id, 0, max(1, at)) if at else []
            applied = uow.games.applied_choices(game_id)
        engine = match.engine
        started = next((e.seq for e in events if e.event.type == "game_started"), None)
        state = None
        if started is not None:
            state, _ = engine.setup(len(match.seats), match.options, rng_for_seed(match.seed))
            for decision in effective_choices(applied, at):
                engine.apply(state, decision.choices)
        final = at == match.last_seq
        phase = "in_progress" if started is not None else "lobby"
        if final:
            phase = match.status.value
        matches = None
        if final and match.state is not None:
            matches = state is not None and engine.dump(state) == engine.dump(match.state)
        used = None
        if match.timing.settings.runs:
            used = [
                round(match.timing.seats[s].used, 3) if s in match.timing.seats else 0.0
                for s in range(len(match.seats))
            ]
        return Replayed(
            game_id=game_id,
            at=at,
            last_seq=match.last_seq,
            seat=seat,
            phase=phase,
            state=engine.view(state, seat) if state is not None else None,
            events=[e.for_viewer(seat) for e in events],
            used_seconds=used,
            matches_final_state=matches,
            game_type=match.game_type,
        )
