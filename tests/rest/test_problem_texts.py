"""A problem's ``detail`` in the caller's language: every registered code has its text in the four
languages, and REST (routed errors and edge refusals) and GraphQL answer in the one asked for."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.problems.details import problem_codes
from domain.i18n import LANGUAGES, platform_texts

UNKNOWN_GAME = "query($id: ID!) { game(id: $id) { __typename ... on Problem { code detail } } }"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_registered_code_has_its_text_in_every_language(lang: str) -> None:
    texts = platform_texts(lang)
    for code in problem_codes():
        assert texts.get(f"problem.{code}", "").strip(), f"no {lang} text for problem {code}"
    if lang != "en":
        english = platform_texts("en")
        same = [c for c in problem_codes() if texts[f"problem.{c}"] == english[f"problem.{c}"]]
        assert not same, f"{lang} texts left in English: {same}"


def test_a_german_caller_gets_german_details(client: TestClient) -> None:
    missing = client.get("/v1/games/nope", headers={"Accept-Language": "de-AT, en;q=0.5"})
    assert missing.status_code == 404 and missing.json()["code"] == "game_not_found"
    assert missing.json()["detail"] == "Dieses Spiel gibt es nicht ('nope')."
    assert missing.headers["content-language"] == "de"
    invalid = client.post("/v1/games", json={"type": 3}, headers={"Accept-Language": "de"})
    assert invalid.json()["detail"] == "Ein Feld, Abfrageparameter oder Header ist ungültig (body.type)."
    assert invalid.json()["errors"]  # the field list stays as it is


def test_lang_wins_over_accept_language_and_english_names_the_values(client: TestClient) -> None:
    french = client.get("/v1/games/nope", params={"lang": "fr"}, headers={"Accept-Language": "de"})
    assert french.json()["detail"] == "Cette partie n'existe pas ('nope')."
    english = client.get("/v1/games/nope").json()["detail"]
    assert "nope" in english  # the English sentence says which game


def test_refusals_at_the_edge_speak_the_asked_language(client: TestClient) -> None:
    big = client.post(
        "/v1/games", json={"type": "duel", "seed": "x" * 100_000}, headers={"Accept-Language": "es"}
    )
    assert big.status_code == 413
    assert big.json()["detail"] == "El cuerpo de la petición es demasiado grande (65536 bytes)."
    wrong = client.delete("/v1/game-types", headers={"Accept-Language": "fr"})
    assert wrong.status_code == 405
    assert wrong.json()["detail"] == platform_texts("fr")["problem.method_not_allowed"]


def test_a_graphql_problem_speaks_the_asked_language(client: TestClient) -> None:
    answer = client.post(
        "/graphql",
        json={"query": UNKNOWN_GAME, "variables": {"id": "nope"}},
        headers={"Accept-Language": "de"},
    ).json()["data"]["game"]
    assert answer == {
        "__typename": "Problem",
        "code": "game_not_found",
        "detail": "Dieses Spiel gibt es nicht ('nope').",
    }


def test_a_request_that_is_no_graphql_request_is_refused_in_the_asked_language(
    client: TestClient,
) -> None:
    refused = client.post("/graphql", json={"variables": {}}, headers={"Accept-Language": "es"})
    assert refused.status_code == 400 and refused.json()["code"] == "graphql_request_invalid"
    assert refused.json()["detail"] == platform_texts("es")["problem.graphql_request_invalid"]


def test_a_graphql_error_carries_its_detail_in_the_asked_language(client: TestClient) -> None:
    deep = "{ " + "gameTypes { " * 1 + "slug nope } }"
    body = client.post("/graphql", json={"query": deep}, headers={"Accept-Language": "fr"}).json()
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "graphql_validation_failed"
    assert error["extensions"]["detail"] == (
        "Le document GraphQL ne correspond pas au schéma ('nope'; type 'GameType'; 'name')."
    )
    english = client.post("/graphql", json={"query": deep}).json()["errors"][0]
    assert english["extensions"]["detail"] == english["message"]
