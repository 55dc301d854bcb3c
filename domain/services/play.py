"""Play: a seat's pending choices, its submits (one use case for a thread and an event loop),
bots' turns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypedDict

from domain.bots.search import SearchBudget
from domain.bots.thinking import SEARCHING_LEVELS, BotBudget, Thinker, ThinkRequest
from domain.bots.turns import bot_choice, next_bot_seat
from domain.engine import JSON, Choice, Stored
from domain.errors import IllegalChoice, SeatResigned, StaleDecision, VersionConflict
from domain.model.idempotency import fingerprint, same_request
from domain.model.match import DescribedDecision, Match, Offer, ShownEvent, SubmitResult
from domain.ports.games import BotGame
from domain.ports.transactions import InPlace, Work, WorkRunner, completed
from domain.ports.unit_of_work import UnitOfWork
from domain.services.core import MAX_RETRIES, ServiceCore
from domain.services.decisions import describe_decision, next_decision


@dataclass(frozen=True, slots=True)
class PendingChoices:
    version: int
    decision: DescribedDecision | None
    choices: list[Choice]
    game_type: str = ""
    seat: int | None = None
    """Whose choices (None: a spectator's or the host's, which are none)."""
    decision_version: int | None = None


@dataclass(frozen=True, slots=True)
class SubmitAnswer:
    """What a submit answers its seat, the same for every API, and what its idempotency key
    answers again."""

    game_type: str
    status: str
    """``sealed`` (others still choosing) or ``applied``."""
    version: int
    decision_version: int | None
    """The seat's concurrency token now (None when it has nothing to decide)."""
    events: list[ShownEvent]
    """The events the submit produced, as the seat sees them."""
    next: Offer | None
    """What the seat must decide next (None if nothing)."""

    def recorded(self) -> RecordedAnswer:
        """As stored with its idempotency key."""
        return {
            "game_type": self.game_type,
            "status": self.status,
            "version": self.version,
            "decision_version": self.decision_version,
            "events": self.events,
            "next": self.next,
        }

    @classmethod
    def replayed(cls, recorded: Stored, game_type: str) -> SubmitAnswer:
        """A stored answer; one stored before answers named their game type gets its game's."""
        return cls(
            recorded.get("game_type") or game_type,
            recorded["status"],
            recorded["version"],
            recorded.get("decision_version"),
            recorded["events"],
            recorded.get("next"),
        )


class RecordedAnswer(TypedDict):
    """A submit's answer as stored with its idempotency key (``SubmitAnswer.recorded``)."""

    game_type: str
    status: str
    version: int
    decision_version: int | None
    events: list[ShownEvent]
    next: Offer | None


SubmitListener = Callable[[str, list[str]], None]
"""Told of every committed submit: its status and the types of the events it produced."""


