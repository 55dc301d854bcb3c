"""GraphQL play: a seat's choices, submitting one, the event history and replays."""

from __future__ import annotations

from typing import Annotated, Any, cast

import strawberry
from pydantic import BaseModel, model_validator
from strawberry import ID
from strawberry.scalars import JSON
from strawberry.types import Info

from api.edge.input_limits import INT32_MAX
from api.graphql.common import (
    IDEMPOTENCY_KEY_ADAPTER,
    Problem,
    attempt,
    attempt_async,
    container_of,
    in_range,
    lang_of,
    token_of,
)
from api.graphql.game_data import GameChoice, TypedChoices, TypedEvent, TypedReplay, chosen, chosen_game
from api.graphql.games import (
    Decision,
    decision_of,
)
from api.rest.models.games import translated_decision
from api.rest.models.play import ChoiceSubmit, ReplayPublic
from domain.catalog import GameCatalog
from domain.model.match import ShownEvent


@strawberry.type
class Choices(TypedChoices):
    game_type: str
    version: int
    decision_version: int | None
    decision: Decision | None
    choices: list[JSON]


@strawberry.type
class Event(TypedEvent):
    seq: int
    type: str
    data: JSON
    game_type: str = strawberry.field(
        description="The game's type: the event's `data` follows that game's `<Game>Event` "
        "schema (events such as `round_started` occur in several games, with different data)."
    )
    next: Choices | None = strawberry.field(
        default=None,
        description="On a live event: what the subscribing seat must decide right after it (null "
        "if nothing). Answer it by submitting one of its choices with its version: no need to "
        "query the choices.",
    )


@strawberry.type
class SubmitResult:
    game_type: str
    status: str
    version: int
    decision_version: int | None
    events: list[Event]
    next: Choices | None = strawberry.field(
        default=None, description="What the submitting seat must decide next (null if nothing)."
    )


@strawberry.type
class EventPage:
    game_type: str
    events: list[Event]
    last_seq: int


@strawberry.type
class Replay(TypedReplay):
    game_id: ID
    game_type: str
    at: int
    last_seq: int
    seat: int | None
    phase: str
    state: JSON | None
    events: list[Event]
    used_seconds: list[float] | None
    matches_final_state: bool | None
    moves: list[int] = strawberry.field(
        description="The event sequence numbers after which the board changed (the set-up board, "
        "each completed decision or take-back, the last event), oldest first."
    )


class OneChoice(BaseModel):
    """``submitChoice`` takes its choice untyped (``choice``) or typed (``gameChoice``): one."""

    choice: Any = None
    game_choice: Any = None

    @model_validator(mode="after")
    def exactly_one(self) -> OneChoice:
        if (self.choice is None) == (self.game_choice is None):
            raise ValueError("give exactly one of choice and gameChoice")
        return self

    @property
    def one(self) -> Any:
        return self.choice if self.choice is not None else self.game_choice


ChoicesResult = Annotated[Choices | Problem, strawberry.union("ChoicesResult")]


SubmitChoiceResult = Annotated[SubmitResult | Problem, strawberry.union("SubmitChoiceResult")]


EventsResult = Annotated[EventPage | Problem, strawberry.union("EventsResult")]


ReplayResult = Annotated[Replay | Problem, strawberry.union("ReplayResult")]


def event_of(shown: ShownEvent, game_type: str, next_offer: Choices | None = None) -> Event:
    """An event as a seat sees it (``RecordedEvent.for_viewer``) as a GraphQL ``Event``, with what
    the seat must decide right after it when that is known (live events)."""
    data = cast(JSON, shown["data"])
    return Event(seq=shown["seq"], type=shown["type"], data=data, game_type=game_type, next=next_offer)


def offer_of(
    offer: Any, game_type: str | None = None, catalog: GameCatalog | None = None, lang: str = "en"
) -> Choices | None:
    """A seat's pending decision (as the service describes it) as a GraphQL ``Choices``, its
    prompt in ``lang`` (from the game's ``catalog``) when the game type is known."""
    if offer is None:
        return None
    decision = offer["decision"]
    if game_type is not None and decision is not None:
        translated = translated_decision(decision, catalog, lang)
        decision = translated.model_dump(mode="json") if translated is not None else None
    return Choices(
        game_type=str(offer.get("game_type") or game_type or ""),  # older offers lack it
        version=offer["version"],
        decision_version=offer["decision_version"],
        decision=decision_of(decision),
        choices=[cast(JSON, c) for c in offer["choices"]],
    )


