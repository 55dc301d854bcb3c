"""Tournaments over REST, in process: a whole 8-player Swiss of Im Schutze der Burg played by
seeded random clients to the end, standings equal to the hand computation; registration and the
host's rights answered as problems."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import CLOCK
from tests.support.graphql import gql
from tests.support.http import auth
from tests.support.problems import assert_problem
from tests.support.tournament_api import Tourney, standings_by_hand
from tests.support.waiting import eventually

pytestmark = pytest.mark.timeout(600)


def by_player(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["player_id"]: r for r in rows}


def test_an_eight_player_swiss_of_im_schutze_der_burg_is_played_to_the_end(client: TestClient) -> None:
    tourney = Tourney([client])
    created = tourney.create(
        name="Burg night", game_type="im-schutze-der-burg", format="swiss", rounds=3, clock=CLOCK
    )
    assert created["tournament"]["status"] == "registering" and created["invite_code"] is None
    tourney.register([f"player {n}" for n in range(8)])
    tourney.start()
    for number in (1, 2, 3):
        tourney.play_round(number, seed=number)
    final = eventually(lambda: (t := tourney.tournament())["status"] == "finished" and t, 60, "finished")
    assert final["current_round"] == 3 and final["rounds"] == 3
    rounds = tourney.rounds()
    assert [len(r["tables"]) for r in rounds] == [4, 4, 4] and all(not r["byes"] for r in rounds)
    met = [frozenset(s["player_id"] for s in t["seats"]) for r in rounds for t in r["tables"]]
    assert len(set(met)) == 12  # nobody met twice
    for round_ in rounds:
        for table in round_["tables"]:
            assert [s["rank"] for s in table["seats"]] == tourney.results[table["game_id"]]
    served = tourney.standings()
    by_hand = by_player(standings_by_hand(rounds, tourney.results))
    assert len(served) == 8
    for row in served:
        mine = by_hand[row["player_id"]]
        assert (row["points"], row["buchholz"], row["sonneborn_berger"], row["games"]) == pytest.approx(
            (mine["points"], mine["buchholz"], mine["sonneborn_berger"], mine["games"])
        )
    keys = [(-r["points"], -r["buchholz"], -r["sonneborn_berger"], -r["rating"]) for r in served]
    assert keys == sorted(keys) and served[0]["rank"] == 1
    # the games were rated as any other: three rated games each
    for player_id in tourney.players:
        profile = client.get(f"/v1/players/{player_id}/profile").json()
        assert [r["games"] for r in profile["ratings"]] == [3]


def test_registration_and_the_hosts_rights_are_answered_as_problems(client: TestClient) -> None:
    tourney = Tourney([client])
    tourney.create(name="Duel club", game_type="duel", format="round_robin", max_players=2, clock=CLOCK)
    tid = tourney.tournament_id
    registrations = f"/v1/tournaments/{tid}/registrations"
    assert_problem(client.get("/v1/tournaments/nope"), 404, "tournament_not_found")
    tourney.register(["Ann", "Bob"])
    ann = next(iter(tourney.players.values()))
    assert_problem(
        client.post(f"/v1/tournaments/{tid}/registrations", json={}, headers=auth(ann)),
        409,
        "already_registered",
    )
    cy = client.post("/v1/players", json={"name": "Cy"}).json()["token"]
    assert_problem(
        client.post(f"/v1/tournaments/{tid}/registrations", json={}, headers=auth(cy)), 409, "tournament_full"
    )
    assert_problem(client.post(f"/v1/tournaments/{tid}/registrations", json={}), 401, "unauthorized")
    assert_problem(client.post(f"/v1/tournaments/{tid}/start", headers=auth(ann)), 403, "forbidden")
    german = client.post(registrations, json={}, headers=auth(cy) | {"Accept-Language": "de"})
    assert_problem(german, 409, "tournament_full")
    assert german.headers["content-language"] == "de" and "Turnier" in german.json()["detail"]
    unregistered = client.delete(f"/v1/tournaments/{tid}/registrations/me", headers=auth(ann))
    assert unregistered.status_code == 200 and len(unregistered.json()["entrants"]) == 1
    assert_problem(
        client.post("/v1/tournaments", json={"name": "x", "game_type": "duel", "format": "swiss"}),
        422,
        "invalid_request",
    )
    listed = client.get("/v1/tournaments", params={"status": "registering"}).json()
    assert [t["id"] for t in listed] == [tid]


def test_a_private_tournament_needs_its_invite_code(client: TestClient) -> None:
    tourney = Tourney([client])
    created = tourney.create(name="Friends", game_type="duel", format="swiss", private=True, clock=CLOCK)
    tid, code = tourney.tournament_id, created["invite_code"]
    token = client.post("/v1/players", json={"name": "Ann"}).json()["token"]
    assert_problem(
        client.post(f"/v1/tournaments/{tid}/registrations", json={}, headers=auth(token)),
        403,
        "invite_required",
    )
    joined = client.post(
        f"/v1/tournaments/{tid}/registrations", json={"invite_code": code}, headers=auth(token)
    )
    assert joined.status_code == 200, joined.text
    assert client.get("/v1/tournaments").json() == []


TOURNAMENT_QUERY = """
query Tournament($id: ID!) {
  tournament(id: $id) {
    __typename
    ... on Tournament {
      status currentRound roundsPlanned
      standings { rank playerId points buchholz sonnebornBerger }
      rounds { round byes pairings { number gameId finished seats { seat playerId rank } } }
    }
    ... on Problem { code httpStatus }
  }
}
"""


def test_graphql_reads_the_same_standings_and_pairings_as_rest(client: TestClient) -> None:
    tourney = Tourney([client])
    tourney.create(
        name="Duel club", game_type="duel", format="swiss", rounds=2, clock=CLOCK, options={"rounds": 1}
    )
    tourney.register(["Ann", "Bob", "Cy"])
    tourney.start()
    tourney.play_round(1, seed=1)
    tourney.wait_for_round(2)
    read = gql(client, TOURNAMENT_QUERY, id=tourney.tournament_id)["tournament"]
    assert read["__typename"] == "Tournament" and read["currentRound"] == 2 and read["roundsPlanned"] == 2
    rest_rounds = tourney.rounds()
    assert [
        {
            "round": r["round"],
            "byes": r["byes"],
            "pairings": [
                {
                    "number": t["number"],
                    "gameId": t["game_id"],
                    "finished": t["finished"],
                    "seats": [
                        {"seat": s["seat"], "playerId": s["player_id"], "rank": s["rank"]} for s in t["seats"]
                    ],
                }
                for t in r["tables"]
            ],
        }
        for r in rest_rounds
    ] == read["rounds"]
    assert [(s["playerId"], s["points"], s["buchholz"]) for s in read["standings"]] == [
        (s["player_id"], s["points"], s["buchholz"]) for s in tourney.standings()
    ]
    missing = gql(client, TOURNAMENT_QUERY, id="nope")["tournament"]
    assert missing == {"__typename": "Problem", "code": "tournament_not_found", "httpStatus": 404}


def test_the_games_of_a_tournament_that_is_not_rated_feed_no_rating_and_say_why(client: TestClient) -> None:
    tourney = Tourney([client])
    tourney.create(
        name="Friendly",
        game_type="duel",
        format="swiss",
        rounds=1,
        clock=CLOCK,
        rated=False,
        options={"rounds": 1},
    )
    tourney.register(["Ann", "Bob"])
    tourney.start()
    game_id = tourney.wait_for_round(1)["tables"][0]["game_id"]
    running = client.get(f"/v1/games/{game_id}", headers={"Accept-Language": "de"}).json()
    assert running["rated"] is False
    assert running["unrated_reasons"] == [
        {
            "code": "unrated_tournament",
            "text": "Die Partie ist eine Runde eines Turniers, das nicht gewertet wird.",
        }
    ]
    tourney.play_round(1, seed=1)
    eventually(lambda: tourney.tournament()["status"] == "finished", 60, "finished")
    over = client.get(f"/v1/games/{game_id}").json()
    assert over["status"] == "finished" and over["rated"] is False
    assert [r["code"] for r in over["unrated_reasons"]] == ["unrated_tournament"]
    for player_id in tourney.players:
        profile = client.get(f"/v1/players/{player_id}/profile").json()
        assert profile["ratings"] == [] and profile["history"] == []
        assert [r["rated"] for r in profile["recent_games"]] == [False]
    data = gql(
        client,
        "query($id: ID!) { game(id: $id) { ... on Game { rated unratedReasons { code } } } }",
        id=game_id,
    )
    assert data["game"] == {"rated": False, "unratedReasons": [{"code": "unrated_tournament"}]}


def test_a_create_with_an_idempotency_key_answers_its_retry_with_the_same_tournament(
    client: TestClient,
) -> None:
    body = {"name": "Once", "game_type": "duel", "format": "swiss", "clock": CLOCK, "private": True}
    key = {"Idempotency-Key": "c7f1e2a9-5b3d-4e8f-9a6c-0d2b4f6e8a1c"}
    first = client.post("/v1/tournaments", json=body, headers=key)
    again = client.post("/v1/tournaments", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and first.json()["invite_code"] is not None
    assert again.headers["Location"] == first.headers["Location"]
    assert_problem(
        client.post("/v1/tournaments", json=body | {"rounds": 3}, headers=key), 422, "idempotency_key_reused"
    )
    assert_problem(
        client.post("/v1/tournaments", json=body, headers={"Idempotency-Key": "a" * 20}),
        422,
        "invalid_idempotency_key",
    )
    other = client.post(
        "/v1/tournaments", json=body, headers={"Idempotency-Key": "f0e1d2c3-b4a5-4968-8776-655443322110"}
    )
    assert other.status_code == 201 and other.json()["tournament"]["id"] != first.json()["tournament"]["id"]
    # a game's create with the same key is a different thing: keys are per kind of create
    assert client.post("/v1/games", json={"type": "duel"}, headers=key).status_code == 201
