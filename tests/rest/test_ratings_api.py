"""Ratings over REST: what is rated, counted once per game, leaderboards and profiles."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.model.ratings import ESTABLISHED_GAMES, PAIR_LIMIT, START_MU
from tests.support.client import CLOCK, board, choose, play_one_round, play_until_finished, player
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_a_rated_game_moves_both_ratings_once_winner_up(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    game_id = play_one_round(client, [ann["token"], bob["token"]], [3, 1], clock=CLOCK)
    entries = board(client)["entries"]
    assert [(e["rank"], e["name"], e["games"], e["kind"]) for e in entries] == [
        (1, "Ann", 1, "player"),
        (2, "Bob", 1, "player"),
    ]
    assert entries[0]["mu"] > START_MU > entries[1]["mu"] and entries[0]["provisional"]
    assert entries[0]["finishing"] == {"finished": 1, "resigned": 0, "timed_out": 0, "rate": 1.0}
    profile = client.get(f"/v1/players/{ann['id']}/profile").json()
    assert [(h["game_id"], h["rank"]) for h in profile["history"]] == [(game_id, 1)]
    assert profile["history"][0]["rating"] > profile["history"][0]["rating_before"]
    (recent,) = profile["recent_games"]
    assert (recent["rank"], recent["outcome"], recent["rated"]) == (1, "finished", True)
    assert recent["replay"] == f"/v1/games/{game_id}/replay"
    assert profile["finishing"] == {"finished": 1, "resigned": 0, "timed_out": 0, "rate": 1.0}
    assert [r["games"] for r in profile["ratings"]] == [1]


def test_games_without_clock_host_seed_identities_or_with_one_player_twice_are_unrated(
    client: TestClient,
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    play_one_round(client, [ann["token"], bob["token"]], [3, 1])  # no clock
    play_one_round(client, [ann["token"], bob["token"]], [3, 1], clock=CLOCK, seed="mine")
    play_one_round(client, [ann["token"], None], [3, 1], clock=CLOCK)  # an anonymous seat
    play_one_round(client, [ann["token"], ann["token"]], [3, 1], clock=CLOCK)  # Ann twice
    assert board(client)["entries"] == []
    profile = client.get(f"/v1/players/{ann['id']}/profile").json()
    assert len(profile["recent_games"]) == 5  # Ann's two seats count as two results
    assert not any(r["rated"] for r in profile["recent_games"]) and profile["history"] == []


def test_a_pair_gains_nothing_past_the_daily_limit(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    for _ in range(PAIR_LIMIT + 1):
        play_one_round(client, [ann["token"], bob["token"]], [3, 1], clock=CLOCK)
    assert [e["games"] for e in board(client)["entries"]] == [PAIR_LIMIT, PAIR_LIMIT]
    recent = client.get(f"/v1/players/{bob['id']}/profile").json()["recent_games"]
    assert [r["rated"] for r in recent] == [False] + [True] * PAIR_LIMIT


def test_a_resigned_seat_ranks_last_and_counts_against_finishing(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    created = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}).json()
    seats = [
        client.post(f"/v1/games/{created['id']}/seats", json={}, headers=auth(p["token"])).json()["token"]
        for p in (ann, bob)
    ]
    client.post(f"/v1/games/{created['id']}/start", headers=auth(created["host_token"]))
    choose(client, created["id"], seats[0], {"card": 1})
    choose(client, created["id"], seats[1], {"card": 3})  # Bob plays, then resigns
    assert client.post(f"/v1/games/{created['id']}/resign", headers=auth(seats[1])).status_code == 200
    play_until_finished(client, created["id"], seats[0], pick=lambda _: {"action": "pass"})
    bob_profile = client.get(f"/v1/players/{bob['id']}/profile").json()
    assert bob_profile["recent_games"][0]["outcome"] == "resigned"
    assert bob_profile["recent_games"][0]["rank"] == 2
    assert bob_profile["finishing"]["rate"] == 0.0
    assert [e["name"] for e in board(client)["entries"]] == ["Ann", "Bob"]
    assert [e["finishing"]["rate"] for e in board(client)["entries"]] == [1.0, 0.0]  # shown beside


def test_leaderboard_pages_with_a_cursor_and_filters_by_games(client: TestClient) -> None:
    people = [player(client, name) for name in ("Ann", "Bob", "Cy", "Di")]
    play_one_round(client, [people[0]["token"], people[1]["token"]], [3, 1], clock=CLOCK)
    play_one_round(client, [people[2]["token"], people[3]["token"]], [3, 1], clock=CLOCK)
    play_one_round(client, [people[0]["token"], people[2]["token"]], [3, 1], clock=CLOCK)
    first = board(client, limit=3)
    second = board(client, limit=3, cursor=first["next_cursor"])
    assert [e["rank"] for e in first["entries"] + second["entries"]] == [1, 2, 3, 4]
    assert second["next_cursor"] is None
    assert first["entries"][0]["name"] == "Ann"
    assert {e["name"] for e in board(client, min_games=2)["entries"]} == {"Ann", "Cy"}
    assert_problem(client.get("/v1/leaderboards/nope"), 404, "unknown_game_type")
    assert_problem(client.get("/v1/leaderboards/duel", params={"cursor": "@@"}), 422, "invalid_request")
    assert_problem(client.get("/v1/players/nobody/profile"), 404, "player_not_found")


def test_throwaway_identities_that_resign_at_once_farm_no_rating(client: TestClient) -> None:
    """Issue 31 item 5's farm: a new identity per game, resigning before its first move; its
    opponent wins each game and would top the leaderboard. A seat that made no decision of its own
    means no game was played: unrated (``seat_did_not_play``), nobody on the leaderboard."""
    farmer = player(client, "Farmer")
    for n in range(4):
        throwaway = player(client, f"throwaway {n}")
        created = client.post(
            "/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}
        ).json()
        seats = [
            client.post(f"/v1/games/{created['id']}/seats", json={}, headers=auth(p["token"])).json()["token"]
            for p in (farmer, throwaway)
        ]
        client.post(f"/v1/games/{created['id']}/start", headers=auth(created["host_token"]))
        assert client.post(f"/v1/games/{created['id']}/resign", headers=auth(seats[1])).status_code == 200
        play_until_finished(client, created["id"], seats[0])
        view = client.get(f"/v1/games/{created['id']}").json()
        assert view["status"] == "finished" and view["rated"] is False
        assert [r["code"] for r in view["unrated_reasons"]] == ["seat_did_not_play"]
    assert board(client)["entries"] == []
    recent = client.get(f"/v1/players/{farmer['id']}/profile").json()["recent_games"]
    assert len(recent) == 4 and not any(r["rated"] for r in recent)


def against_greedy(client: TestClient, person: dict[str, Any]) -> None:
    """A rated one-round Duel of the person (seat 0) and the greedy bot, played to the end."""
    game = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}).json()
    token = client.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(person["token"])).json()[
        "token"
    ]
    client.post(f"/v1/games/{game['id']}/seats", json={"bot": "greedy"}, headers=auth(game["host_token"]))
    assert client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).status_code == 200
    play_until_finished(client, game["id"], token, pick=lambda choices: choices[-1])


def test_a_farmer_of_throwaways_that_move_once_never_passes_an_established_player(
    client: TestClient,
) -> None:
    """Issue 31 item 5's farm once the throwaways make one move each: the games are rated, but
    a newcomer who only beat newcomers ranks below everyone established (here a player who played
    the greedy bot ESTABLISHED_GAMES times, losing or not), and an established player's rating
    does not move from beating newcomers."""
    regular = player(client, "Regular")
    for _ in range(ESTABLISHED_GAMES):
        against_greedy(client, regular)
    farmer = player(client, "Farmer")
    for n in range(8):
        throwaway = player(client, f"throwaway {n}")
        play_one_round(client, [farmer["token"], throwaway["token"]], [3, 1], clock=CLOCK)
    entries = board(client)["entries"]
    lines = {e["subject"]: e for e in entries}
    assert lines[farmer["id"]]["games"] == 8 and lines[farmer["id"]]["established"] is False
    assert lines[regular["id"]]["established"] is True and lines["bot:greedy"]["established"] is True
    assert entries[0]["subject"] != farmer["id"]
    assert lines[farmer["id"]]["rank"] > max(e["rank"] for e in entries if e["established"])
    assert lines[farmer["id"]]["rating"] > lines[regular["id"]]["rating"], "ranked by tier, not rating"
    # The established player beating newcomers: the newcomers move, the established rating does not.
    before = lines[regular["id"]]
    newcomer = player(client, "Newcomer")
    play_one_round(client, [regular["token"], newcomer["token"]], [3, 1], clock=CLOCK)
    after = {e["subject"]: e for e in board(client)["entries"]}
    assert [after[regular["id"]][k] for k in ("mu", "sigma", "games")] == [
        before[k] for k in ("mu", "sigma", "games")
    ]
    assert after[newcomer["id"]]["games"] == 1 and after[newcomer["id"]]["mu"] < START_MU
    # Pages follow the tiers: every line once, established first.
    seen, cursor = [], None
    while True:
        page = board(client, limit=2, **({"cursor": cursor} if cursor else {}))
        seen += page["entries"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [e["subject"] for e in seen] == [e["subject"] for e in board(client)["entries"]]
    assert [e["established"] for e in seen] == sorted((e["established"] for e in seen), reverse=True)


def test_a_newcomer_is_established_after_games_against_established_opponents(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    for _ in range(PAIR_LIMIT):
        play_one_round(client, [ann["token"], bob["token"]], [3, 1], clock=CLOCK)
    assert not any(e["established"] for e in board(client)["entries"])  # newcomers among themselves
    for n in range(ESTABLISHED_GAMES):
        against_greedy(client, ann)
        lines = {e["subject"]: e for e in board(client)["entries"]}
        assert lines[ann["id"]]["established"] is (n + 1 == ESTABLISHED_GAMES)
    assert board(client)["entries"][0]["established"] and not board(client)["entries"][-1]["established"]
