"""The REST contract: the happy path and every error case, each with its status and ``code``,
and a check that a failed request changed nothing."""

from __future__ import annotations

import hashlib

from fastapi.testclient import TestClient

from tests.support.client import new_game, play_until_finished, reached, seated_game, stored
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_catalog_lists_types_with_player_counts_and_options(client: TestClient) -> None:
    types = {t["slug"]: t for t in client.get("/v1/game-types").json()}
    duel = types["duel"]
    assert (duel["min_players"], duel["max_players"]) == (2, 3)
    rounds = next(o for o in duel["options"] if o["name"] == "rounds")
    assert rounds == {
        "name": "rounds",
        "label": "rounds",  # a game without translations is labelled by its option names
        "type": "int",
        "default": 2,
        "allowed": [1, 2, 3],
        "allowed_labels": ["1", "2", "3"],
        "description": "Rounds to play.",
        "verified": True,
    }


def test_whole_game_over_rest(client: TestClient) -> None:
    game, tokens = seated_game(client, seed="s3cret", options={"rounds": 1})
    assert game["seed_commitment"] != hashlib.sha256(b"s3cret").hexdigest()  # salted
    assert game["seed_mode"] == "host"
    pending = client.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[0])).json()
    assert pending["decision"]["kind"] == "play_card" and pending["decision"]["simultaneous"]
    assert pending["choices"] == [{"card": 1}, {"card": 2}, {"card": 3}]
    sealed = client.post(
        f"/v1/games/{game['id']}/choices",
        json={"choice": pending["choices"][2], "version": pending["version"]},
        headers=auth(tokens[0]),
    ).json()
    assert sealed["status"] == "sealed" and sealed["version"] == pending["version"] + 1
    spectator = stored(client, game["id"])
    assert spectator["decision"]["sealed"] == [0]
    assert spectator["seed"] is None and "hand" not in spectator["state"]
    applied = client.post(
        f"/v1/games/{game['id']}/choices", json={"choice": {"card": 1}}, headers=auth(tokens[1])
    ).json()
    assert applied["status"] == "applied"
    reveal = next(e for e in applied["events"] if e["type"] == "reveal")
    assert reveal["data"]["choices"] == {"0": {"card": 3}, "1": {"card": 1}}
    done = client.post(
        f"/v1/games/{game['id']}/choices", json={"choice": {"action": "pass"}}, headers=auth(tokens[0])
    )
    assert done.status_code == 200, done.text
    final = stored(client, game["id"])
    assert final["status"] == "finished" and final["seed"] == "s3cret"
    salted = f"{final['seed_salt']}:s3cret".encode()
    assert hashlib.sha256(salted).hexdigest() == game["seed_commitment"] == final["seed_commitment"]
    assert final["result"]["winners"] and len(final["result"]["scores"]) == 2
    history = client.get(f"/v1/games/{game['id']}/events", params={"after": 0}).json()
    seqs = [e["seq"] for e in history["events"]]
    assert seqs == list(range(1, len(seqs) + 1)) and history["last_seq"] == seqs[-1]
    later = client.get(f"/v1/games/{game['id']}/events", params={"after": seqs[-3]}).json()
    assert [e["seq"] for e in later["events"]] == seqs[-2:]


def test_seat_sees_own_secret_spectator_does_not(client: TestClient) -> None:
    game, tokens = seated_game(client)
    mine = client.get(f"/v1/games/{game['id']}", headers=auth(tokens[0])).json()
    assert mine["viewer"]["seat"] == 0 and "bonus" in mine["state"]
    spectator = stored(client, game["id"])
    assert "bonus" not in spectator["state"]
    events = client.get(f"/v1/games/{game['id']}/events").json()["events"]
    dealt = next(e for e in events if e["type"] == "bonus_dealt")
    assert "bonus" not in dealt["data"]


def test_unknown_type_and_option_values_are_422(client: TestClient) -> None:
    assert_problem(client.post("/v1/games", json={"type": "chess"}), 422, "unknown_game_type")
    bad = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 9}})
    assert_problem(bad, 422, "invalid_options")
    bad = client.post("/v1/games", json={"type": "duel", "options": {"colour": "red"}})
    assert_problem(bad, 422, "invalid_options")


def test_game_not_found_is_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/games/nope"), 404, "game_not_found")
    assert_problem(client.post("/v1/games/nope/seats", json={"name": "a"}), 404, "game_not_found")


def test_malformed_json_and_bad_bodies(client: TestClient) -> None:
    malformed = client.post("/v1/games", content=b'{"type": ', headers={"content-type": "application/json"})
    assert_problem(malformed, 400, "malformed_json")
    assert_problem(client.post("/v1/games", json={"nope": 1}), 422, "invalid_request")
    game = new_game(client)
    assert_problem(client.post(f"/v1/games/{game['id']}/seats", json={}), 422, "invalid_request")


def test_oversized_body_is_413(client: TestClient) -> None:
    response = client.post("/v1/games", json={"type": "duel", "seed": "x" * 100_000})
    assert_problem(response, 413, "payload_too_large")
    assert client.get("/healthz").status_code == 200


def test_full_game_and_too_few_seats_are_409(client: TestClient) -> None:
    game = new_game(client)
    host = auth(game["host_token"])
    client.post(f"/v1/games/{game['id']}/seats", json={"name": "a"})
    assert_problem(client.post(f"/v1/games/{game['id']}/start", headers=host), 409, "not_enough_players")
    for name in "bc":
        client.post(f"/v1/games/{game['id']}/seats", json={"name": name})
    before = stored(client, game["id"])
    full = client.post(f"/v1/games/{game['id']}/seats", json={"name": "d"})
    assert_problem(full, 409, "game_full")
    assert stored(client, game["id"]) == before


