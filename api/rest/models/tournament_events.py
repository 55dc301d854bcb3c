"""A tournament's events as its SSE stream, its events page and the ``tournamentEvents``
subscription carry them: ``{seq, type, tournament_id, data}`` with ``data`` typed per ``type``
(``domain.tournaments.tournament`` records them; ``seq`` is the tournament's version after it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from domain.model.match import RecordedEvent

SEQ = Field(ge=1, description="The event's position: the tournament's version right after it.")


class TournamentPlayerData(BaseModel):
    player: str = Field(description="The player's id.")
    name: str = Field(description="The name the player registered with.")


class TournamentStartedData(BaseModel):
    players: int = Field(description="Registered players at the start.")
    rounds: int = Field(description="The rounds planned.")


class TournamentCancelledData(BaseModel):
    reason: Literal["host", "not_enough_players"] = Field(
        description="`host`: its host cancelled it; `not_enough_players`: too few at the start time."
    )


class TournamentRoundStartedData(BaseModel):
    round: int
    tables: list[list[str]] = Field(description="Each table's player ids in seat order.")
    byes: list[str] = Field(description="Players with a bye this round.")
    games: list[str] = Field(
        description="Each table's game id, table by table (`GET /v1/games/{id}`); the seats take "
        "their tokens with `POST /v1/players/me/games/{id}/seats/{seat}/token`."
    )


class TournamentTableFinishedData(BaseModel):
    round: int
    table: int = Field(description="The table's number in its round, from 1.")
    game_id: str
    ranks: list[int] = Field(description="Each seat's finishing place (1 is best; ties share).")


class TournamentRoundFinishedData(BaseModel):
    round: int


class TournamentFinishedData(BaseModel):
    winner: str | None = Field(description="The first of the final standings (a player id).")


class _Event(BaseModel):
    seq: int = SEQ
    tournament_id: str


class TournamentPlayerRegisteredEvent(_Event):
    type: Literal["player_registered"]
    data: TournamentPlayerData


class TournamentPlayerUnregisteredEvent(_Event):
    type: Literal["player_unregistered"]
    data: TournamentPlayerData


class TournamentPlayerWithdrewEvent(_Event):
    type: Literal["player_withdrew"]
    data: TournamentPlayerData


class TournamentStartedEvent(_Event):
    type: Literal["tournament_started"]
    data: TournamentStartedData


class TournamentCancelledEvent(_Event):
    type: Literal["tournament_cancelled"]
    data: TournamentCancelledData


class TournamentRoundStartedEvent(_Event):
    type: Literal["round_started"]
    data: TournamentRoundStartedData


class TournamentTableFinishedEvent(_Event):
    type: Literal["game_finished"]
    data: TournamentTableFinishedData


class TournamentRoundFinishedEvent(_Event):
    type: Literal["round_finished"]
    data: TournamentRoundFinishedData


class TournamentFinishedEvent(_Event):
    type: Literal["tournament_finished"]
    data: TournamentFinishedData


EVENT_MODELS: tuple[type[_Event], ...] = (
    TournamentPlayerRegisteredEvent,
    TournamentPlayerUnregisteredEvent,
    TournamentPlayerWithdrewEvent,
    TournamentStartedEvent,
    TournamentCancelledEvent,
    TournamentRoundStartedEvent,
    TournamentTableFinishedEvent,
    TournamentRoundFinishedEvent,
    TournamentFinishedEvent,
)
EVENT_TYPES: dict[str, str] = {
    model.model_fields["type"].annotation.__args__[0]: model.__name__  # type: ignore[union-attr]
    for model in EVENT_MODELS
}
"""Each event ``type`` and the schema that describes it."""

TournamentEventPublic = Annotated[
    TournamentPlayerRegisteredEvent
    | TournamentPlayerUnregisteredEvent
    | TournamentPlayerWithdrewEvent
    | TournamentStartedEvent
    | TournamentCancelledEvent
    | TournamentRoundStartedEvent
    | TournamentTableFinishedEvent
    | TournamentRoundFinishedEvent
    | TournamentFinishedEvent,
    Field(discriminator="type"),
]


class TournamentEventsPage(BaseModel):
    events: list[TournamentEventPublic]
    last_seq: int = Field(description="The tournament's latest `seq` (its version).")


def event_body(tournament_id: str, event: RecordedEvent) -> dict[str, Any]:
    """The JSON of one event, as every door sends it."""
    return {
        "seq": event.seq,
        "type": event.event.type,
        "tournament_id": tournament_id,
        "data": event.event.data,
    }
