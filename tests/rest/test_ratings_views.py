"""Ratings shown where players look: bots' own ratings, the game view's "rated, or why not"
(REST and GraphQL, translated), the ratings at a table, and leaderboards and profiles over GraphQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.i18n import LANGUAGES, platform_texts
from domain.model.ratings import PAIR_LIMIT, START_MU, WHY_UNRATED
from tests.support.client import CLOCK, board, play_one_round, play_until_finished, player
from tests.support.graphql import gql
from tests.support.http import auth


def test_every_reason_for_an_unrated_game_has_a_text_in_every_language() -> None:
    for lang in LANGUAGES:
        texts = platform_texts(lang)
        assert all(texts.get(f"unrated.{code}") for code in WHY_UNRATED), lang


def play_against_bots(client: TestClient, person: dict[str, Any], bots: list[str]) -> str:
    """A one-round Duel with a clock: the person in seat 0, then the bot levels; returns its id."""
    game = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}).json()
    seat = client.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(person["token"]))
    assert seat.status_code == 201, seat.text
    token = seat.json()["token"]
    for level in bots:
        joined = client.post(
            f"/v1/games/{game['id']}/seats", json={"bot": level}, headers=auth(game["host_token"])
        )
        assert joined.status_code == 201, joined.text
    assert client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).status_code == 200
    play_until_finished(client, game["id"], token, pick=lambda choices: choices[-1])
    game_id: str = game["id"]
    return game_id


def test_a_bot_level_has_its_own_rating_and_moves_against_people_only(client: TestClient) -> None:
    ann = player(client, "Ann")
    play_against_bots(client, ann, ["greedy"])
    entries = {e["subject"]: e for e in board(client)["entries"]}
    assert set(entries) == {ann["id"], "bot:greedy"}
    assert entries["bot:greedy"]["kind"] == "bot" and entries["bot:greedy"]["games"] == 1
    assert entries[ann["id"]]["games"] == 1
    # The same level in two seats: an opponent at each, but its own rating stays where it was.
    bob = player(client, "Bob")
    play_against_bots(client, bob, ["greedy", "greedy"])
    after = {e["subject"]: e for e in board(client)["entries"]}
    unmoved = ("mu", "sigma", "rating", "games")
    assert [after["bot:greedy"][k] for k in unmoved] == [entries["bot:greedy"][k] for k in unmoved]
    assert after[bob["id"]]["games"] == 1 and after[bob["id"]]["mu"] != START_MU


def test_every_level_has_its_own_ladder_identity(client: TestClient) -> None:
    """strong and greedy are two rated opponents, each with a number a person can compare."""
    ann = player(client, "Ann")
    play_against_bots(client, ann, ["strong"])
    play_against_bots(client, ann, ["greedy"])
    entries = {e["subject"]: e for e in board(client)["entries"]}
    assert {"bot:strong", "bot:greedy"} <= set(entries)
    assert entries["bot:strong"]["kind"] == "bot" and entries["bot:strong"]["games"] == 1
    assert entries["bot:strong"]["rating"] is not None and entries[ann["id"]]["games"] == 2


def test_the_game_view_says_whether_it_is_rated_and_why_not_in_the_asked_language(
    client: TestClient,
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    seeded = client.post("/v1/games", json={"type": "duel", "seed": "mine"}).json()
    view = client.get(f"/v1/games/{seeded['id']}", params={"lang": "de"}).json()
    assert view["rated"] is False
    assert [r["code"] for r in view["unrated_reasons"]] == [
        "fewer_than_two_identities",
        "host_seed",
        "no_clock",
    ]
    assert view["unrated_reasons"][2]["text"] == platform_texts("de")["unrated.no_clock"]
    clocked = client.post("/v1/games", json={"type": "duel", "clock": CLOCK}).json()
    for person in (ann, bob):
        client.post(f"/v1/games/{clocked['id']}/seats", json={}, headers=auth(person["token"]))
    view = client.get(f"/v1/games/{clocked['id']}").json()
    assert (view["rated"], view["unrated_reasons"]) == (True, [])
    data = gql(
        client,
        'query($id: ID!) { game(id: $id, lang: "fr") '
        "{ ... on Game { rated unratedReasons { code text } } } }",
        id=seeded["id"],
    )["game"]
    assert data["rated"] is False
    host_seed = {"code": "host_seed", "text": platform_texts("fr")["unrated.host_seed"]}
    assert data["unratedReasons"][1] == host_seed


def test_a_finished_game_the_pair_limit_left_unrated_says_so(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    games = [
        play_one_round(client, [ann["token"], bob["token"]], [3, 1], clock=CLOCK)
        for _ in range(PAIR_LIMIT + 1)
    ]
    first, last = (client.get(f"/v1/games/{g}").json() for g in (games[0], games[-1]))
    assert (first["rated"], first["unrated_reasons"]) == (True, [])
    assert last["rated"] is False and [r["code"] for r in last["unrated_reasons"]] == ["pair_limit"]
    data = gql(
        client,
        "query($id: ID!) { game(id: $id) { ... on Game { rated unratedReasons { code } } } }",
        id=games[-1],
    )["game"]
    assert data == {"rated": False, "unratedReasons": [{"code": "pair_limit"}]}


def test_the_table_shows_each_seats_rating_and_finishing_rate(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    play_one_round(client, [ann["token"], bob["token"]], [3, 1], clock=CLOCK)
    game = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}).json()
    client.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(ann["token"]))
    client.post(f"/v1/games/{game['id']}/seats", json={"name": "Guest"})
    client.post(f"/v1/games/{game['id']}/seats", json={"bot": "greedy"}, headers=auth(game["host_token"]))
    table = client.get(f"/v1/games/{game['id']}/ratings")
    assert table.status_code == 200, table.text
    seats = table.json()["seats"]
    assert [(s["name"], s["subject"]) for s in seats] == [
        ("Ann", ann["id"]),
        ("Guest", None),
        (seats[2]["name"], "bot:greedy"),
    ]
    ann_board = next(e for e in board(client)["entries"] if e["subject"] == ann["id"])
    assert seats[0]["rating"]["rating"] == ann_board["rating"] and seats[0]["rating"]["games"] == 1
    assert seats[0]["finishing"]["rate"] == 1.0
    assert seats[1]["rating"] is None and seats[1]["finishing"] is None
    assert seats[2]["rating"] is None and seats[2]["finishing"] is None  # greedy has no rated game yet
    data = gql(
        client,
        "query($id: ID!) { tableRatings(gameId: $id) { ... on TableRatings { seats { subject "
        "rating { rating games } finishing { rate } } } ... on Problem { code } } }",
        id=game["id"],
    )["tableRatings"]
    assert data["seats"][0] == {
        "subject": ann["id"],
        "rating": {"rating": ann_board["rating"], "games": 1},
        "finishing": {"rate": 1.0},
    }
    missing = gql(client, '{ tableRatings(gameId: "nope") { ... on Problem { code httpStatus } } }')
    assert missing["tableRatings"] == {"code": "game_not_found", "httpStatus": 404}
    assert client.get("/v1/games/nope/ratings").status_code == 404


LEADERBOARD = """query($type: String!, $min: Int!, $limit: Int!, $cursor: String) {
  leaderboard(gameType: $type, minGames: $min, limit: $limit, cursor: $cursor) {
    ... on Leaderboard { gameType nextCursor
      entries { rank subject kind name rating mu sigma games provisional gameType
        finishing { finished rate } } }
    ... on Problem { code httpStatus }
  }
}"""

PROFILE = """query($id: ID!) {
  playerProfile(id: $id) {
    ... on Profile { id name ratings { gameType rating games provisional }
      history { gameId rank ratingBefore rating }
      recentGames { gameId rank outcome rated replay }
      finishing { finished resigned timedOut rate } }
    ... on Problem { code httpStatus }
  }
}"""


def test_graphql_leaderboards_and_profiles_say_what_rest_says(client: TestClient) -> None:
    people = [player(client, name) for name in ("Ann", "Bob", "Cy")]
    play_one_round(client, [people[0]["token"], people[1]["token"]], [3, 1], clock=CLOCK)
    game_id = play_one_round(client, [people[0]["token"], people[2]["token"]], [3, 1], clock=CLOCK)
    first = gql(client, LEADERBOARD, type="duel", min=0, limit=2, cursor=None)["leaderboard"]
    second = gql(client, LEADERBOARD, type="duel", min=0, limit=2, cursor=first["nextCursor"])["leaderboard"]
    rest = board(client)["entries"]
    assert [e["subject"] for e in first["entries"] + second["entries"]] == [e["subject"] for e in rest]
    assert [e["rank"] for e in first["entries"] + second["entries"]] == [1, 2, 3]
    assert first["entries"][0]["rating"] == rest[0]["rating"] and second["nextCursor"] is None
    assert [e["finishing"] for e in first["entries"] + second["entries"]] == [
        {"finished": e["finishing"]["finished"], "rate": e["finishing"]["rate"]} for e in rest
    ]
    only_ann = gql(client, LEADERBOARD, type="duel", min=2, limit=50, cursor=None)["leaderboard"]
    assert [e["name"] for e in only_ann["entries"]] == ["Ann"]
    profile = gql(client, PROFILE, id=people[0]["id"])["playerProfile"]
    rest_profile = client.get(f"/v1/players/{people[0]['id']}/profile").json()
    assert profile["ratings"] == [
        {"gameType": "duel", "rating": r["rating"], "games": 2, "provisional": True}
        for r in rest_profile["ratings"]
    ]
    assert [h["gameId"] for h in profile["history"]] == [h["game_id"] for h in rest_profile["history"]]
    assert profile["recentGames"][0] == {
        "gameId": game_id,
        "rank": 1,
        "outcome": "finished",
        "rated": True,
        "replay": f"/v1/games/{game_id}/replay",
    }
    assert profile["finishing"] == {"finished": 2, "resigned": 0, "timedOut": 0, "rate": 1.0}
    unknown = gql(client, LEADERBOARD, type="nope", min=0, limit=5, cursor=None)["leaderboard"]
    assert unknown == {"code": "unknown_game_type", "httpStatus": 404}
    bad = gql(client, LEADERBOARD, type="duel", min=-1, limit=5, cursor=None)["leaderboard"]
    assert bad["code"] == "invalid_request"
    nobody = gql(client, PROFILE, id="nobody")["playerProfile"]
    assert nobody == {"code": "player_not_found", "httpStatus": 404}
