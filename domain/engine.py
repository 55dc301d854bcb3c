"""The small interface every game engine implements, and the data that describes a game type.

Engines are shaped like OpenSpiel games: a state object, whose decision it is now, the legal
choices of a seat, applying choices, a view per viewer, an outcome. The match aggregate runs the
central guards (game exists, in progress, seat expected to decide, version fresh, choice listed)
before any engine code, so an engine only ever handles "in progress, your decision, legal choice".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, TypeVar

from domain.errors import InvalidOptions, as_json

JSON: TypeAlias = Mapping[str, "JSON"] | Sequence["JSON"] | str | int | float | bool | None
"""A JSON value (objects with string keys, arrays, strings, numbers, true, false, null), checked:
what the domain hands out (views, events, decisions, outcomes, stored states, static data) is
built of these alone. Read-only containers, so a ``list[int]`` or a ``dict[str, str]`` is one too."""

Choice = dict[str, Any]
"""A legal choice: a JSON object a client can post back verbatim. Its values are not narrowed:
an engine reads back the fields of the choices it listed itself (the guards hand it nothing else),
and the schema tests hold every listed choice to the game's published JSON Schema."""

Document = Mapping[str, object]
"""A JSON object stored or sent whole (a remembered answer, a webhook payload): JSON values and
the ``TypedDict``s that name fixed shapes (an event as shown, a decision offered), which mypy does
not count as ``JSON``."""

Stored = Mapping[str, Any]
"""A JSON object read back by the code that wrote it (a dumped state, a remembered answer): not
narrowed field by field, since the writer knows the shape (the engine conformance tests load every
dumped state back through JSON and dump it again unchanged)."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option: its type, default and allowed values, as shown in the catalog."""

    name: str
    kind: str  # "bool", "enum" or "int"
    default: JSON
    description: str
    allowed: tuple[JSON, ...] = ()
    verified: bool = True

    def validate(self, value: JSON) -> JSON:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(
                    "option {option!q} must be true or false, got {got!j}", option=self.name, got=value
                )
        elif self.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidOptions(
                "option {option!q} must be an integer, got {got!j}", option=self.name, got=value
            )
        if self.allowed and value not in self.allowed:
            raise InvalidOptions(
                "option {option!q} must be one of {allowed}, got {got!j}",
                option=self.name,
                allowed=[as_json(a) for a in self.allowed],
                got=value,
            )
        return value


@dataclass(frozen=True, slots=True)
class PlayerLimit:
    """A maximum player count that applies when an option has a given value."""

    option: str
    value: JSON
    max_players: int