def test_tokens_bad_missing_and_wrong_role(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}/choices"
    before = stored(client, game["id"])
    assert_problem(client.post(url, json={"choice": {"card": 1}}), 401, "unauthorized")
    assert_problem(
        client.post(url, json={"choice": {"card": 1}}, headers=auth("forged")), 401, "unauthorized"
    )
    malformed = client.post(url, json={"choice": {"card": 1}}, headers={"Authorization": "Basic abc"})
    assert_problem(malformed, 401, "unauthorized")
    host = client.post(url, json={"choice": {"card": 1}}, headers=auth(game["host_token"]))
    assert_problem(host, 403, "forbidden")
    seat = client.post(f"/v1/games/{game['id']}/abort", headers=auth(tokens[0]))
    assert_problem(seat, 403, "forbidden")
    assert stored(client, game["id"]) == before


def test_illegal_choice_says_why_and_changes_nothing(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}/choices"
    before = stored(client, game["id"])
    body = assert_problem(
        client.post(url, json={"choice": {"card": 7}}, headers=auth(tokens[0])), 422, "illegal_choice"
    )
    assert "legal choices" in body["detail"]
    assert stored(client, game["id"]) == before


def test_stale_version_is_409_and_changes_nothing(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}/choices"
    before = stored(client, game["id"])
    stale = client.post(url, json={"choice": {"card": 1}, "version": 0}, headers=auth(tokens[0]))
    assert_problem(stale, 409, "version_conflict")
    assert stored(client, game["id"]) == before


def test_not_your_decision_and_game_over(client: TestClient) -> None:
    game, tokens = seated_game(client, options={"rounds": 1})
    url = f"/v1/games/{game['id']}/choices"
    client.post(url, json={"choice": {"card": 1}}, headers=auth(tokens[0]))
    client.post(url, json={"choice": {"card": 2}}, headers=auth(tokens[1]))
    before = stored(client, game["id"])
    not_yours = client.post(url, json={"choice": {"action": "bank"}}, headers=auth(tokens[1]))
    assert_problem(not_yours, 409, "not_your_decision")
    assert stored(client, game["id"]) == before
    client.post(url, json={"choice": {"action": "bank"}}, headers=auth(tokens[0]))
    over = client.post(url, json={"choice": {"action": "bank"}}, headers=auth(tokens[0]))
    assert_problem(over, 409, "game_over")


def test_submit_before_start_and_join_after_start(client: TestClient) -> None:
    game = new_game(client)
    token = client.post(f"/v1/games/{game['id']}/seats", json={"name": "a"}).json()["token"]
    client.post(f"/v1/games/{game['id']}/seats", json={"name": "b"})
    early = client.post(f"/v1/games/{game['id']}/choices", json={"choice": {"card": 1}}, headers=auth(token))
    assert_problem(early, 409, "game_not_in_progress")
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    late = client.post(f"/v1/games/{game['id']}/seats", json={"name": "c"})
    assert_problem(late, 409, "game_not_in_lobby")


def test_idempotency_key_returns_the_original_result(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}/choices"
    headers = {**auth(tokens[0]), "Idempotency-Key": "retry-1"}
    first = client.post(url, json={"choice": {"card": 2}}, headers=headers)
    again = client.post(url, json={"choice": {"card": 2}}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert stored(client, game["id"])["version"] == first.json()["version"]


def test_list_games_filters_by_status_and_type(client: TestClient) -> None:
    lobby = new_game(client, listed=True)
    started, _ = seated_game(client)
    in_progress = client.get("/v1/games", params={"status": "in_progress"}).json()["items"]
    assert [g["id"] for g in in_progress] == [started["id"]]
    ids = [g["id"] for g in client.get("/v1/games", params={"type": "duel"}).json()["items"]]
    assert set(ids) == {lobby["id"], started["id"]}
    assert_problem(client.get("/v1/games", params={"status": "weird"}), 422, "invalid_request")
    assert_problem(client.get("/v1/games", params={"type": "chess"}), 422, "unknown_game_type")


def test_responses_carry_a_request_id(client: TestClient) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert response.headers["x-request-id"] == "abc-123"
    assert client.get("/healthz").headers["x-request-id"]


def test_bot_seats_play_by_themselves_and_wait_only_for_the_human(client: TestClient) -> None:
    game = new_game(client, options={"rounds": 3})
    human = client.post(f"/v1/games/{game['id']}/seats", json={"name": "ann"}).json()["token"]
    bot = client.post(
        f"/v1/games/{game['id']}/seats", json={"bot": "random"}, headers=auth(game["host_token"])
    )
    assert bot.status_code == 201 and bot.json()["token"] is None
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    play_until_finished(client, game["id"], human)
    final = stored(client, game["id"])
    assert final["status"] == "finished"
    assert final["seats"][1] == {
        "seat": 1,
        "name": "random bot",
        "bot": "random",
        "stand_in": None,
        "confirmed": True,
        "connected": False,  # a bot never subscribes; presence shows nothing more than this
    }


def test_all_bot_game_runs_to_the_end_on_its_own(client: TestClient) -> None:
    game = new_game(client, options={"rounds": 3})
    for level in ("random", "greedy", "random"):
        client.post(f"/v1/games/{game['id']}/seats", json={"bot": level}, headers=auth(game["host_token"]))
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    assert reached(client, game["id"], "finished")["status"] == "finished"


def test_unknown_bot_level_is_422(client: TestClient) -> None:
    game = new_game(client)
    response = client.post(
        f"/v1/games/{game['id']}/seats", json={"bot": "genius"}, headers=auth(game["host_token"])
    )
    assert_problem(response, 422, "unknown_bot_level")
