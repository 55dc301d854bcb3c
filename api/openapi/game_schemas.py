"""The JSON Schemas of each game's view, decisions, choices and events, published in OpenAPI.

They are drafted from random games of every player count and option (``./run export-schemas``
rewrites ``domain/games/<game>/schemas.json``) and committed; a test validates other random
games (every view of every viewer, every decision, choice and event) against the committed
files, so a change of shape fails CI until the schemas are exported again and the diff reviewed.

Drafting rules: an object lists the properties seen, ``required`` those always present, no
others allowed; a map keyed by seat numbers allows any digit key; a string is an ``enum`` only
when its values belong to a known vocabulary (ids of the static data, phases, option values),
and then the whole vocabulary is allowed, so a rare value is not a false drift.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from api.openapi import event_schemas
from domain.catalog import describe
from domain.manifest import HostedGame
from domain.registry import EngineRegistry
from domain.services.samples import play, variants

DIGITS = re.compile(r"^[0-9]+$")
GAMES_DIR = Path(__file__).resolve().parents[2] / "domain" / "games"
PARTS = ("View", "Decision", "Choices", "Choice", "Event", "EventType", "StaticData")


def prefix(slug: str) -> str:
    """The component-name prefix of a game: ``im-schutze-der-burg`` → ``ImSchutzeDerBurg``."""
    return "".join(part.capitalize() for part in slug.split("-"))


def schema_path(slug: str) -> Path:
    return GAMES_DIR / slug.replace("-", "_") / "schemas.json"


def load(slug: str) -> dict[str, Any] | None:
    """The committed schemas of a game (None for a game without them, such as a test game)."""
    path = schema_path(slug)
    if not path.exists():
        return None
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def components(registry: EngineRegistry) -> dict[str, Any]:
    """Every game's schemas as OpenAPI component schemas, named ``<Game><Part>``."""
    out: dict[str, Any] = {}
    for engine in registry:
        schemas = load(engine.meta.slug)
        if schemas is not None:
            name = prefix(engine.meta.slug)
            out.update({f"{name}{part}": schemas[part] for part in PARTS})
    return out


def refs(slug: str) -> dict[str, str]:
    """Where a game's schemas are in ``/openapi.json``, by part."""
    if load(slug) is None:
        return {}
    name = prefix(slug)
    return {part: f"/openapi.json#/components/schemas/{name}{part}" for part in PARTS}


# -- drafting --------------------------------------------------------------------------------


class _Shape:
    """Everything seen at one place of a JSON document."""

    def __init__(self) -> None:
        self.types: set[str] = set()
        self.strings: set[str] = set()
        self.items: _Shape | None = None
        self.props: dict[str, _Shape] = {}
        self.prop_counts: dict[str, int] = {}
        self.objects = 0
        self.seat_map: _Shape | None = None
        self.values: _Shape | None = None
        """Every property value, for maps keyed by ids (such as VP by building)."""

    def add(self, value: Any) -> None:
        if value is None:
            self.types.add("null")
        elif isinstance(value, bool):
            self.types.add("boolean")
        elif isinstance(value, int):
            self.types.add("integer")
        elif isinstance(value, float):
            self.types.add("number")
        elif isinstance(value, str):
            self.types.add("string")
            self.strings.add(value)
        elif isinstance(value, list):
            self.types.add("array")
            self.items = self.items or _Shape()
            for item in value:
                self.items.add(item)
        elif isinstance(value, dict):
            self.types.add("object")
            if value and all(DIGITS.match(k) for k in value):
                self.seat_map = self.seat_map or _Shape()
                for item in value.values():
                    self.seat_map.add(item)
                return
            self.objects += 1
            self.values = self.values or _Shape()
            for key, item in value.items():
                self.props.setdefault(key, _Shape()).add(item)
                self.prop_counts[key] = self.prop_counts.get(key, 0) + 1
                self.values.add(item)

    def schema(self, vocabularies: list[frozenset[str]]) -> dict[str, Any]:
        types = sorted(self.types)
        if "integer" in types and "number" in types:
            types.remove("integer")
        if not types:
            return {}
        out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
        if "string" in types:
            known = sorted((len(v), sorted(v)) for v in vocabularies if self.strings <= v)
            if known:
                values: list[Any] = list(known[0][1])
                out["enum"] = values + ([None] if "null" in types else [])
        if "array" in types:
            out["items"] = self.items.schema(vocabularies) if self.items else {}
        if "object" in types:
            keys = set(self.props)
            varying = any(n != self.objects for n in self.prop_counts.values())
            named = [v for v in vocabularies if v & keys]
            if varying and named and keys <= frozenset().union(*named) and self.values:
                out["propertyNames"] = {"enum": sorted(frozenset().union(*named))}
                out["additionalProperties"] = self.values.schema(vocabularies)
            elif self.props or self.seat_map is None:
                out["properties"] = {k: s.schema(vocabularies) for k, s in self.props.items()}
                required = [k for k in self.props if self.prop_counts[k] == self.objects]
                if required:
                    out["required"] = required
                out["additionalProperties"] = False
            if self.seat_map is not None and "properties" in out:
                out["patternProperties"] = {"^[0-9]+$": self.seat_map.schema(vocabularies)}
            elif self.seat_map is not None:  # a map by seat: a generator types it as a record
                out["propertyNames"] = {"pattern": DIGITS.pattern}
                out["additionalProperties"] = self.seat_map.schema(vocabularies)
        return out


