"""Every event type a game can record is in its published ``<Game>EventType`` enum, has a data
schema in ``<Game>Event`` and a log template in every language: a typed client never meets an
event its types do not know (a resignation, a lapsed clock, a tile nobody can place)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from api.openapi.game_schemas import load
from domain.catalog import describe
from domain.i18n import LANGUAGES
from domain.model.match import RESERVED_EVENT_TYPES
from domain.registry import default_registry

REGISTRY = default_registry()
SLUGS = sorted(REGISTRY.catalogs())
GAMES = Path(__file__).resolve().parents[2] / "domain" / "games"
EVENT_MAKERS = {"Event", "reveal_event"}


def recorded_by_engine(slug: str) -> set[str]:
    """The type of every event the engine's code constructs (``Event("type", ...)``)."""
    found: set[str] = set()
    for source in (GAMES / slug.replace("-", "_")).rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "reveal_event":
                found.add("reveal")
            elif node.func.id == "Event":
                first = node.args[0]
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{source}:{node.lineno}: an event type must be a literal to be published"
                )
                found.add(first.value)
    return found


def recordable(slug: str) -> set[str]:
    """What the engine and the platform can record, and what the catalog has templates for."""
    templates = {
        k.removeprefix("event.") for k in REGISTRY.catalogs()[slug].texts("en") if k.startswith("event.")
    }
    return recorded_by_engine(slug) | set(RESERVED_EVENT_TYPES) | templates


@pytest.mark.parametrize("slug", SLUGS)
def test_every_recordable_event_type_is_in_the_published_enum(slug: str) -> None:
    schemas = load(slug)
    assert schemas is not None
    published = set(schemas["EventType"]["enum"])
    missing = recordable(slug) - published
    assert not missing, f"{slug}: not in the EventType enum: {sorted(missing)}; run export-schemas"
    described = {member["properties"]["type"]["const"] for member in schemas["Event"]["oneOf"]}
    assert described == published


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_recordable_event_type_has_a_log_template(slug: str, lang: str) -> None:
    templates = describe(REGISTRY.catalogs()[slug], REGISTRY.get(slug).meta, lang)["log_templates"]
    assert isinstance(templates, dict)
    missing = recordable(slug) - set(templates)
    assert not missing, f"{slug} {lang}: no log template for {sorted(missing)}"


PLATFORM_SAMPLES = [
    ("seat_joined", {"seat": 1, "name": "Greedy bot", "bot": "greedy"}),
    ("seat_left", {"seat": 0, "name": "Ada", "removed_by": "host"}),
    ("game_aborted", {"seed": "s", "seed_salt": "9f2c", "reason": "lobby_expired"}),
    ("seat_resigned", {"seat": 2}),
    ("clock_expired", {"seat": 0, "action": "forfeit"}),
    ("seat_returned", {"seat": 0}),
]
"""Data the platform records (domain/model/match.py) in forms random games never reach."""


@pytest.mark.parametrize("slug", SLUGS)
def test_platform_events_in_every_form_match_the_published_event_schema(slug: str) -> None:
    schemas = load(slug)
    assert schemas is not None
    validator = Draft202012Validator(schemas["Event"])
    for kind, data in PLATFORM_SAMPLES:
        errors = list(validator.iter_errors({"seq": 3, "type": kind, "data": data}))
        assert not errors, (slug, kind, [e.message[:200] for e in errors])
    over = next(m for m in schemas["Event"]["oneOf"] if m["properties"]["type"]["const"] == "game_over")
    fields = over["properties"]["data"]["properties"]
    assert Draft202012Validator(fields["seed_salt"]).is_valid("9f2c")
    assert Draft202012Validator(fields["resigned"]).is_valid([1])
    assert not Draft202012Validator(fields["resigned"]).is_valid(["x"])
