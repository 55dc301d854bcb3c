"""Play: a seat's pending choices, its submits (on a thread or awaited on the loop), bots' turns."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol, TypeVar

from domain.bots.turns import bot_choice, next_bot_seat
from domain.engine import JSON, Choice
from domain.errors import SeatResigned, StaleDecision, VersionConflict
from domain.model.idempotency import Remembered, fingerprint, same_request
from domain.model.match import Match, SubmitResult
from domain.ports import BotGame, UnitOfWork
from domain.services.core import MAX_RETRIES, ServiceCore
from domain.services.decisions import describe_decision, next_decision
from domain.transactions import QueuedTransactions, Work

T = TypeVar("T")


class Offload(Protocol):
    """Runs a blocking call on a thread and awaits its value (the API's thread pool)."""

    def __call__(self, call: Callable[[], T], /) -> Awaitable[T]: ...


@dataclass(frozen=True, slots=True)
class PendingChoices:
    version: int
    decision: dict[str, JSON] | None
    choices: list[Choice]
    game_type: str = ""
    seat: int | None = None
    """Whose choices (None: a spectator's or the host's, which are none)."""
    decision_version: int | None = None


SubmitListener = Callable[[str, list[str]], None]
"""Told of every committed submit: its status and the types of the events it produced."""


class PlayService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core
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
    ) -> dict[str, JSON]:
        """Seal or apply a seat's choice; a retried key returns the first result unchanged, the
        same key with another choice or version is refused."""
        request, expected = _submit_request(choice, version, decision_version)
        for attempt in range(MAX_RETRIES):
            work = self._submit_work(game_id, token, choice, expected, idempotency_key, request)
            try:
                response, result, match = self.core.transactions.run(game_id, work)
            except VersionConflict as conflict:
                # Another writer got there first: the guards are simply run again on the fresh
                # state, which answers 409 only if this seat's own decision has moved on.
                if not _gives_up(conflict, attempt):
                    continue
                earlier = None
                if idempotency_key is not None:
                    earlier = self._remembered(game_id, token, idempotency_key)
                return _answer_after_giving_up(conflict, earlier, request)
            if result is not None:
                self._after_submit(result, match)
            return response
        raise AssertionError("unreachable")

    async def submit_async(
        self,
        offload: Offload,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None = None,
        idempotency_key: str | None = None,
        decision_version: int | None = None,
    ) -> dict[str, JSON]:
        """``submit`` for an event loop: the submit is queued to the group commit and its answer
        awaited, so no thread is held while it waits for its commit; ``offload`` runs on a thread
        what blocks (reading an earlier answer, publishing). Same guards, retries and answers."""
        transactions = self.core.transactions
        if not isinstance(transactions, QueuedTransactions):
            return await offload(
                partial(self.submit, game_id, token, choice, version, idempotency_key, decision_version)
            )
        request, expected = _submit_request(choice, version, decision_version)
        for attempt in range(MAX_RETRIES):
            work = self._submit_work(game_id, token, choice, expected, idempotency_key, request)
            try:
                response, result, match = await asyncio.wrap_future(transactions.start(game_id, work))
            except VersionConflict as conflict:
                if not _gives_up(conflict, attempt):
                    continue
                earlier = None
                if idempotency_key is not None:
                    earlier = await offload(partial(self._remembered, game_id, token, idempotency_key))
                return _answer_after_giving_up(conflict, earlier, request)
            if result is not None:
                await offload(partial(self._after_submit, result, match))
            return response
        raise AssertionError("unreachable")

    def _submit_work(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        expected: tuple[int | None, int | None],
        idempotency_key: str | None,
        request: str,
    ) -> Work[tuple[dict[str, JSON], SubmitResult | None, Match]]:
        def work(uow: UnitOfWork) -> tuple[dict[str, JSON], SubmitResult | None, Match]:
            match = uow.games.get(game_id, for_update=True)
            seat = self.core.require_seat(match, token)
            key = f"{seat}:{idempotency_key}" if idempotency_key is not None else None
            if key is not None:
                earlier = uow.games.idempotent_result(game_id, key)
                if earlier is not None:
                    same_request(earlier, request)
                    return earlier.response, None, match
            if match.seats[seat].has_quit:
                raise SeatResigned(
                    "seat {seat} has {stand_in}", seat=seat, stand_in=match.seats[seat].stand_in
                )
            result = match.submit(seat, choice, *expected)
            match.return_to_seat(seat)  # acting again takes the seat back from a stand-in bot
            response: dict[str, JSON] = {
                "game_type": match.game_type,
                "status": result.status,
                "version": match.version,
                "decision_version": match.decision_version_for(seat),
                "events": [event.for_viewer(seat) for event in result.events],
                "next": next_decision(match, seat),
            }
            self.core.save(uow, match, seat)
            if key is not None:
                uow.games.remember_result(game_id, key, response, request)
            return response, result, match

        return work

    def _after_submit(self, result: SubmitResult, match: Match) -> None:
        self._submitted(result)
        self.core.committed(match)

    def _remembered(self, game_id: str, token: str | None, key: str) -> Remembered | None:
        with self.core.uow() as uow:
            match = uow.games.get(game_id)
            seat = self.core.require_seat(match, token)
            return uow.games.idempotent_result(game_id, f"{seat}:{key}")

    def play_bot_turn(self, game_id: str) -> bool:
        """Play one pending decision of a bot seat, if any; True when one was played.

        The bot decides from what its seat may see, and its choice goes through the same guards
        as a human's. A concurrent change simply makes this a no-op (the caller tries again).
        """

        def work(uow: UnitOfWork) -> tuple[SubmitResult, Match] | None:
            match = uow.games.get(game_id)
            seat = next_bot_seat(match)
            if seat is None:
                return None
            result = match.submit(seat, bot_choice(match, seat), match.version)
            match.decision_played(seat)
            self.core.save(uow, match, seat)
            return result, match

        played = self.core.transactions.run(game_id, work)
        if played is None:
            return False
        self._submitted(played[0])
        self.core.committed(played[1])
        return True

    def games_with_bots_in_progress(self, after: str, limit: int) -> list[BotGame]:
        with self.core.uow() as uow:
            return uow.games.bot_games_in_progress(after, limit)

    def _submitted(self, result: SubmitResult) -> None:
        types = [event.event.type for event in result.events]
        for listener in self.submit_listeners:
            listener(result.status, types)

    def next_after(self, game_id: str, seat: int) -> tuple[int, dict[str, JSON] | None]:
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


def _answer_after_giving_up(
    conflict: VersionConflict, earlier: Remembered | None, request: str
) -> dict[str, JSON]:
    """After the last conflict: the first answer to the same idempotent submit (a retry whose first
    try committed), else the conflict itself."""
    if earlier is None:
        raise conflict
    same_request(earlier, request)
    return earlier.response
