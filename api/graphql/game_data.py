"""Typed game data in GraphQL: one scalar per game and part, named as its OpenAPI component.

GraphQL cannot express the games' JSON shapes (maps keyed by seat, ids such as ``BA/LR`` as enum
values, one shape per decision kind), so state, choices, events, options, results, webhook payloads
and static data stay ``JSON`` for compatibility, and each also gets a field per game (``JSON``
field ``options``: ``carcassonneOptions``) whose type is a scalar such as
``CarcassonneView``. Its ``@specifiedBy`` URL names the JSON Schema in ``/openapi.json``
(``#/components/schemas/CarcassonneView``): a code generator maps the scalar to the type it
generates from that schema (graphql-codegen: ``scalars: {CarcassonneView: ...}``), so a GraphQL
client is as typed as the REST one. A field is null unless the data is of its game: games are
told apart by the game type (an event carries it as ``gameType``) or a decision kind (no two games
share one).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, NewType, Optional

import strawberry
from strawberry.scalars import JSON

from api.openapi import game_schemas
from domain.errors import InvalidOptions
from domain.registry import default_registry

SCALAR_PARTS = (
    "View",
    "Decision",
    "Choice",
    "Event",
    "StaticData",
    "Options",
    "OptionsInput",
    "ResultDetails",
    "WebhookEventPayload",
)
"""The parts with a scalar: ``Choices`` (kind plus choices) and ``EventType`` (an enum of
strings) are not needed once a choice and an event are typed."""


def _identity(value: Any) -> Any:
    return value


def scalar(slug: str, part: str) -> Any:
    """The scalar of one game's part, serialised as the JSON it already is."""
    return named_scalar(f"{game_schemas.prefix(slug)}{part}")


@cache
def named_scalar(name: str) -> Any:
    """A scalar whose values follow the component ``name`` of ``/openapi.json``."""
    return strawberry.scalar(
        NewType(name, object),
        name=name,
        description=f"A JSON value valid against the JSON Schema `{name}` of `/openapi.json`.",
        specified_by_url=f"/openapi.json#/components/schemas/{name}",
        serialize=_identity,
        parse_value=_identity,
    )


@cache
def games() -> tuple[str, ...]:
    """The slugs of the hosted games that publish schemas."""
    return tuple(e.meta.slug for e in default_registry() if game_schemas.load(e.meta.slug))


@cache
def decision_kinds(slug: str) -> frozenset[str]:
    schemas = game_schemas.load(slug) or {}
    return frozenset(o["properties"]["kind"]["const"] for o in schemas["Decision"]["oneOf"])


@cache
def event_types(slug: str) -> frozenset[str]:
    schemas = game_schemas.load(slug) or {}
    return frozenset(schemas["EventType"]["enum"])


def typed_field_names() -> frozenset[str]:
    """Every per-game field this module adds (GraphQL has them, REST carries the JSON only)."""
    suffixes = ("State", "Data", "", "Choices", "Options", "Details", "YourSealedChoice", "Payload")
    return frozenset(_field_name(slug, suffix) for slug in games() for suffix in suffixes)


def _field_name(slug: str, suffix: str) -> str:
    head, *rest = slug.split("-")
    return head + "".join(p.capitalize() for p in rest) + suffix


def _resolver(slug: str, value: Callable[[str, Any], Any], returns: Any) -> Callable[[Any], Any]:
    def resolve(root: Any) -> Any:
        return value(slug, root)

    resolve.__annotations__ = {"root": Any, "return": returns}
    return resolve


def _per_game(
    name: str, part: str, suffix: str, value: Callable[[str, Any], Any], when: str, many: bool = False
) -> type:
    """A strawberry type with one field per game (``carcassonne<suffix>``), for a GraphQL type
    to inherit; ``value(slug, root)`` is the data, or None when it is not of that game."""
    namespace: dict[str, Any] = {"__annotations__": {}}
    for slug in games():
        kind = scalar(slug, part)
        returns = Optional[list[kind]] if many else Optional[kind]  # type: ignore[valid-type]  # noqa: UP045

        namespace[_field_name(slug, suffix)] = strawberry.field(
            resolver=_resolver(slug, value, returns),
            description=f"As `{game_schemas.prefix(slug)}{part}`{' items' if many else ''}: "
            f"null unless {when.format(slug=slug)}.",
        )
    return strawberry.type(type(name, (), namespace))


def _state(slug: str, root: Any) -> Any:
    return root.state if root.type == slug else None


def _static(slug: str, root: Any) -> Any:
    return root.data if root.slug == slug else None


def _decision(slug: str, root: Any) -> Any:
    return {"kind": root.kind, "data": root.data} if root.kind in decision_kinds(slug) else None


def _choices(slug: str, root: Any) -> Any:
    decision = root.decision
    return root.choices if decision is not None and decision.kind in decision_kinds(slug) else None


def _event(slug: str, root: Any) -> Any:
    """Of ``slug`` when the event's game (``gameType``, which every event carries) is ``slug``."""
    if root.game_type != slug:
        return None
    return {"seq": root.seq, "type": root.type, "data": root.data}


def _options(slug: str, root: Any) -> Any:
    return root.options if root.type == slug else None


def _details(slug: str, root: Any) -> Any:
    return root.details if root.game_type == slug else None


def _replay_state(slug: str, root: Any) -> Any:
    return root.state if root.game_type == slug else None


