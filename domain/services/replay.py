"""Replay: a game as it stood after any event, recomputed from the seed and the choices.

An ended game replays for anyone, as any seat or a spectator. A game still in progress replays
only for one of its seats, shown by that seat's own token, and only as that seat saw it: never
another seat's hidden information (``Engine.view`` and ``RecordedEvent.for_viewer`` filter both).

Nothing of the stored state is used: the engine is set up again from the revealed seed and every
recorded decision is applied again in order, which is also the proof that the published seed and
the recorded choices determine the game (``matches_final_state``). A decision taken back
(``domain.model.takebacks``) is applied at the moments before its take-back, and not after.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.engine import JSON
from domain.errors import Forbidden, GameNotFinished, SeatNotFound
from domain.model.match import AppliedChoices, Match, ShownEvent, effective_choices
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
    moves: list[int] = field(default_factory=list)
    """The event sequence numbers after which the board changed: the set-up board, then each
    completed decision (and take-back), then the end; a viewer steps through these."""


class ReplayService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    def at(self, game_id: str, at: int, seat: int | None, token: str | None = None) -> Replayed:
        """The game after event ``at`` as ``seat`` (or a spectator) saw it then. A game not yet
        ended: only as the seat of ``token`` (``seat`` absent or that seat)."""
        with self.core.uow() as uow:
            match = uow.games.get(game_id)
            if seat is not None and not 0 <= seat < len(match.seats):
                raise SeatNotFound("game {game} has no seat {seat}", game=game_id, seat=seat)
            if not match.is_over:
                seat = self._own_seat(match, seat, token)
            at = max(0, min(at, match.last_seq))
            history = uow.games.events(game_id, 0, match.last_seq) if match.last_seq else []
            applied = uow.games.applied_choices(game_id)
        events = [e for e in history if e.seq <= at]
        engine = match.engine
        started = next((e.seq for e in history if e.event.type == "game_started"), None)
        state = None
        opening = 0
        if started is not None:
            fresh, setup_events = engine.setup(len(match.seats), match.options, rng_for_seed(match.seed))
            opening = len(setup_events)
            if started <= at:
                state = fresh
                for decision in effective_choices(applied, at):
                    engine.apply(state, decision.choices)
        final = at == match.last_seq
        phase = "in_progress" if state is not None else "lobby"
        if final:
            phase = match.status.value
        matches = None
        if final and match.is_over and match.state is not None:
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
            moves=_moves(started, opening, applied, match.last_seq),
        )

    def _own_seat(self, match: Match, seat: int | None, token: str | None) -> int:
        """The seat an in-progress game replays as: the token's own, never another."""
        if token is None:
            raise GameNotFinished(
                "game {game} is {status}; it replays for anyone once it ended, and before that "
                "only for its seats, with the seat's token",
                game=match.id,
                status=match.status.value,
            )
        viewer = self.core.viewer(match, token)
        if viewer.seat is None:
            raise Forbidden(
                "game {game} is {status}: only a seat still playing it may replay it before it ends",
                game=match.id,
                status=match.status.value,
            )
        if seat is not None and seat != viewer.seat:
            raise Forbidden(
                "game {game} is {status}: your token replays it as seat {own} only, not as seat {seat}",
                game=match.id,
                status=match.status.value,
                own=viewer.seat,
                seat=seat,
            )
        return viewer.seat


def _moves(started: int | None, opening: int, applied: list[AppliedChoices], last_seq: int) -> list[int]:
    """The steps of a replay: after the start and its set-up events, after each decision and
    take-back, and the last event (an end without a decision: a resignation, a clock, an abort)."""
    if started is None:
        return [last_seq] if last_seq else []
    steps = [started + opening]
    for entry in applied:
        if entry.seq > steps[-1]:
            steps.append(entry.seq)
    if last_seq > steps[-1]:
        steps.append(last_seq)
    return steps
