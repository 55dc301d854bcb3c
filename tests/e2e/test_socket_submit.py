"""``submitChoice`` over a real server's graphql-transport-ws socket (issue 28 item 2): the
pre-resolved path (``api.graphql.socket_submit``) answers a script of submits exactly as GraphQL over
HTTP answers the same script in a twin game (same seed), problems, languages, version guards and
idempotency keys included; documents it does not read go to Strawberry and still answer as HTTP
does; a seat follows its game and moves over one socket; the idempotency key is one across doors."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from typing import Any

import httpx
import pytest
import websockets

from tests.support.http import auth
from tests.support.live import GraphQLSocket, graphql_socket
from tests.support.play import start_game

pytestmark = pytest.mark.timeout(300)

SEED = "socket-twins"
SUBMIT = """
mutation Move($g: ID!, $c: JSON!, $v: Int, $dv: Int, $k: String, $lang: String) {
  submitChoice(gameId: $g, choice: $c, version: $v, decisionVersion: $dv, idempotencyKey: $k, lang: $lang) {
    __typename
    ... on SubmitResult { ...Answer }
    ... on Problem { code httpStatus detail }
  }
}
fragment Answer on SubmitResult {
  gameType status version decisionVersion
  events { seq type data gameType }
  next { gameType version decisionVersion choices decision { kind prompt seats } }
}
query Other { gameTypes { slug } }
"""
"""Two operations, so the client names one (``Move``), with a fragment and every argument read."""

Step = tuple[int | None, dict[str, Any]]
"""Which seat submits (None: no token), and the variables besides the game id."""

SCRIPT: list[Step] = [
    (0, {"c": {"card": 9}}),  # illegal_choice
    (0, {"c": {"card": 3}, "lang": "de"}),  # sealed
    (0, {"c": {"card": 3}, "v": 1, "lang": "de"}),  # stale version
    (0, {"c": {"card": 3}, "k": "k-1"}),  # replaces the sealed choice
    (0, {"c": {"card": 3}, "k": "k-1"}),  # replayed
    (0, {"c": {"card": 2}, "k": "k-1"}),  # the key reused for another choice
    (1, {"c": {"card": 1}, "dv": 999}),  # version_conflict
    (1, {"c": {"card": 1}, "k": "has space"}),  # a malformed key: invalid_request
    (None, {"c": {"card": 1}}),  # no seat token
    (1, {"c": {"card": 1}, "lang": "fr"}),  # the reveal, with what comes next in French
    (0, {"c": {"action": "bank"}, "lang": "es"}),  # ends the game
    (1, {"c": {"card": 2}}),  # game_over
    (0, {"c": {"card": 1}, "v": "1"}),  # a variable that does not coerce: Strawberry answers
]
SERVED_BY_STRAWBERRY = 1
SALT = re.compile(r'"seed_salt": ?"[0-9a-f]+"')


def _normal(answer: Any, game_id: str) -> str:
    return SALT.sub('"seed_salt": "SALT"', json.dumps(answer, sort_keys=True).replace(game_id, "GAME"))


def _over_http(base: str, game_id: str, tokens: Sequence[str], script: list[Step]) -> list[str]:
    answers = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for seat, variables in script:
            headers = auth(tokens[seat]) if seat is not None else {}
            body = {"query": SUBMIT, "operationName": "Move", "variables": {"g": game_id, **variables}}
            answer = http.post("/graphql", json=body, headers=headers)
            payload = answer.json()
            assert set(payload) <= {"data", "errors"}, payload
            answers.append(_normal(payload, game_id))
    return answers


async def _over_sockets(base: str, game_id: str, tokens: Sequence[str], script: list[Step]) -> list[str]:
    answers = []
    async with (
        graphql_socket(base, tokens[0]) as first,
        graphql_socket(base, tokens[1]) as second,
        graphql_socket(base) as anonymous,
    ):
        sockets = {0: first, 1: second, None: anonymous}
        for number, (seat, variables) in enumerate(script):
            socket = sockets[seat]
            op = f"move-{number}"
            await socket.connection.send(
                json.dumps(
                    {
                        "id": op,
                        "type": "subscribe",
                        "payload": {
                            "query": SUBMIT,
                            "operationName": "Move",
                            "variables": {"g": game_id, **variables},
                        },
                    }
                )
            )
            answer = await socket.receive()
            assert answer["id"] == op and answer["type"] == "next", answer
            assert await socket.receive() == {"id": op, "type": "complete"}
            answers.append(_normal(answer["payload"], game_id))
    return answers


def _socket_submits(base: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=10).text
    found = re.search(r"^tabletop_socket_submits_total (\S+)$", text, re.MULTILINE)
    assert found is not None, "the metric is missing"
    return float(found.group(1))


def test_the_socket_answers_a_script_as_graphql_over_http_does(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        over_http, http_tokens = start_game(http, "duel", 2, {"rounds": 1}, SEED)
        over_socket, socket_tokens = start_game(http, "duel", 2, {"rounds": 1}, SEED)
    expected = _over_http(server, over_http["id"], http_tokens, SCRIPT)
    before = _socket_submits(server)
    got = asyncio.run(_over_sockets(server, over_socket["id"], socket_tokens, SCRIPT))
    assert got == expected
    problems = [json.loads(a)["data"]["submitChoice"]["code"] for a in got[:-1] if '"Problem"' in a]
    assert set(problems) == {
        "illegal_choice",
        "version_conflict",
        "idempotency_key_reused",
        "invalid_request",
        "unauthorized",
        "game_over",
    }
    statuses = [json.loads(a)["data"]["submitChoice"].get("status") for a in got[:-1]]
    assert "sealed" in statuses and "applied" in statuses
    assert json.loads(got[-1])["errors"][0]["extensions"]["code"] == "graphql_validation_failed"
    # Every readable submit took the pre-resolved path; the last one went to Strawberry.
    assert _socket_submits(server) - before == len(SCRIPT) - SERVED_BY_STRAWBERRY


FOLLOW = """subscription Follow($g: ID!) {
  gameEvents(gameId: $g) { seq type next { decisionVersion choices } }
}"""
MOVE = """mutation($g: ID!, $c: JSON!, $dv: Int, $k: String) {
  submitChoice(gameId: $g, choice: $c, decisionVersion: $dv, idempotencyKey: $k) {
    ... on SubmitResult { status version next { version choices } }
    ... on Problem { code }
  }
}"""


async def _play_over_own_sockets(base: str, game_id: str, tokens: Sequence[str]) -> dict[int, list[Any]]:
    """Each seat follows the game and answers each decision it is offered (once) over the same
    socket, until ``game_over``; what each socket received, in order."""
    seen: dict[int, list[Any]] = {}

    async def seat(number: int) -> None:
        received: list[Any] = seen.setdefault(number, [])
        async with graphql_socket(base, tokens[number]) as socket:
            follow = await socket.subscribe(FOLLOW, {"g": game_id})
            moves, answered = 0, set()
            while True:
                message = await socket.receive(timeout=30)
                received.append(message)
                if message["id"] != follow:
                    continue
                event = message["payload"]["data"]["gameEvents"]
                if event["type"] == "game_over":
                    return
                offer = event["next"]
                if offer is not None and offer["choices"] and offer["decisionVersion"] not in answered:
                    answered.add(offer["decisionVersion"])  # later events may repeat the offer
                    moves += 1
                    await _move(socket, game_id, offer, f"m{number}-{moves}")

    await asyncio.gather(seat(0), seat(1))
    return seen


async def _move(socket: GraphQLSocket, game_id: str, offer: dict[str, Any], key: str) -> None:
    variables = {"g": game_id, "c": offer["choices"][0], "dv": offer["decisionVersion"], "k": key}
    await socket.connection.send(
        json.dumps({"id": key, "type": "subscribe", "payload": {"query": MOVE, "variables": variables}})
    )


def test_a_game_is_followed_and_played_over_one_socket_per_seat(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game, tokens = start_game(http, "duel", 2, {"rounds": 2})
        seen = asyncio.run(_play_over_own_sockets(server, game["id"], tokens))
        final = http.get(f"/v1/games/{game['id']}").json()
        url = f"/v1/games/{game['id']}/events"
        histories = [http.get(url, headers=auth(token)).json()["events"] for token in tokens]
    assert final["status"] == "finished"
    for number, messages in seen.items():
        answers = [m for m in messages if m["id"].startswith("m")]
        nexts = [m for m in answers if m["type"] == "next"]
        assert nexts and len(answers) == 2 * len(nexts)  # each move: one next, then its complete
        statuses = {m["payload"]["data"]["submitChoice"].get("status") for m in nexts}
        assert statuses <= {"sealed", "applied"}, nexts
        followed = [m["payload"]["data"]["gameEvents"] for m in messages if not m["id"].startswith("m")]
        # Every event once and in order, moves and their answers interleaved on the same socket.
        assert [e["seq"] for e in followed] == [e["seq"] for e in histories[number]]
        assert followed[-1]["type"] == "game_over"


def test_a_key_answered_over_the_socket_is_replayed_over_http(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game, tokens = start_game(http, "duel", 2, {"rounds": 1})
        variables = {"g": game["id"], "c": {"card": 2}, "k": "across-doors"}

        async def submit() -> Any:
            async with graphql_socket(server, tokens[0]) as socket:
                op = await socket.subscribe(MOVE, variables)
                answer = await socket.receive()
                assert answer["id"] == op and answer["type"] == "next", answer
                return answer["payload"]

        over_socket = asyncio.run(submit())
        body = {"query": MOVE, "variables": variables}
        replayed = http.post("/graphql", json=body, headers=auth(tokens[0]))
        again = http.post(
            "/graphql",
            json={"query": MOVE, "variables": {**variables, "c": {"card": 1}}},
            headers=auth(tokens[0]),
        )
    assert over_socket["data"]["submitChoice"]["status"] == "sealed"
    assert replayed.json() == over_socket
    assert again.json()["data"]["submitChoice"]["code"] == "idempotency_key_reused"


TYPED = """mutation Typed($g: ID!, $c: GameChoice, $u: JSON, $dv: Int) {
  submitChoice(gameId: $g, gameChoice: $c, choice: $u, decisionVersion: $dv) {
    __typename
    ... on SubmitResult { status version events { seq type gameType } next { decisionVersion choices } }
    ... on Problem { code httpStatus detail }
  }
}"""
GAME = "im-schutze-der-burg"


def _deciding(http: httpx.Client, game_id: str, tokens: Sequence[str]) -> tuple[int, dict[str, Any]]:
    for seat, token in enumerate(tokens):
        pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
        if pending.get("choices"):
            return seat, pending
    raise AssertionError("no seat has a decision")


def test_a_typed_choice_and_the_language_of_connection_init(server: str) -> None:
    """``gameChoice`` is read by the pre-resolved path too; ``connection_init``'s
    ``accept-language`` is the socket's Accept-Language (a browser cannot set the header)."""
    answers: dict[str, list[str]] = {}
    with httpx.Client(base_url=server, timeout=30) as http:
        for door in ("http", "socket"):
            game, tokens = start_game(http, GAME, 2, seed=SEED)
            seat, pending = _deciding(http, game["id"], tokens)
            both = {"g": game["id"], "c": {"imSchutzeDerBurg": pending["choices"][0]}, "u": {"x": 1}}
            typed = {"g": game["id"], "c": {"imSchutzeDerBurg": pending["choices"][0]}}
            typed["dv"] = pending["decision_version"]
            script = [both, typed]
            if door == "http":
                headers = {**auth(tokens[seat]), "Accept-Language": "de"}
                replies = [
                    http.post("/graphql", json={"query": TYPED, "variables": v}, headers=headers).json()
                    for v in script
                ]
            else:
                before = _socket_submits(server)
                replies = asyncio.run(_typed_over_socket(server, tokens[seat], script))
                assert _socket_submits(server) - before == len(script)  # both pre-resolved
            answers[door] = [_normal(reply, game["id"]) for reply in replies]
        english = asyncio.run(_typed_over_socket(server, tokens[seat], [script[0]], language=None))
    assert answers["socket"] == answers["http"]
    refused, done = (json.loads(a)["data"]["submitChoice"] for a in answers["socket"])
    assert refused["code"] == "invalid_request" and done["status"] in ("sealed", "applied")
    assert english[0]["data"]["submitChoice"]["detail"] != refused["detail"]  # German, not English


async def _typed_over_socket(
    base: str, token: str, script: list[dict[str, Any]], language: str | None = "de"
) -> list[Any]:
    url = base.replace("http://", "ws://") + "/graphql"
    replies = []
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"]) as connection:  # type: ignore[list-item]
        params = {"authorization": f"Bearer {token}"}
        if language is not None:
            params["Accept-Language"] = language
        await connection.send(json.dumps({"type": "connection_init", "payload": params}))
        socket = GraphQLSocket(connection)
        assert (await socket.receive())["type"] == "connection_ack"
        for variables in script:
            op = await socket.subscribe(TYPED, variables)
            reply = await socket.receive()
            assert reply["id"] == op and reply["type"] == "next", reply
            assert (await socket.receive())["type"] == "complete"
            replies.append(reply["payload"])
    return replies
