"""Take-backs: whether a game allows them, what the viewer may do now, the open request."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from domain.model.match import Match


class TakeBackAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    accept: bool = Field(description="true: the decision is taken back once every asked seat accepts.")


class TakeBackRequestPublic(BaseModel):
    seat: int = Field(description="The seat that asks to take back its latest decision.")
    waiting: list[int] = Field(description="Seats that must still accept (or refuse).")
    accepted: list[int] = Field(description="Seats that accepted (the server's seats at once).")


class TakeBacksPublic(BaseModel):
    allowed: bool = Field(
        description="Set when the game was created (`takebacks`): by default off for a game that "
        "may be rated (a running clock and the server's seed), on otherwise."
    )
    can_take_back: bool = Field(
        description="The viewer's seat has a decision it may take back now (nothing revealed since "
        "it); if another seat decided since, taking back asks them first."
    )
    request: TakeBackRequestPublic | None = Field(description="The request waiting for answers, if any.")

    @classmethod
    def of(cls, match: Match, seat: int | None) -> TakeBacksPublic:
        request = match.takeback_request()
        return cls(
            allowed=match.takebacks.allowed,
            can_take_back=match.can_take_back(seat),
            request=TakeBackRequestPublic(
                seat=request.seat, waiting=list(request.waiting), accepted=list(request.accepted)
            )
            if request is not None
            else None,
        )
