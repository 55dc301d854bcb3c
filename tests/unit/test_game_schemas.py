"""Every view (of every viewer), decision, choice and event of random games of every game,
player count and option validates against the game's published JSON Schema; so does the
static data in every language. A change of shape fails here: run ``./run export-schemas`` and
review the diff of ``domain/games/<game>/schemas.json``."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema.exceptions import best_match

from api.app import create_app
from api.openapi.game_schemas import PARTS, load, prefix
from api.settings import Settings
from domain.catalog import describe
from domain.i18n import LANGUAGES
from domain.registry import default_registry
from tests.support.contract import fast_game_part_validator, game_part_validator
from tests.support.playouts import play, variants

REGISTRY = default_registry()
SLUGS = sorted(REGISTRY.catalogs())


def check(slug: str, part: str, instance: Any, where: str) -> None:
    if fast_game_part_validator(slug, part).is_valid(instance):
        return
    error = best_match(game_part_validator(slug, part).iter_errors(instance))
    if error is None:  # the two validators disagree: the schema uses something one misreads
        pytest.fail(f"{slug} {part} ({where}): jsonschema-rs refuses what jsonschema accepts")
    assert error is None, (
        f"{slug} {part} ({where}) does not match its schema: {error.message[:300]} at "
        f"{list(error.absolute_path)}; run ./run export-schemas if the change is intended"
    )


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_publishes_every_schema_in_openapi(slug: str) -> None:
    schemas = load(slug)
    assert schemas is not None and set(schemas) == set(PARTS)
    document = create_app(Settings()).openapi()
    for part in PARTS:
        assert f"{prefix(slug)}{part}" in document["components"]["schemas"]


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("slug", SLUGS)
def test_random_games_match_the_published_schemas(slug: str) -> None:
    engine = REGISTRY.get(slug)
    event_types = set(load(slug)["EventType"]["enum"])  # type: ignore[index]
    for i, (players, options) in enumerate(variants(engine)):
        played = play(engine, players, options, f"schema-check-{i}", every=12)
        where = f"{players} players, {options}"
        for snap in played.snapshots:
            for viewer, view in snap.views.items():
                check(slug, "View", view, f"{where}, viewer {viewer}")
            if snap.decision is not None:
                kind = snap.decision["kind"]
                check(slug, "Decision", snap.decision, where)
                for legal in snap.choices.values():
                    check(slug, "Choices", {"kind": kind, "choices": legal}, where)
                    for choice in legal[:3]:
                        check(slug, "Choice", choice, where)
        for viewer, kind, data in played.events:
            assert kind in event_types, f"{slug}: event type {kind} is not in {prefix(slug)}EventType"
            check(slug, "Event", {"type": kind, "data": data}, f"{where}, viewer {viewer}")


@pytest.mark.parametrize("slug", SLUGS)
def test_static_data_matches_its_schema_in_every_language(slug: str) -> None:
    for lang in LANGUAGES:
        check(
            slug,
            "StaticData",
            describe(REGISTRY.catalogs()[slug], REGISTRY.get(slug).meta, lang)["data"],
            lang,
        )


@pytest.mark.parametrize("slug", SLUGS)
def test_the_fast_validator_refuses_a_view_of_the_wrong_shape(slug: str) -> None:
    """The speed-up must not hide drift: a view whose players are not a list fails the check."""
    engine = REGISTRY.get(slug)
    players, options = next(iter(variants(engine)))
    view = dict(play(engine, players, options, "wrong-shape", every=1000).snapshots[0].views[None])
    view["players"] = "nobody"
    with pytest.raises(AssertionError, match="does not match its schema"):
        check(slug, "View", view, "players replaced by a string")


def test_a_law_card_seen_played_in_one_decision_is_allowed_in_every_decision_offering_it() -> None:
    """Keythedral's Dangerous Fence (L11) names a fence slot. Random games had shown it played
    only in a law window, so the published choices of an own-turn ``action`` decision refused it
    when a real game offered it there (a whole game over GraphQL failed on it). One action takes
    the same parameters wherever it is offered."""
    dangerous_fence = {"action": "play", "card": "L11", "fx": 1, "fy": 5, "gx": 2, "gy": 6}
    for kind in ("action", "law_window"):
        check("keythedral", "Choices", {"kind": kind, "choices": [dangerous_fence]}, kind)


def test_a_free_harvest_that_finds_the_store_empty_is_a_published_event() -> None:
    """A free harvest with no cube of any colour left records ``colour: "any"``; random games reach
    it rarely, and a whole game over GraphQL once failed the schema on it."""
    event = {"seq": 9, "type": "harvest_failed", "data": {"seat": 1, "colour": "any", "missing": 2}}
    check("keythedral", "Event", event, "harvest_failed")