@strawberry.type
class PlayQuery:
    @strawberry.field(description="What the token's seat must decide now, with every legal choice.")
    async def choices(self, info: Info, game_id: ID, lang: str | None = None) -> ChoicesResult:
        play, token, language = container_of(info).play, token_of(info), lang_of(info, lang)

        def read() -> Choices:
            pending = play.pending(game_id, token)
            decision = translated_decision(
                pending.decision, play.core.registry.catalog(pending.game_type), language
            )
            return Choices(
                game_type=pending.game_type,
                version=pending.version,
                decision_version=pending.decision_version,
                decision=decision_of(decision.model_dump(mode="json") if decision else None),
                choices=[cast(JSON, c) for c in pending.choices],
            )

        return await attempt(read)

    @strawberry.field(description="The game's events after a sequence number.")
    async def events(self, info: Info, game_id: ID, after: int = 0, limit: int = 500) -> EventsResult:
        reads, token = container_of(info).reads, token_of(info)

        def read() -> EventPage:
            _, game_type, events = reads.events_of_game(
                game_id, token, in_range("after", after, 0, INT32_MAX), in_range("limit", limit, 1, 1000)
            )
            return EventPage(
                game_type=game_type,
                events=[event_of(e, game_type) for e in events],
                last_seq=events[-1]["seq"] if events else after,
            )

        return await attempt(read)

    @strawberry.field(
        description="A game after event `at`, as a seat (or a spectator) saw it then, recomputed "
        "from the seed and the recorded choices: an ended game for anyone; one in progress only "
        "for its seats, as the token's own seat."
    )
    async def replay(self, info: Info, game_id: ID, at: int, seat: int | None = None) -> ReplayResult:
        replays, token = container_of(info).replays, token_of(info)

        def read() -> Replay:
            public = ReplayPublic.of(replays.at(game_id, max(0, at), seat, token))
            dumped = public.model_dump(mode="json")
            return Replay(
                **{k: v for k, v in dumped.items() if k != "events"},
                events=[Event(**e, game_type=public.game_type) for e in dumped["events"]],
            )

        return await attempt(read)


@strawberry.type
class PlayMutation:
    @strawberry.mutation(description="Submit one of the listed choices (seat token).")
    async def submit_choice(
        self,
        info: Info,
        game_id: ID,
        choice: Annotated[
            JSON | None,
            strawberry.argument(
                description="Any game's choice as JSON (untyped): give this or `gameChoice`."
            ),
        ] = None,
        game_choice: Annotated[
            GameChoice | None,
            strawberry.argument(description="The choice under its game's field, typed by `<Game>Choice`."),
        ] = None,
        version: int | None = None,
        idempotency_key: str | None = None,
        decision_version: int | None = None,
        lang: str | None = None,
    ) -> SubmitChoiceResult:
        return await submitted(
            info,
            game_id,
            choice,
            chosen(game_choice),
            version,
            idempotency_key,
            decision_version,
            lang,
            chosen_game(game_choice),
        )


async def submitted(
    info: Any,
    game_id: str,
    choice: Any,
    game_choice: Any,
    version: int | None,
    idempotency_key: str | None,
    decision_version: int | None,
    lang: str | None,
    typed_for: str | None = None,
) -> SubmitResult | Problem:
    """``submitChoice``'s answer: what its resolver returns, and what a submit over the websocket
    gets without the resolver (``api.graphql.socket_submit``). ``info`` is Strawberry's or
    graphql-core's (only its ``context`` is read); ``game_choice`` is the typed choice's value,
    ``typed_for`` the game whose field it came under (another game's is refused)."""
    play, token, language = container_of(info).play, token_of(info), lang_of(info, lang)

    async def submit() -> SubmitResult:
        given = OneChoice(choice=choice, game_choice=game_choice).one
        body = ChoiceSubmit(choice=given, version=version, decision_version=decision_version)
        key = IDEMPOTENCY_KEY_ADAPTER.validate_python(idempotency_key)
        answer = await play.submit_async(
            game_id, token, body.choice, body.version, key, body.decision_version, game_type=typed_for
        )
        catalog = play.core.registry.catalog(answer.game_type)
        return SubmitResult(
            game_type=answer.game_type,
            status=answer.status,
            version=answer.version,
            decision_version=answer.decision_version,
            events=[event_of(e, answer.game_type) for e in answer.events],
            next=offer_of(answer.next, answer.game_type, catalog, language),
        )

    return await attempt_async(submit)
