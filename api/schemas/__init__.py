"""Request and response schemas of the REST API (separate from domain objects and tables), one module
per resource as the routers. New code imports from the resource's module; this package re-exports
every name for the importers that predate the split."""

from api.schemas.game_types import (
    BotLevelPublic,
    GameTypeDetail,
    GameTypePublic,
    OptionPublic,
    PlayerLimitPublic,
)
from api.schemas.games import (
    ClockOptions,
    ClockPublic,
    DecisionPublic,
    GameCreate,
    GameCreated,
    GamePagePublic,
    GamePublic,
    GameSummaryPublic,
    ResultPublic,
    SeatClockPublic,
    SeatPublic,
    SeatSummaryPublic,
    ViewerPublic,
    changed_game,
    decision_public,
    translated_decision,
)
from api.schemas.play import (
    ChoicesPublic,
    ChoiceSubmit,
    EventPublic,
    EventsPage,
    ReplayPublic,
    SubmitResultPublic,
)
from api.schemas.players import PlayerCreate, PlayerCreatedPublic, PlayerGamePublic
from api.schemas.problems import FieldProblem, Problem
from api.schemas.seats import SeatCreate, SeatCreated
from api.schemas.webhooks import (
    WebhookAttemptPublic,
    WebhookCreate,
    WebhookCreated,
    WebhookDeliveryPublic,
    WebhookPublic,
    vars_of,
)

__all__ = [
    "BotLevelPublic",
    "ChoiceSubmit",
    "ChoicesPublic",
    "ClockOptions",
    "ClockPublic",
    "DecisionPublic",
    "EventPublic",
    "EventsPage",
    "FieldProblem",
    "GameCreate",
    "GameCreated",
    "GamePagePublic",
    "GamePublic",
    "GameSummaryPublic",
    "GameTypeDetail",
    "GameTypePublic",
    "OptionPublic",
    "PlayerCreate",
    "PlayerCreatedPublic",
    "PlayerGamePublic",
    "PlayerLimitPublic",
    "Problem",
    "ReplayPublic",
    "ResultPublic",
    "SeatClockPublic",
    "SeatCreate",
    "SeatCreated",
    "SeatPublic",
    "SeatSummaryPublic",
    "SubmitResultPublic",
    "ViewerPublic",
    "WebhookAttemptPublic",
    "WebhookCreate",
    "WebhookCreated",
    "WebhookDeliveryPublic",
    "WebhookPublic",
    "changed_game",
    "decision_public",
    "translated_decision",
    "vars_of",
]