def _ids(value: Any) -> Iterable[frozenset[str]]:
    """Every list of ``{"id": ...}`` objects in the static data, as a vocabulary."""
    if isinstance(value, list):
        ids = [item["id"] for item in value if isinstance(item, dict) and isinstance(item.get("id"), str)]
        if ids and len(ids) == len(value):
            yield frozenset(ids)
        for item in value:
            yield from _ids(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ids(item)


def vocabularies(game: HostedGame[Any], extra: Iterable[Iterable[str]] = ()) -> list[frozenset[str]]:
    meta = game.engine.meta
    found = [frozenset(str(v) for v in o.allowed) for o in meta.options if o.kind == "enum"]
    if game.catalog is not None:
        described = describe(game.catalog, meta, "en")
        found.extend(_ids(described["data"]))
        found.append(frozenset(described["prompts"]))
    found.extend(frozenset(values) for values in extra)
    return found


def draft(
    game: HostedGame[Any],
    extra_vocabulary: Iterable[Iterable[str]] = (),
    seeds: tuple[str, ...] = ("schema-check",),
) -> dict[str, Any]:
    """The schemas of a game, from random games of every variant (the games the schema test
    replays, so the test fails exactly when the shapes the code produces change)."""
    engine = game.engine
    view = _Shape()
    decisions: dict[str, _Shape] = {}
    choices: dict[str, _Shape] = {}
    events: dict[str, _Shape] = {}
    seen_actions: dict[str, dict[str, list[Any]]] = {}
    for i, (players, options) in enumerate(variants(engine)):
        for seed in seeds:
            played = play(engine, players, options, f"{seed}-{i}", every=2)
            for snap in played.snapshots:
                for seen in snap.views.values():
                    view.add(seen)
                if snap.decision is not None:
                    kind = snap.decision["kind"]
                    decisions.setdefault(kind, _Shape()).add(snap.decision["data"])
                    shape = choices.setdefault(kind, _Shape())
                    for legal in snap.choices.values():
                        for choice in legal:
                            shape.add(choice)
                            action = choice.get("action") if isinstance(choice, dict) else None
                            if isinstance(action, str) and action in SHARED_ACTIONS.get(engine.meta.slug, ()):
                                seen_actions.setdefault(action, {}).setdefault(kind, []).append(choice)
            for _, kind, data in played.events:
                events.setdefault(kind, _Shape()).add(data)
    _share_actions(choices, seen_actions)
    words = vocabularies(game, extra_vocabulary)
    prompts = describe(game.catalog, engine.meta, "en")["prompts"] if game.catalog else {}
    for kind in prompts:  # kinds random games rarely reach keep the shape of a similar one
        decisions.setdefault(kind, _Shape())
        choices.setdefault(kind, _Shape())
    slug, name = engine.meta.slug, prefix(engine.meta.slug)
    rare = RARE_DECISIONS.get(slug, {})
    decision_of = {
        k: rare[k][0] if k in rare and not s.types else s.schema(words) or {"type": "object"}
        for k, s in sorted(decisions.items())
    }
    choice_of = {
        k: rare[k][1] if k in rare and not s.types else s.schema(words) or {"type": "object"}
        for k, s in sorted(choices.items())
    }
    event_of = event_schemas.complete(slug, {k: s.schema(words) for k, s in sorted(events.items())})
    sealed = event_of["choice_sealed"]["properties"]
    sealed["choice"] = {
        "$ref": f"#/components/schemas/{name}Choice",
        "description": "The sealed choice: only in its own seat's view.",
    }
    event_of["taken_back"]["properties"]["view"] = {
        "$ref": f"#/components/schemas/{name}View",
        "description": "The game as this viewer sees it after the take-back: replace the state with it.",
    }
    view_of = view.schema(words)
    for path, schema in UNSEEN.get(slug, {}).items():
        part, *keys = path.split("/")
        node = _at(view_of if part == "View" else event_of[part], keys[:-1])
        node[keys[-1]] = _non_null(_at(view_of, schema.split("/"))) if isinstance(schema, str) else schema
    event_types = sorted(event_of)
    return {
        "View": {
            "description": f"`state` of a {engine.meta.name} game as one viewer sees it.",
            **view_of,
        },
        "Decision": {
            "description": "The top-level `decision`, by `kind` (its `data` differs per kind).",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": k}, "data": s},
                    "required": ["kind", "data"],
                }
                for k, s in decision_of.items()
            ],
        },
        "Choices": {
            "description": "The legal `choices` of a decision, by decision `kind`.",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": k}, "choices": {"type": "array", "items": s}},
                    "required": ["kind", "choices"],
                }
                for k, s in choice_of.items()
            ],
        },
        "Choice": {
            "description": "Any legal choice (post one back verbatim).",
            "anyOf": [
                {"$ref": f"#/components/schemas/{name}Choices/oneOf/{i}/properties/choices/items"}
                for i in range(len(choice_of))
            ],
        },
        "EventType": {"type": "string", "enum": event_types},
        "Event": {
            "description": "An event (`seq`, `type`, `data`), by `type`.",
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"seq": {"type": "integer"}, "type": {"const": k}, "data": s},
                    "required": ["type", "data"],
                }
                for k, s in event_of.items()
            ],
        },
        "StaticData": {
            "description": "`data` of `GET /v1/game-types/" + engine.meta.slug + "`.",
            **_static_shape(game, words),
        },
    }


