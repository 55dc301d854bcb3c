"""Games: creating one, the game as a viewer sees it (seats, clock, decision, result) and the lobby page."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

from api.edge.input_limits import MAX_SEED_LENGTH, Text, check_json_depth
from api.rest.models.ratings import UnratedReasonPublic, unrated_public
from api.rest.models.takebacks import TakeBacksPublic
from domain.catalog import GameCatalog, prompt_text
from domain.engine import Decision
from domain.i18n import DEFAULT_LANGUAGE
from domain.model.clocks import LAPSES_BEFORE_STAND_IN, MAX_CLOCK_SECONDS, MIN_CLOCK_SECONDS
from domain.model.lobby import Creator, GamePage, GameSummary
from domain.model.match import Match
from domain.model.ratings import unrated_reasons
from domain.services.core import ServiceCore, Viewer
from domain.services.decisions import describe_decision
from domain.services.lobby import Created
from domain.services.presence import PresenceService


class ClockOptions(BaseModel):
    """A turn clock, the same for every game type (seconds)."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["none", "per_decision", "fischer"] = Field(
        "none", description="none; per_decision: each decision gets `seconds`; fischer: a bank."
    )
    seconds: float | None = Field(
        None,
        ge=MIN_CLOCK_SECONDS,
        le=MAX_CLOCK_SECONDS,
        description="per_decision: the limit of one decision; fischer: each seat's bank. At least "
        f"{MIN_CLOCK_SECONDS:g} s: a clock below human reaction time is refused.",
    )
    increment: float | None = Field(None, description="fischer: added after each decision.")
    on_expiry: Literal["bot", "forfeit"] = Field(
        "bot",
        description="bot: a stand-in bot plays the lapsed decision only, and the seat keeps its "
        "clock; after TABLETOP_CLOCK_LAPSES_BEFORE_STAND_IN lapses in a row (default "
        f"{LAPSES_BEFORE_STAND_IN}) it plays the seat until the player acts again. forfeit: a bot "
        "plays the seat to the end.",
    )
    stand_in: Literal["random", "greedy", "strong"] = Field(
        "greedy",
        description="The bot level that plays a seat handed to the stand-in (a lapsed decision, a "
        "seat silent too long, a resigned or forfeited seat): greedy by default, strong allowed.",
    )

    def settings(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


OPTION_VALUES_SCHEMA = {"type": "object", "additionalProperties": {"type": ["boolean", "integer", "string"]}}
"""A game's option values as given: the game checks each one (a problem in the caller's language)."""
OptionValues = Annotated[
    dict[str, Any] | None,
    AfterValidator(check_json_depth),
    WithJsonSchema({"anyOf": [OPTION_VALUES_SCHEMA, {"type": "null"}]}),
]


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Text = Field(max_length=64, description="A game-type slug from /v1/game-types.")
    options: OptionValues = Field(None, description="Option values; defaults fill the rest.")
    seed: Text | None = Field(
        None,
        min_length=1,
        max_length=MAX_SEED_LENGTH,
        description="A seed chosen by the host, for a reproducible game: selects seed_mode 'host', "
        "which every joiner sees. Absent: the server draws a secret seed.",
    )
    private: bool = Field(
        False, description="Not listed; people join only with the invite code (shown once)."
    )
    seed_mode: Literal["server", "host"] | None = Field(
        None,
        description="'server' (default without a seed): nobody knows the seed until the game ends. "
        "'host' (default with a seed): the host chose it and can foresee every draw.",
    )
    clock: ClockOptions | None = Field(None, description="A turn clock; none by default.")
    takebacks: bool | None = Field(
        None,
        description="Whether a seat may take back a decision that revealed nothing (the others "
        "who decided since must accept). Absent: off for a game that may be rated (a clock and "
        "the server's seed), on otherwise.",
    )


class GameCreated(BaseModel):
    id: str
    rematch_of: str | None = Field(None, description="For a rematch: the finished game.")
    type: str
    status: str
    version: int
    options: dict[str, Any]
    seed_commitment: str = Field(
        description="SHA-256 (hex) of '<seed_salt>:<seed>'; both are revealed when the game ends."
    )
    seed_mode: Literal["server", "host"]
    private: bool
    host_token: str = Field(description="Bearer token that may start or abort the game. Shown once.")
    invite_code: str | None = Field(
        description="Private games: the code people join with (pass it as `invite_code` when "
        "taking a seat). Shown once."
    )
    created_at: datetime
    listed: bool = Field(
        description="Shown in the public lobby: a public game created with a player token. "
        "Others are reached by their link (or invite code) only."
    )
    takebacks: bool = Field(description="Whether seats may take back decisions in this game.")

    @classmethod
    def of(cls, created: Created) -> GameCreated:
        match = created.match
        return cls(
            id=match.id,
            type=match.game_type,
            status=match.status.value,
            version=match.version,
            options=match.options,
            seed_commitment=match.seed_commitment,
            seed_mode=match.seed_mode,
            private=match.private,
            rematch_of=match.rematch_of,
            host_token=created.host_token,
            invite_code=created.invite_code,
            created_at=match.created_at,
            listed=match.listed,
            takebacks=match.takebacks.allowed,
        )


class SeatPublic(BaseModel):
    seat: int
    name: str
    bot: str | None
    stand_in: str | None = Field(
        None,
        description="Why a bot plays this human seat now: resigned, forfeited (both for good) "
        "or timeout (until the seat acts again).",
    )
    confirmed: bool = Field(True, description="False for a rematch seat its player has not taken yet.")
    connected: bool = Field(
        False,
        description="The seat follows the game now: a live subscription with its own token is "
        "open (on any instance). Always false for a bot seat.",
    )


class SeatClockPublic(BaseModel):
    seat: int
    waiting_since: datetime | None = Field(description="Since when the game waits for it.")
    deadline: datetime | None = Field(description="When its clock runs out.")
    remaining_seconds: float | None = Field(
        description="Seconds left now (running clock), or the bank (stopped Fischer clock)."
    )
    used_seconds: float = Field(description="Total thinking time so far.")
    lapses: int = Field(
        0,
        description="Its clock's lapses in a row (a stand-in bot played the decision); any decision "
        "its player makes resets the count.",
    )


class ClockPublic(BaseModel):
    mode: str
    seconds: float
    increment: float
    on_expiry: str
    stand_in: str = Field(description="The bot level that plays a seat handed to the stand-in.")
    inactivity_days: float | None = Field(
        description="A game without a clock: a seat silent this many days is handed to the "
        "stand-in bot until it acts again (TABLETOP_INACTIVITY_DAYS when the game was created). "
        "Null when the game has a clock, or the server sets no limit."
    )
    lapses_before_stand_in: int | None = Field(
        None,
        description="A clock with on_expiry bot: after this many lapses in a row the stand-in bot "
        "keeps the seat until its player acts again (TABLETOP_CLOCK_LAPSES_BEFORE_STAND_IN when "
        "the game was created). Null otherwise.",
    )
    seats: list[SeatClockPublic]


class DecisionPublic(BaseModel):
    kind: str
    prompt: str
    seats: list[int]
    simultaneous: bool
    sealed: list[int] = Field(description="Seats that have sealed a simultaneous choice.")
    your_sealed_choice: dict[str, Any] | None = None
    decision_version: int | None = Field(
        None,
        description="Your seat's concurrency token for this decision: send it back as `decision_version` "
        "when you submit. It changes only when your own decision or choices change (a new "
        "decision, or you seal or replace your choice), never when another seat seals. Null when "
        "the viewer is not asked.",
    )
    data: dict[str, Any]


def decision_public(
    decision: Decision,
    match: Match,
    catalog: GameCatalog | None,
    seat: int | None,
    lang: str = DEFAULT_LANGUAGE,
) -> DecisionPublic:
    """The decision as a seat sees it, its prompt in ``lang`` (``catalog``: the game's)."""
    translated = translated_decision(describe_decision(decision, match, seat), catalog, lang)
    assert translated is not None
    return translated


def translated_decision(
    described: Mapping[str, Any] | None, catalog: GameCatalog | None, lang: str
) -> DecisionPublic | None:
    """A described decision (``describe_decision``) with its prompt in ``lang``, from the game's
    ``catalog`` (the registry's; without one, the engine's English prompt)."""
    if described is None:
        return None
    prompt = prompt_text(catalog, described["kind"], lang, described["prompt"])
    return DecisionPublic(**{**described, "prompt": prompt})


class ResultPublic(BaseModel):
    scores: list[int]
    winners: list[int] = Field(description="A seat that resigned or forfeited never wins.")
    details: dict[str, Any]
    resigned: list[int] = Field(default_factory=list, description="Seats that resigned.")
    forfeited: list[int] = Field(
        default_factory=list, description="Seats that forfeited when their clock ran out."
    )


class ViewerPublic(BaseModel):
    seat: int | None
    host: bool


class GamePublic(BaseModel):
    id: str
    type: str
    status: str
    version: int
    options: dict[str, Any]
    seats: list[SeatPublic]
    max_players: int
    state: dict[str, Any] | None = Field(
        description="The game as the viewer may see it; its shape per game type is the "
        "component schema `<Game>View` (e.g. `CarcassonneView`, see `GET /v1/game-types/{slug}`)."
    )
    decision: DecisionPublic | None
    result: ResultPublic | None
    seed: str | None = Field(description="Null until the game is over.")
    seed_salt: str | None = Field(
        description="Null until the game is over; sha256('<seed_salt>:<seed>') = seed_commitment."
    )
    seed_commitment: str
    seed_mode: Literal["server", "host"] = Field(
        description="'host': the host chose the seed and can foresee every draw of the game."
    )
    private: bool = Field(description="Not listed; joined only with the invite code.")
    created_at: datetime
    viewer: ViewerPublic
    clock: ClockPublic = Field(description="Turn clocks: who is waited for, deadlines, time used.")
    rematch_of: str | None = Field(None, description="The game this one is the rematch of.")
    rematch_id: str | None = Field(None, description="This game's rematch, once created.")
    rated: bool = Field(
        description="Whether the game counts for ratings with its settings and seats as they are "
        "now (in the lobby it may become rated as players join); a finished game: whether it did."
    )
    unrated_reasons: list[UnratedReasonPublic] = Field(
        description="Why not (empty when rated), each with a code and a text in the asked language."
    )
    takebacks: TakeBacksPublic = Field(description="Take-backs: allowed, possible now, the open request.")

    @classmethod
    def of(
        cls,
        match: Match,
        catalog: GameCatalog | None,
        viewer: Viewer,
        connected: frozenset[int],
        lang: str = DEFAULT_LANGUAGE,
        rated_at_end: bool | None = None,
        unrated_tournament: bool = False,
    ) -> GamePublic:
        """``connected``: the seats with an open subscription now (``PresenceService``);
        ``rated_at_end``: a finished game's rating decision as stored at its end;
        ``unrated_tournament``: a round game of a tournament that is not rated."""
        decision = match.decision()
        reasons = unrated_reasons(match, rated_at_end, unrated_tournament)
        return cls(
            id=match.id,
            type=match.game_type,
            status=match.status.value,
            version=match.version,
            options=match.options,
            seats=[
                SeatPublic(
                    seat=s.index,
                    name=s.name,
                    bot=s.bot,
                    stand_in=s.stand_in,
                    confirmed=s.confirmed,
                    connected=s.index in connected,
                )
                for s in match.seats
            ],
            max_players=match.max_players,
            state=match.view(viewer.seat),
            decision=decision_public(decision, match, catalog, viewer.seat, lang) if decision else None,
            result=ResultPublic(**match.result) if match.result else None,
            seed=match.seed_revealed(),
            seed_salt=match.salt_revealed(),
            seed_commitment=match.seed_commitment,
            seed_mode=match.seed_mode,
            private=match.private,
            created_at=match.created_at,
            viewer=ViewerPublic(seat=viewer.seat, host=viewer.is_host),
            clock=ClockPublic.model_validate(match.timing.public(datetime.now(UTC))),
            rematch_of=match.rematch_of,
            rematch_id=match.rematch_id,
            rated=not reasons,
            unrated_reasons=unrated_public(reasons, lang),
            takebacks=TakeBacksPublic.of(match, viewer.seat),
        )


def changed_game(
    core: ServiceCore,
    presence: PresenceService,
    match: Match,
    token: str | None,
    lang: str = DEFAULT_LANGUAGE,
) -> GamePublic:
    """The game a change returns: as the token sees it now (a seat that just left sees what a
    spectator sees), with the seats connected now."""
    return GamePublic.of(
        match,
        core.registry.catalog(match.game_type),
        core.viewer_or_spectator(match, token),
        presence.connected(match.id),
        lang,
    )


class SeatSummaryPublic(BaseModel):
    seat: int
    name: str
    bot: str | None


class CreatorPublic(BaseModel):
    """Who created a listed game, and how often they play their games to the end."""

    id: str = Field(description="Player id (`GET /v1/players/{id}/profile`).")
    name: str
    finished_games: int = Field(description="Their games that ended (finished, resigned, timed out).")
    finishing_rate: float | None = Field(
        description="Share of those they played to the end (0 to 1); null before their first."
    )

    @classmethod
    def of(cls, creator: Creator) -> CreatorPublic:
        return cls(
            id=creator.id,
            name=creator.name,
            finished_games=creator.finished_games,
            finishing_rate=creator.finishing_rate,
        )


class ClockSummaryPublic(BaseModel):
    mode: Literal["none", "per_decision", "fischer"]
    seconds: float
    increment: float
    on_expiry: Literal["bot", "forfeit"]
    stand_in: Literal["random", "greedy", "strong"]


class GameSummaryPublic(BaseModel):
    id: str
    type: str
    status: str
    players: int = Field(description="Seats taken.")
    max_players: int = Field(description="Seats this game can have (with its options).")
    seats: list[SeatSummaryPublic]
    awaiting: list[int] = Field(
        description="Whose turn it is: the seats the game waits for now (empty unless in progress)."
    )
    version: int
    created_at: datetime
    updated_at: datetime
    seed_mode: Literal["server", "host"] = Field(
        description="'host': the host chose the seed and can foresee every draw of the game."
    )
    open_seats: int = Field(description="Free seats (0 unless in the lobby).")
    age_seconds: int = Field(description="Seconds since the game was created.")
    clock: ClockSummaryPublic = Field(description="The turn clock (mode none: no clock).")
    creator: CreatorPublic | None = Field(
        description="The player identity that created the game (every listed lobby has one)."
    )
    rated: bool = Field(
        description="The game will be rated if its free seats are taken by player identities."
    )
    unrated_reasons: list[UnratedReasonPublic] = Field(
        description="Why it will not be rated (empty when rated), each with a code and a text in "
        "the asked language, as in the game view."
    )

    @classmethod
    def of(cls, summary: GameSummary, lang: str = DEFAULT_LANGUAGE) -> GameSummaryPublic:
        return cls(
            id=summary.id,
            type=summary.game_type,
            status=summary.status,
            players=summary.players,
            max_players=summary.max_players,
            seats=[SeatSummaryPublic(seat=s.seat, name=s.name, bot=s.bot) for s in summary.seats],
            awaiting=list(summary.awaiting),
            version=summary.version,
            created_at=summary.created_at,
            updated_at=summary.updated_at or summary.created_at,
            seed_mode=summary.seed_mode,
            open_seats=summary.open_seats,
            age_seconds=summary.age_seconds,
            clock=ClockSummaryPublic(
                mode=summary.clock.mode,
                seconds=summary.clock.seconds,
                increment=summary.clock.increment,
                on_expiry=summary.clock.on_expiry,
                stand_in=summary.clock.stand_in,
            ),
            creator=CreatorPublic.of(summary.creator) if summary.creator else None,
            rated=not summary.unrated_reasons,
            unrated_reasons=unrated_public(list(summary.unrated_reasons), lang),
        )


class GamePagePublic(BaseModel):
    items: list[GameSummaryPublic] = Field(description="Newest first.")
    total: int = Field(description="Games matching the filters, on every page.")
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last page.")

    @classmethod
    def of(cls, page: GamePage, lang: str = DEFAULT_LANGUAGE) -> GamePagePublic:
        return cls(
            items=[GameSummaryPublic.of(s, lang) for s in page.items],
            total=page.total,
            next_cursor=page.next_cursor,
        )
