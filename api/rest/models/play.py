"""Play: a seat's choices, submitting one, the event history and replays."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from api.edge.input_limits import INT32_MAX, check_json_depth
from api.rest.models.games import DecisionPublic, translated_decision
from domain.catalog import GameCatalog
from domain.services.play import SubmitAnswer
from domain.services.replay import Replayed


class ChoicesPublic(BaseModel):
    game_type: str = Field(description="The game's type: which game's schemas its data follows.")
    version: int
    decision_version: int | None = Field(
        None,
        description="Your seat's concurrency token for this decision: send it back as `decision_version` "
        "when you submit. It changes only when your own decision or choices change (a new "
        "decision, or you seal or replace your choice), never when another seat seals. Null when "
        "the viewer is not asked.",
    )
    decision: DecisionPublic | None
    choices: list[dict[str, Any]] = Field(description="Every legal choice; post one back verbatim.")


class ChoiceSubmit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    choice: Annotated[dict[str, Any], AfterValidator(check_json_depth)]
    decision_version: int | None = Field(
        None,
        ge=0,
        le=INT32_MAX,
        description="The `decision_version` of the decision you answer (from the choices, the "
        "game's `decision` or an event's `next`): 409 `version_conflict` only if your seat's "
        "decision has moved on since. Recommended.",
    )
    version: int | None = Field(
        None,
        ge=0,
        le=INT32_MAX,
        description="The game `version` you decided on (older clients): 409 only if your seat's "
        "decision changed after it (other seats sealing do not count).",
    )


class EventPublic(BaseModel):
    seq: int
    type: str
    data: dict[str, Any]


class SubmitResultPublic(BaseModel):
    game_type: str = Field(description="The game's type: which game's schemas its data follows.")
    status: Literal["sealed", "applied"]
    version: int
    decision_version: int | None = Field(
        None,
        description="Your seat's concurrency token now (null when your seat has nothing to "
        "decide): send it to replace a sealed choice.",
    )
    events: list[EventPublic]
    next: ChoicesPublic | None = Field(
        None,
        description="What the submitting seat must decide next (null if nothing), as GET choices "
        "answers it: submit one of its choices with its version, no need to ask again.",
    )

    @classmethod
    def of(cls, submitted: SubmitAnswer, catalog: GameCatalog | None, lang: str) -> SubmitResultPublic:
        """A submit's answer, the next prompt in ``lang`` from the game's ``catalog``."""
        answer = cls.model_validate(submitted.recorded())
        if answer.next is not None and answer.next.decision is not None:
            decision = translated_decision(answer.next.decision.model_dump(), catalog, lang)
            answer.next.decision = decision
        return answer


class EventsPage(BaseModel):
    game_type: str = Field(description="The game's type: which game's schemas its data follows.")
    events: list[EventPublic]
    last_seq: int = Field(description="Pass as `after` to continue.")


class ReplayPublic(BaseModel):
    game_id: str
    game_type: str = Field(description="The game's type: which game's schemas its data follows.")
    at: int = Field(description="The event sequence number the game is shown after.")
    last_seq: int
    seat: int | None = Field(description="Whose view (null: a spectator's).")
    phase: str = Field(description="lobby or in_progress at that moment, or the final status.")
    state: dict[str, Any] | None = Field(
        description="The game after the last decision completed by `at`, recomputed from the "
        "revealed seed and the recorded choices."
    )
    events: list[EventPublic] = Field(description="Every event up to `at`, as that viewer saw it.")
    used_seconds: list[float] | None = Field(description="Each seat's total thinking time, when a clock ran.")
    matches_final_state: bool | None = Field(
        description="At the last event of an ended game: whether the replay reproduces the "
        "stored final state."
    )
    moves: list[int] = Field(
        description="The steps to show: the event sequence numbers after which the board changed "
        "(the set-up board, each completed decision or take-back, the last event), oldest first."
    )

    @classmethod
    def of(cls, replayed: Replayed) -> ReplayPublic:
        return cls(
            game_id=replayed.game_id,
            game_type=replayed.game_type,
            at=replayed.at,
            last_seq=replayed.last_seq,
            seat=replayed.seat,
            phase=replayed.phase,
            state=replayed.state,
            events=[EventPublic.model_validate(e) for e in replayed.events],
            used_seconds=replayed.used_seconds,
            matches_final_state=replayed.matches_final_state,
            moves=replayed.moves,
        )