SHARED_ACTIONS: dict[str, frozenset[str]] = {"keythedral": frozenset({"play"})}
"""Actions that take the same parameters in every decision offering them, by game: a Keythedral
law card is played on one's own turn (``action``) or in a law window (``law_window``) alike."""


def _share_actions(choices: dict[str, _Shape], seen: dict[str, dict[str, list[Any]]]) -> None:
    """Each kind that offered a shared action allows every shape of it that random games showed
    in any kind, so a card seen played in one kind only is not refused in the other."""
    for by_kind in seen.values():
        for kind in by_kind:
            for other, shown in by_kind.items():
                if other != kind:
                    for choice in shown:
                        choices[kind].add(choice)


INTEGER = {"type": "integer", "minimum": 0}
RARE_DECISIONS: dict[str, dict[str, tuple[dict[str, Any], dict[str, Any]]]] = {
    "im-schutze-der-burg": {
        "damsel_bid": (
            {
                "type": "object",
                "properties": {"round": INTEGER},
                "required": ["round"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {"bid": INTEGER},
                "required": ["bid"],
                "additionalProperties": False,
            },
        ),
    },
}
"""Decisions random games rarely reach, by game and kind: the schemas of their ``data`` and of
one choice (the engine's ``decision`` and ``bid_choices``), used when drafting saw none."""

UNSEEN: dict[str, dict[str, dict[str, Any] | str]] = {
    "keythedral": {
        "harvest_failed/properties/colour": {
            "type": "string",
            "enum": ["any", "black", "blue", "brown", "green", "purple", "red", "white", "yellow"],
            "description": "The colour short in the store; `any` when a free harvest finds no cube "
            "of any colour left (the engine's `_harvest_step`).",
        },
    },
    "carcassonne": {
        "View/properties/discarded/items": "properties/tile",
        "barn_scored/properties/returned/items": {
            **INTEGER,
            "description": "A figure id (a barn scores no follower back: always empty).",
        },
    },
}
"""Values random games show only empty (arrays never filled), by game: where (``View/...`` or
``<event type>/...``, then the path into its (data) schema) and their schema from the engine's code, or
the path of a value of the view of the same kind (its schema without ``null``)."""


def _at(schema: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    for key in keys:
        schema = schema[key]
    return schema


def _non_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A copy of a drafted schema that allows no ``null``."""
    out = dict(schema)
    types = out.get("type")
    if isinstance(types, list):
        kept = [t for t in types if t != "null"]
        out["type"] = kept[0] if len(kept) == 1 else kept
    if "enum" in out:
        out["enum"] = [v for v in out["enum"] if v is not None]
    return out


def _static_shape(game: HostedGame[Any], words: list[frozenset[str]]) -> dict[str, Any]:
    if game.catalog is None:
        return {"type": "object"}
    shape = _Shape()
    for lang in ("en", "de", "fr", "es"):
        shape.add(describe(game.catalog, game.engine.meta, lang)["data"])
    return shape.schema([])


def export(registry: EngineRegistry, extra: dict[str, list[list[str]]] | None = None) -> list[Path]:
    """Draft and write every hosted game's schemas."""
    written = []
    for game in registry.games():
        if game.catalog is None:
            continue
        schemas = draft(game, (extra or {}).get(game.slug, []))
        path = schema_path(game.slug)
        path.write_text(json.dumps(schemas, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written
