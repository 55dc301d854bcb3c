"""Take-backs: a seat asks to take back its latest decision, the seats that decided since answer
(the rules: ``domain.model.takebacks``). Each step is one change of the match, committed and
published like a move, so subscribers and webhooks see its events."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.model.match import AppliedChoices, Match, RecordedEvent
from domain.services.core import ServiceCore, retrying

History = Callable[[], Sequence[AppliedChoices]]


class TakeBackService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    def request(self, game_id: str, token: str | None) -> Match:
        """The token's seat takes back its latest decision, or asks the seats that decided since."""
        return self._change(
            game_id, token, lambda match, seat, history: match.request_takeback(seat, history)
        )

    def answer(self, game_id: str, token: str | None, accept: bool) -> Match:
        """The token's seat accepts or refuses the open request."""
        return self._change(
            game_id, token, lambda match, seat, history: match.answer_takeback(seat, accept, history)
        )

    def _change(
        self,
        game_id: str,
        token: str | None,
        change: Callable[[Match, int, History], list[RecordedEvent]],
    ) -> Match:
        def once() -> Match:
            with self.core.uow() as uow:
                match = uow.games.get(game_id, for_update=True)
                seat = self.core.require_seat(match, token)
                change(match, seat, lambda: uow.games.applied_choices(game_id))
                self.core.save(uow, match)
                uow.commit()
            self.core.committed(match)
            return match

        return retrying(once)
