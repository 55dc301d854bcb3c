"""Take-backs: a seat takes back its latest decision (or asks the seats that decided since), and
the seats asked answer."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import PresenceDep, TakeBacksDep, TokenDep
from api.openapi.contract import problems
from api.rest.models.games import GamePublic, changed_game
from api.rest.models.takebacks import TakeBackAnswer

router = APIRouter(prefix="/v1/games", tags=["takebacks"])

COMMON = ("game_not_found", "forbidden", "game_not_in_progress", "game_over", "seat_resigned")


@router.post(
    "/{game_id}/takebacks",
    operation_id="requestTakeback",
    openapi_extra=problems(*COMMON, "takebacks_off", "nothing_to_take_back", "takeback_pending"),
)
def request_takeback(
    game_id: str, takebacks: TakeBacksDep, presence: PresenceDep, token: TokenDep
) -> GamePublic:
    """Take back the token's seat's latest decision, if nothing hidden was revealed since.

    Nobody else decided since: it is taken back at once (event `taken_back`, carrying each
    viewer's view). Otherwise every seat a person plays that decided since is asked (event
    `takeback_requested`; the server's seats accept at once) and `takebacks.request` shows who
    must still answer."""
    match = takebacks.request(game_id, token)
    return changed_game(takebacks.core, presence, match, token)


@router.post(
    "/{game_id}/takebacks/answer",
    operation_id="answerTakeback",
    openapi_extra=problems(*COMMON, "no_takeback_request"),
)
def answer_takeback(
    game_id: str, body: TakeBackAnswer, takebacks: TakeBacksDep, presence: PresenceDep, token: TokenDep
) -> GamePublic:
    """Accept or refuse the take-back the token's seat is asked about.

    The last acceptance takes the decision back (events `takeback_accepted`, `taken_back`); a
    refusal ends the request (`takeback_refused`). A choice made before the last answer cancels
    it (`takeback_cancelled`)."""
    match = takebacks.answer(game_id, token, body.accept)
    return changed_game(takebacks.core, presence, match, token)