@dataclass(frozen=True, slots=True)
class GameMeta:
    """Catalog data for a game type, registered under a stable slug."""

    slug: str
    name: str
    min_players: int
    max_players: int
    description: str
    options: tuple[OptionSpec, ...] = ()
    player_limits: tuple[PlayerLimit, ...] = ()

    def resolve_options(self, given: Mapping[str, JSON] | None) -> dict[str, JSON]:
        """Validated options with defaults filled in; unknown names are refused."""
        given = dict(given or {})
        known = {spec.name: spec for spec in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise InvalidOptions(
                "unknown option(s) for {type}: {unknown}; known: {known}",
                type=self.slug,
                unknown=unknown,
                known=", ".join(known) or "none",
            )
        return {
            name: spec.validate(given[name]) if name in given else spec.default
            for name, spec in known.items()
        }

    def max_players_for(self, options: Mapping[str, JSON]) -> int:
        limits = [
            limit.max_players for limit in self.player_limits if options.get(limit.option) == limit.value
        ]
        return min([self.max_players, *limits])


@dataclass(frozen=True, slots=True)
class Decision:
    """What is being decided now and by whom.

    ``simultaneous`` decisions are sealed: every listed seat seals a choice (and may replace it)
    until the last one seals, then all are applied at once. ``data`` is public context that
    helps a client present the choices (it must not reveal anything secret).
    """

    seats: tuple[int, ...]
    kind: str
    prompt: str
    simultaneous: bool = False
    data: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``data`` is public; ``private[seat]`` is merged in for that seat only."""

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, JSON]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final scores (one per seat) and the winning seats, with optional public details."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    details: Mapping[str, JSON] = field(default_factory=dict)


class TakeBackRules(Protocol):
    """Which of a game's decisions a seat may take back: the engine knows what each revealed.

    A decision that revealed nothing hidden (no card or tile drawn, no sealed choice opened) can
    be taken back while no reveal followed it; the match aggregate keeps the bookkeeping (who
    decided since, the clocks, requests to the other seats) the same for every game.
    """

    def revealed(self, decision: Decision, events: Sequence[Event]) -> bool:
        """Whether applying ``decision``, which produced ``events``, revealed anything hidden."""
        ...


@dataclass(frozen=True, slots=True)
class RevealingEvents:
    """``TakeBackRules`` of a game whose every reveal shows as an event of one of ``types``."""

    types: frozenset[str]

    def revealed(self, decision: Decision, events: Sequence[Event]) -> bool:
        return any(event.type in self.types for event in events)


S = TypeVar("S")


class GameEngine(Protocol[S]):
    """The interface of a game's rules. ``apply`` mutates the state it is given."""

    meta: GameMeta

    def setup(self, players: int, options: Mapping[str, JSON], rng: random.Random) -> tuple[S, list[Event]]:
        """A new game's state and its opening events. All chance comes from ``rng``."""
        ...

    def decision(self, state: S) -> Decision | None:
        """Who must decide now, or None once the game is over."""
        ...

    def legal_choices(self, state: S, seat: int) -> list[Choice]:
        """Every legal choice of ``seat`` for the current decision (empty if it has none)."""
        ...

    def apply(self, state: S, choices: Mapping[int, Choice]) -> list[Event]:
        """Apply legal choices (one per deciding seat) and return what happened."""
        ...

    def view(self, state: S, viewer: int | None) -> dict[str, JSON]:
        """The state as ``viewer`` (a seat, or None for a spectator) may see it."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Scores and winners once the game is over, else None."""
        ...

    def dump(self, state: S) -> dict[str, JSON]:
        """The complete state as JSON (secrets included: for storage only)."""
        ...

    def load(self, data: Stored) -> S:
        """Rebuild a state from ``dump`` output."""
        ...


def reveal_event(choices: Mapping[int, Choice], **extra: JSON) -> Event:
    """The public event that opens sealed simultaneous choices, all at once."""
    return Event(
        "reveal",
        {"choices": {str(seat): choices[seat] for seat in sorted(choices)}, **extra},
    )


def event_for(event: Event, viewer: int | None) -> tuple[str, dict[str, JSON]]:
    """The type and data of ``event`` as ``viewer`` may see it."""
    data = dict(event.data)
    if viewer is not None and viewer in event.private:
        data.update(event.private[viewer])
    return event.type, data


def same_json(a: JSON, b: JSON) -> bool:
    """Equal as JSON values: same type and value (``true``, ``1`` and ``1.0`` all differ).

    Python's ``==`` calls ``True == 1 == 1.0``; a choice matched that way let a client's type twin
    into the state. Lists and tuples are both JSON arrays; object key order does not matter.
    """
    if isinstance(a, dict):
        return (
            isinstance(b, dict)
            and a.keys() == b.keys()
            and all(same_json(value, b[key]) for key, value in a.items())
        )
    if isinstance(a, list | tuple):
        return (
            isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(same_json(x, y) for x, y in zip(a, b, strict=True))
        )
    return type(a) is type(b) and a == b


def find_listed_choice(choices: Sequence[Choice], choice: Choice) -> Choice | None:
    """The listed choice that is exactly ``choice`` as JSON, or None.

    ``==`` (fast, in C) narrows the candidates first; it is looser than JSON equality, so the
    strict comparison only runs on the few that pass it.
    """
    for candidate in choices:
        if candidate == choice and same_json(candidate, choice):
            return candidate
    return None
