"""Whole games of every hosted type, over REST, with every response validated against the
published OpenAPI document in strict mode: no field the schema does not know, none missing that
it requires, no null where it says a value. Each game's state, decision, choices and events are
checked against their per-game component schemas too. A generated client is then exact."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.contract import GAMES, StrictChecker
from tests.support.play import play_over_rest


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("slug", "players", "options"), GAMES)
def test_every_response_of_a_whole_game_matches_the_published_schemas_strictly(
    client: TestClient, document: dict[str, Any], slug: str, players: int, options: dict[str, Any]
) -> None:
    checker = StrictChecker(document)
    checker.game_type = slug
    client.event_hooks["response"].append(checker)
    played = play_over_rest(client, slug, players, options, seed=f"strict-{slug}", watch_every=25)
    client.get(f"/v1/games/{played.game_id}/replay")
    client.get(f"/v1/game-types/{slug}")
    client.get("/v1/game-types")
    client.get("/v1/games", params={"type": slug})
    assert played.final["status"] == "finished"
    for operation in (
        "createGame",
        "joinGame",
        "startGame",
        "getGame",
        "getChoices",
        "submitChoice",
        "listEvents",
        "getGameType",
    ):
        assert checker.checked.get(operation), f"{operation} was never answered"


def test_the_strict_check_refuses_an_unknown_field_and_a_missing_one(document: dict[str, Any]) -> None:
    """The check is not vacuous: a response with a field too many, or one too few, fails."""
    checker = StrictChecker(document)
    example = document["components"]["schemas"]["GameCreated"]["examples"][0]
    checker.validate(example, "#/components/schemas/GameCreated", "example")
    with pytest.raises(AssertionError):
        checker.validate({**example, "surprise": 1}, "#/components/schemas/GameCreated", "extra")
    without = {k: v for k, v in example.items() if k != "rematch_of"}
    with pytest.raises(AssertionError):
        checker.validate(without, "#/components/schemas/GameCreated", "missing")
    schemas = document["components"]["schemas"]
    for ref in schemas["GameCreated"]["discriminator"]["mapping"].values():  # one per game type
        created = schemas[ref.removeprefix("#/components/schemas/")]
        assert created["properties"]["host_token"]["type"] == "string"
        assert {"host_token", "rematch_of", "invite_code"} <= set(created["required"])