def _sealed(slug: str, root: Any) -> Any:
    return root.your_sealed_choice if root.kind in decision_kinds(slug) else None


def _payload(slug: str, root: Any) -> Any:
    payload = root.payload
    return payload if payload.get("type") == "event" and payload.get("game_type") == slug else None


def _one_of(name: str, part: str, what: str, description: str) -> type:
    """A ``@oneOf`` input with one field per game, typed by its ``<Game><part>``."""
    namespace: dict[str, Any] = {"__annotations__": {}}
    for slug in games():
        kind = scalar(slug, part)
        namespace["__annotations__"][_field_name(slug, "")] = Optional[kind]  # noqa: UP045
        namespace[_field_name(slug, "")] = strawberry.field(
            default=strawberry.UNSET, description=f"{what} of a `{slug}` game."
        )
    return strawberry.input(type(name, (), namespace), one_of=True, description=description)


def of_game(value: Any, slug: str) -> Any:
    """The value a ``@oneOf`` input carries under the field of game ``slug`` (None if not there)."""
    given = getattr(value, _field_name(slug, ""), None)
    return None if given is strawberry.UNSET else given


def chosen_game(value: Any) -> str | None:
    """The slug of the game whose field a ``@oneOf`` input (or graphql-core's coerced dict of it)
    fills (None when none)."""
    if value is None:
        return None
    fields = value if isinstance(value, dict) else vars(value)
    filled = [name for name, v in fields.items() if v is not None and v is not strawberry.UNSET]
    return next((slug for slug in games() if filled and _field_name(slug, "") == filled[0]), None)


def chosen(value: Any) -> Any:
    """The value a ``@oneOf`` input (``GameChoice``, ``GameOptions``) carries (None when none)."""
    given = [v for v in vars(value).values() if v is not None and v is not strawberry.UNSET] if value else []
    return given[0] if given else None


def given_options(options: Any, game_options: Any, slug: str) -> Any:
    """A create's option values: the untyped JSON ``options`` or the typed ``gameOptions`` (a
    ``@oneOf`` input, filled under game ``slug``'s field), at most one of them."""
    if options is not None and game_options is not None:
        raise InvalidOptions(
            "give at most one of {field} and {other_field}", field="options", other_field="gameOptions"
        )
    if game_options is not None and of_game(game_options, slug) is None:
        raise InvalidOptions("gameOptions holds no options under the field of `{slug}`", slug=slug)
    return options if options is not None else chosen(game_options)


GAME = "the game is of type `{slug}`"
KIND = "the decision is one of `{slug}`"
EVENT = "the event is of a `{slug}` game"
PAYLOAD = "the delivery is an event of a `{slug}` game"
if TYPE_CHECKING:  # built at import below; to mypy, plain bases

    class TypedState: ...

    class TypedStaticData: ...

    class TypedDecision: ...

    class TypedChoices: ...

    class TypedEvent: ...

    class TypedOptions: ...

    class TypedResult: ...

    class TypedReplay: ...

    class TypedSealedChoice: ...

    class TypedPayload: ...

    class GameChoice: ...

    class GameOptions: ...

else:
    TypedState = _per_game("TypedState", "View", "State", _state, GAME)
    TypedStaticData = _per_game("TypedStaticData", "StaticData", "Data", _static, GAME)
    TypedDecision = _per_game("TypedDecision", "Decision", "", _decision, KIND)
    TypedChoices = _per_game("TypedChoices", "Choice", "Choices", _choices, KIND, many=True)
    TypedEvent = _per_game("TypedEvent", "Event", "", _event, EVENT)
    TypedOptions = _per_game("TypedOptions", "Options", "Options", _options, GAME)
    TypedResult = _per_game("TypedResult", "ResultDetails", "Details", _details, GAME)
    TypedReplay = _per_game("TypedReplay", "View", "State", _replay_state, GAME)
    TypedSealedChoice = _per_game("TypedSealedChoice", "Choice", "YourSealedChoice", _sealed, KIND)
    TypedPayload = _per_game("TypedPayload", "WebhookEventPayload", "Payload", _payload, PAYLOAD)
    GameChoice = _one_of(
        "GameChoice",
        "Choice",
        "A choice, as listed,",
        "One of the listed choices, under its game's field (exactly one field).",
    )
    GameOptions = _one_of(
        "GameOptions",
        "OptionsInput",
        "Option values",
        "Option values under the game's field (exactly one field); defaults fill the rest.",
    )

UntypedOptionsArgument = Annotated[
    JSON | None,
    strawberry.argument(
        description="Option values as JSON (untyped): give this or `gameOptions`, or neither."
    ),
]
"""A create's untyped ``options`` argument (read with ``given_options``)."""
GameOptionsArgument = Annotated[
    GameOptions | None,
    strawberry.argument(description="Option values under the game's field, typed by `<Game>OptionsInput`."),
]
"""A create's typed ``gameOptions`` argument (read with ``given_options``)."""

__all__ = [
    "GameChoice",
    "GameOptions",
    "GameOptionsArgument",
    "TypedChoices",
    "TypedDecision",
    "TypedEvent",
    "TypedOptions",
    "TypedPayload",
    "TypedReplay",
    "TypedResult",
    "TypedSealedChoice",
    "TypedState",
    "TypedStaticData",
    "UntypedOptionsArgument",
    "chosen",
    "named_scalar",
    "of_game",
    "scalar",
    "typed_field_names",
]