class PlayService:
    def __init__(self, core: ServiceCore, on_loop: WorkRunner | None = None) -> None:
        self.core = core
        self.on_loop = on_loop
        """How ``submit_async`` runs its steps on an event loop (the composition root's adapter:
        the commit awaited, blocking calls on threads); None: in place, as ``submit``."""
        self.submit_listeners: list[SubmitListener] = []

    def pending(self, game_id: str, token: str | None) -> PendingChoices:
        with self.core.uow() as uow:
            match = uow.games.get(game_id)
        viewer = self.core.viewer(match, token)
        decision, choices = match.choices_for(viewer.seat)
        return PendingChoices(
            match.version,
            describe_decision(decision, match, viewer.seat) if decision else None,
            choices,
            match.game_type,
            viewer.seat,
            match.decision_version_for(viewer.seat),
        )

    def submit(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None = None,
        idempotency_key: str | None = None,
        decision_version: int | None = None,
    ) -> SubmitAnswer:
        """``submit_async`` on the caller's thread: each step run in place."""
        steps = InPlace(self.core.transactions)
        return completed(
            self._submit(steps, game_id, token, choice, version, idempotency_key, decision_version)
        )

    async def submit_async(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None = None,
        idempotency_key: str | None = None,
        decision_version: int | None = None,
        game_type: str | None = None,
    ) -> SubmitAnswer:
        """Seal or apply a seat's choice, answered once it is committed: the one handler of a move
        (REST, the pre-resolved REST route, GraphQL). A retried key returns the first answer
        unchanged, the same key with another choice or version is refused. ``game_type``: the game
        the choice was typed for (GraphQL's ``gameChoice``); a game of another type refuses it."""
        steps = self.on_loop or InPlace(self.core.transactions)
        return await self._submit(
            steps, game_id, token, choice, version, idempotency_key, decision_version, game_type
        )

    async def _submit(
        self,
        steps: WorkRunner,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None,
        idempotency_key: str | None,
        decision_version: int | None,
        game_type: str | None = None,
    ) -> SubmitAnswer:
        request, expected = _submit_request(choice, version, decision_version)
        for attempt in range(MAX_RETRIES):
            work = self._submit_work(game_id, token, choice, expected, idempotency_key, request, game_type)
            try:
                answer, result, match = await steps.transaction(game_id, work)
            except VersionConflict as conflict:
                # Another writer got there first: the guards are simply run again on the fresh
                # state, which answers 409 only if this seat's own decision has moved on.
                if not _gives_up(conflict, attempt):
                    continue
                # A retry whose first try committed gets that first answer; else the conflict.
                if idempotency_key is None:
                    raise
                replay = partial(self._replay, game_id, token, idempotency_key, request)
                earlier = await steps.blocking(replay)
                if earlier is None:
                    raise
                return earlier
            if result is not None:
                await steps.blocking(partial(self._after_submit, result, match))
            return answer
        raise AssertionError("unreachable")

    def _submit_work(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        expected: tuple[int | None, int | None],
        idempotency_key: str | None,
        request: str,
        game_type: str | None = None,
    ) -> Work[tuple[SubmitAnswer, SubmitResult | None, Match]]:
        def work(uow: UnitOfWork) -> tuple[SubmitAnswer, SubmitResult | None, Match]:
            match = uow.games.get(game_id, for_update=True)
            seat = self.core.require_seat(match, token)
            if game_type is not None and game_type != match.game_type:
                raise IllegalChoice(
                    "the choice is typed for a game of type `{other_type}`; game {game} is of type "
                    "`{type}` (give it under its own field of gameChoice)",
                    other_type=game_type,
                    game=match.id,
                    type=match.game_type,
                )
            key = f"{seat}:{idempotency_key}" if idempotency_key is not None else None
            if key is not None:
                earlier = uow.games.idempotent_result(game_id, key)
                if earlier is not None:
                    same_request(earlier, request)
                    return SubmitAnswer.replayed(earlier.response, match.game_type), None, match
            if match.seats[seat].has_quit:
                raise SeatResigned(
                    "seat {seat} has {stand_in}", seat=seat, stand_in=match.seats[seat].stand_in
                )
            result = match.submit(seat, choice, *expected)
            match.decided_in_person(seat)
            match.return_to_seat(seat)  # acting again takes the seat back from a stand-in bot
            answer = SubmitAnswer(
                match.game_type,
                result.status,
                match.version,
                match.decision_version_for(seat),
                [event.for_viewer(seat) for event in result.events],
                next_decision(match, seat),
            )
            self.core.save(uow, match, seat)
            if key is not None:
                uow.games.remember_result(game_id, key, answer.recorded(), request)
            return answer, result, match

        return work

    def _after_submit(self, result: SubmitResult, match: Match) -> None:
        self._submitted(result)
        self.core.committed(match)

    def _replay(self, game_id: str, token: str | None, key: str, request: str) -> SubmitAnswer | None:
        """The first answer to this seat's ``key``, if any (refused for another request)."""
        with self.core.uow() as uow:
            match = uow.games.get(game_id)
            seat = self.core.require_seat(match, token)
            earlier = uow.games.idempotent_result(game_id, f"{seat}:{key}")
        if earlier is None:
            return None
        same_request(earlier, request)
        return SubmitAnswer.replayed(earlier.response, match.game_type)

    def play_bot_turn(
        self, game_id: str, think: Thinker | None = None, budget: BotBudget | None = None
    ) -> bool:
        """Play one pending decision of a bot seat, if any; True when one was played.

        The bot decides from what its seat may see, before and outside the transaction: on this
        thread, or through ``think`` (the server's pool) for the levels that search, within
        ``budget`` (None: the strong level's default iterations, no deadline). Its choice then goes
        through the same guards as a human's, only if the match is still at the version it
        thought about: otherwise ``VersionConflict`` (the caller queues the game again and the bot
        thinks again). Nothing is written while it thinks.
        """
        with self.core.uow() as uow:
            seen = uow.games.get(game_id)
        thinking = next_bot_seat(seen)
        if thinking is None:
            return False
        choice = self._bot_choice(seen, thinking, think, budget)

        def work(uow: UnitOfWork) -> tuple[SubmitResult, Match] | None:
            match = uow.games.get(game_id)
            seat = next_bot_seat(match)
            if seat is None:
                return None
            if match.version != seen.version or seat != thinking:
                raise VersionConflict("game {game_id} moved on while its bot thought", game_id=game_id)
            result = match.submit(seat, choice, match.version)
            match.decision_played(seat)
            self.core.save(uow, match, seat)
            return result, match

        played = self.core.transactions.run(game_id, work)
        if played is None:
            return False
        self._submitted(played[0])
        self.core.committed(played[1])
        return True

    def _bot_choice(self, match: Match, seat: int, think: Thinker | None, budget: BotBudget | None) -> Choice:
        game = self.core.registry.game(match.game_type)
        level = match.bot_level(seat)
        assert level is not None
        if budget is None:
            return bot_choice(match, seat, game.search)
        seconds = budget.for_clock(self._clock_seconds(match, seat))
        if think is None or level not in SEARCHING_LEVELS or game.search is None:
            deadline = (
                SearchBudget(budget.iterations)
                if seconds is None
                else SearchBudget.within(seconds, budget.iterations)
            )
            return bot_choice(match, seat, game.search, deadline)
        request = ThinkRequest(
            match.game_type,
            match.engine.dump(match.state),
            seat,
            level,
            match.seed,
            match.seed_salt,
            match.version,
            seconds,
            budget.iterations,
        )
        return think(request)

    def _clock_seconds(self, match: Match, seat: int) -> float | None:
        """The time the game's clock gives this decision: what is left on the seat's running clock
        or, for a seat the server plays (whose clock does not run), what the clock would give it
        (a decision's seconds, or the seat's Fischer bank); None in a game without a clock."""
        settings = match.timing.settings
        if not settings.runs:
            return None
        clock = match.timing.seats.get(seat)
        if clock is not None and clock.deadline is not None:
            return (clock.deadline - self.core.clock.now()).total_seconds()
        if settings.mode == "fischer" and clock is not None and clock.bank is not None:
            return clock.bank
        return settings.seconds

    def games_with_bots_in_progress(self, after: str, limit: int) -> list[BotGame]:
        with self.core.uow() as uow:
            return uow.games.bot_games_in_progress(after, limit)

    def _submitted(self, result: SubmitResult) -> None:
        types = [event.event.type for event in result.events]
        for listener in self.submit_listeners:
            listener(result.status, types)

    def next_after(self, game_id: str, seat: int) -> tuple[int, Offer | None]:
        """The game's last ``seq`` and what ``seat`` must decide now (None if nothing): for a live
        stream that caught up from storage, whose stored events carry no ``next``."""
        with self.core.uow() as uow:
            match = uow.games.get(game_id)
        return match.last_seq, next_decision(match, seat)


def _submit_request(
    choice: Choice, version: int | None, decision_version: int | None
) -> tuple[str, tuple[int | None, int | None]]:
    """A submit's fingerprint (for its idempotency key) and the versions it expects."""
    named: dict[str, JSON] = {"choice": choice, "version": version}
    if decision_version is not None:
        named["decision_version"] = decision_version
    return fingerprint(named), (version, decision_version)


def _gives_up(conflict: VersionConflict, attempt: int) -> bool:
    """Whether a conflicted submit stops retrying: its own decision moved on, or no tries left."""
    return isinstance(conflict, StaleDecision) or attempt == MAX_RETRIES - 1
