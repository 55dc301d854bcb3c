"""`GET /v1/game-types/{slug}` and GraphQL `gameType`: the static data of a game in the language
asked for, with `Content-Language`; decision prompts follow the same language."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.client import seated_game
from tests.support.http import auth


def test_static_data_of_each_game_in_english_by_default(client: TestClient) -> None:
    for slug, section in (
        ("im-schutze-der-burg", "buildings"),
        ("keythedral", "law_cards"),
        ("carcassonne", "tiles"),
    ):
        response = client.get(f"/v1/game-types/{slug}")
        assert response.status_code == 200
        assert response.headers["content-language"] == "en"
        body = response.json()
        assert body["language"] == "en" and body["slug"] == slug
        assert body["data"][section] and body["prompts"] and body["log_templates"]["seat_joined"]


def test_accept_language_and_lang_choose_the_language(client: TestClient) -> None:
    german = client.get("/v1/game-types/carcassonne", headers={"Accept-Language": "de-CH, en;q=0.5"})
    assert german.headers["content-language"] == "de"
    features = {f["id"]: f["name"] for f in german.json()["data"]["feature_kinds"]}
    assert features == {"field": "Wiese", "road": "Straße", "city": "Stadt", "cloister": "Kloster"}
    spanish = client.get("/v1/game-types/keythedral?lang=es", headers={"Accept-Language": "de"})
    assert spanish.headers["content-language"] == "es"
    assert spanish.json()["data"]["keytown"][-1]["name"] == "Maestro de leyes"
    unknown = client.get("/v1/game-types/im-schutze-der-burg?lang=it", headers={"Accept-Language": "it"})
    assert unknown.headers["content-language"] == "en"
    listed = client.get("/v1/game-types", headers={"Accept-Language": "fr"})
    assert listed.headers["content-language"] == "fr"
    names = {t["slug"]: t["name"] for t in listed.json()}
    assert names["im-schutze-der-burg"] == "À l'ombre des murailles"


def test_unknown_game_type_is_404_unknown_game_type(client: TestClient) -> None:
    response = client.get("/v1/game-types/nope")
    assert response.status_code == 404 and response.json()["code"] == "unknown_game_type"


def test_decision_prompts_follow_the_language(client: TestClient) -> None:
    game, tokens = seated_game(client, players=2, type="im-schutze-der-burg")
    english = client.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[0])).json()
    assert english["decision"]["prompt"] == "Choose your character card(s) for this round."
    german = client.get(f"/v1/games/{game['id']}/choices?lang=de", headers=auth(tokens[0]))
    assert german.headers["content-language"] == "de"
    assert german.json()["decision"]["prompt"] == "Wähle deine Personenkarte(n) für diese Runde."
    viewed = client.get(f"/v1/games/{game['id']}", headers={**auth(tokens[1]), "Accept-Language": "fr"})
    assert viewed.headers["content-language"] == "fr"
    assert viewed.json()["decision"]["prompt"].startswith("Choisissez")


def test_graphql_game_type_has_the_same_static_data(client: TestClient) -> None:
    query = """query($slug: String!, $lang: String) {
      gameType(slug: $slug, lang: $lang) {
        ... on GameTypeDetail { slug name language data prompts logTemplates }
        ... on Problem { code httpStatus }
      }
    }"""
    answer: dict[str, Any] = client.post(
        "/graphql", json={"query": query, "variables": {"slug": "keythedral", "lang": "fr"}}
    ).json()
    detail = answer["data"]["gameType"]
    rest = client.get("/v1/game-types/keythedral?lang=fr").json()
    assert detail["language"] == "fr" and detail["data"] == rest["data"]
    assert detail["prompts"] == rest["prompts"] and detail["logTemplates"] == rest["log_templates"]
    missing = client.post("/graphql", json={"query": query, "variables": {"slug": "nope"}}).json()["data"][
        "gameType"
    ]
    assert missing == {"code": "unknown_game_type", "httpStatus": 404}


def test_bot_levels_and_option_labels_are_discoverable_in_the_language_asked(client: TestClient) -> None:
    rest = client.get("/v1/game-types/carcassonne?lang=de").json()
    assert [b["level"] for b in rest["bot_levels"]] == ["random", "greedy", "strong"]
    assert rest["bot_levels"][0]["name"] == "Zufall" and rest["bot_levels"][1]["description"]
    labels = {o["name"]: o["label"] for o in rest["options"]}
    assert labels["farm_scoring"] == "Wiesenwertung" and all(labels.values())
    enums = [o for o in rest["options"] if o["allowed"]]
    values = {o["name"]: dict(zip(o["allowed"], o["allowed_labels"], strict=True)) for o in enums}
    assert values["farm_scoring"]["v3"] == "aktuell: 3 je Stadt und Wiese"
    assert values["abbey_end_round"] == {
        "none": "keine Abteirunde",
        "optional": "freiwillig",
        "mandatory": "Pflicht",
    }
    assert values["tiny_city_points"][4] == "4 Punkte (aktuell)"
    assert all(o["allowed_labels"] is None for o in rest["options"] if not o["allowed"])
    query = """query { gameType(slug: "carcassonne", lang: "de") { ... on GameTypeDetail {
      botLevels { level name description } options { name label allowedLabels } } } }"""
    detail = client.post("/graphql", json={"query": query}).json()["data"]["gameType"]
    assert detail["botLevels"] == rest["bot_levels"]
    assert {o["name"]: o["label"] for o in detail["options"]} == labels
    assert {o["name"]: o["allowedLabels"] for o in detail["options"]} == {
        o["name"]: o["allowed_labels"] for o in rest["options"]
    }
    for lang in ("en", "fr", "es"):  # every value named in every language, none by its id
        for option in client.get(f"/v1/game-types/keythedral?lang={lang}").json()["options"]:
            assert not set(option["allowed_labels"] or []) & {str(v) for v in option["allowed"] or []}, option
    for level in rest["bot_levels"]:  # a listed level is one the host can seat
        game = client.post("/v1/games", json={"type": "carcassonne"}).json()
        seated = client.post(
            f"/v1/games/{game['id']}/seats", json={"bot": level["level"]}, headers=auth(game["host_token"])
        )
        assert seated.status_code == 201, seated.text
