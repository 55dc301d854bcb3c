"""A replay of a game still in progress: only for its seats, each with its own token and as
itself, never showing another seat's secrets; and every replay lists the steps (``moves``) a
viewer steps through."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.client import choose, finished_duel, seated_game
from tests.support.graphql import gql
from tests.support.http import auth
from tests.support.problems import assert_problem


def replay(client: TestClient, game_id: str, token: str | None = None, **params: Any) -> Any:
    return client.get(f"/v1/games/{game_id}/replay", params=params, headers=auth(token) if token else {})


def test_a_seat_replays_its_game_so_far_as_itself_only(client: TestClient) -> None:
    game, (ann, ben) = seated_game(client)
    gid = game["id"]
    assert choose(client, gid, ann, {"card": 3}).status_code == 200
    assert choose(client, gid, ben, {"card": 1}).status_code == 200
    last_seq = client.get(f"/v1/games/{gid}/events").json()["last_seq"]

    mine = replay(client, gid, ann, at=last_seq)
    assert mine.status_code == 200, mine.text
    body = mine.json()
    assert body["seat"] == 0 and body["phase"] == "in_progress" and body["at"] == last_seq
    assert body["matches_final_state"] is None  # nothing has ended yet
    ann_view = client.get(f"/v1/games/{gid}", headers=auth(ann)).json()["state"]
    assert body["state"] == ann_view  # as Ann sees the game now, not a byte more
    assert "bonuses" not in body["state"]
    dealt = next(e for e in body["events"] if e["type"] == "bonus_dealt")
    ben_bonus = client.get(f"/v1/games/{gid}", headers=auth(ben)).json()["state"]["bonus"]
    assert dealt["data"].get("bonus") == ann_view["bonus"] != ben_bonus
    assert str(ben_bonus) not in str([e["data"] for e in body["events"]])
    assert replay(client, gid, ann, at=last_seq, seat=0).json() == body

    # Another seat's view, a spectator's, the host's: not before the game ends.
    assert_problem(replay(client, gid, ann, at=last_seq, seat=1), 403, "forbidden")
    assert_problem(replay(client, gid, at=last_seq, seat=1), 409, "game_not_finished")
    assert_problem(replay(client, gid, at=last_seq), 409, "game_not_finished")
    assert_problem(replay(client, gid, game["host_token"], at=last_seq), 403, "forbidden")
    assert_problem(replay(client, gid, "not-a-token-of-this-game", at=last_seq), 401, "unauthorized")
    assert_problem(replay(client, gid, ann, at=last_seq, seat=5), 404, "seat_not_found")

    # GraphQL answers the same, with the token of the request.
    query = (
        "query($g: ID!, $at: Int!, $s: Int) { replay(gameId: $g, at: $at, seat: $s) "
        "{ ... on Replay { seat moves state } ... on Problem { code } } }"
    )
    over_graphql = gql(client, query, ben, g=gid, at=last_seq)["replay"]
    assert over_graphql["seat"] == 1 and over_graphql["moves"] == body["moves"]
    assert over_graphql["state"]["bonus"] == ben_bonus
    assert gql(client, query, ben, g=gid, at=last_seq, s=0)["replay"] == {"code": "forbidden"}
    assert gql(client, query, g=gid, at=last_seq)["replay"] == {"code": "game_not_finished"}


def test_moves_are_the_steps_where_the_board_changes(client: TestClient) -> None:
    game, _ = finished_duel(client)
    gid = game["id"]
    last_seq = client.get(f"/v1/games/{gid}/events").json()["last_seq"]
    final = replay(client, gid, at=last_seq, seat=0).json()
    moves = final["moves"]
    assert moves == sorted(set(moves)) and moves[-1] == last_seq
    events = {e["seq"]: e["type"] for e in final["events"]}
    # The first step shows the set-up board: after the start and the set-up's own events.
    assert events[moves[0]] == "bonus_dealt" and events[moves[0] - 1] == "game_started"
    assert replay(client, gid, at=moves[0] - 1).json()["phase"] == "in_progress"
    assert replay(client, gid, at=0).json()["state"] is None
    states = [replay(client, gid, at=at, seat=0).json()["state"] for at in moves]
    assert states[-1] == final["state"] and states[0]["round"] == 1
    # Between two steps nothing changes on the board; at each step something does.
    for before, after, state in zip(moves, moves[1:], states[1:], strict=False):
        if after - 1 > before:
            assert replay(client, gid, at=after - 1, seat=0).json()["state"] == states[moves.index(before)]
        assert state != states[moves.index(before)]
