"""The OpenAPI document a client generator reads (issue 12, section 5): the bearer security scheme
instead of an ``authorization`` parameter, the problem codes each operation can really answer,
an example for every request body and response (each valid against its schema), and
``info.version`` equal to the package version."""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from tests.support.client import new_game, seated_game
from tests.support.http import auth

HEALTH = ("healthz", "readyz", "metrics")


def operations(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {op["operationId"]: op for path in document["paths"].values() for op in path.values()}


def documented_codes(operation: dict[str, Any]) -> dict[str, int]:
    codes: dict[str, int] = {}
    for status, response in operation["responses"].items():
        if status[:1] in "45" and status != "503":
            for code in response["content"]["application/problem+json"]["examples"]:
                codes[code] = int(status)
    return codes


def test_info_version_is_the_package_version(document: dict[str, Any]) -> None:
    assert document["info"]["version"] == version("tabletop")


def test_tokens_are_a_bearer_security_scheme_not_a_parameter(document: dict[str, Any]) -> None:
    assert document["components"]["securitySchemes"]["bearer"]["type"] == "http"
    assert document["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    ops = operations(document)
    for operation_id, operation in ops.items():
        names = {p["name"].lower() for p in operation.get("parameters", ())}
        assert "authorization" not in names, operation_id
    assert ops["submitChoice"]["security"] == [{"bearer": []}]
    assert ops["getGame"]["security"] == [{"bearer": []}, {}]  # a spectator sends no token
    assert ops["createGame"]["security"] == [{"bearer": []}, {}]  # a player token lists it
    assert "security" not in ops["listGameTypes"]


def test_the_authorization_header_behaves_as_before(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}"
    assert client.get(url).json()["viewer"] == {"seat": None, "host": False}
    assert client.get(url, headers=auth(tokens[1])).json()["viewer"]["seat"] == 1
    assert client.get(url, headers={"Authorization": f"bearer  {tokens[0]} "}).json()["viewer"]["seat"] == 0
    for header in ("Basic dXNlcjpwYXNz", "Bearer", "Bearer nope"):
        refused = client.get(url, headers={"Authorization": header})
        assert refused.status_code == 401 and refused.json()["code"] == "unauthorized", header


def test_every_operation_documents_the_edge_problems(document: dict[str, Any]) -> None:
    for operation_id, operation in operations(document).items():
        codes = documented_codes(operation)
        if operation_id in HEALTH:
            assert codes == {}, operation_id
            continue
        assert codes["rate_limited"] == 429 and codes["internal_error"] == 500, operation_id
        has_body = "requestBody" in operation
        assert ("payload_too_large" in codes) == has_body, operation_id
        assert ("malformed_json" in codes) == has_body, operation_id
        secured = "security" in operation
        assert ("unauthorized" in codes) == secured, operation_id


def test_each_problem_response_lists_its_codes_with_an_example(document: dict[str, Any]) -> None:
    for operation_id, operation in operations(document).items():
        for status, response in operation["responses"].items():
            if status[:1] not in "45" or status == "503":
                continue
            content = response["content"]["application/problem+json"]
            assert content["schema"] == {"$ref": "#/components/schemas/Problem"}
            for code, example in content["examples"].items():
                assert example["value"]["code"] == code and example["value"]["status"] == int(status)
                assert f"`{code}`" in response["description"], (operation_id, code)


def test_operations_document_only_problems_they_can_meet(document: dict[str, Any]) -> None:
    ops = operations(document)
    assert set(documented_codes(ops["listGameTypes"])) == {"rate_limited", "internal_error"}
    assert set(documented_codes(ops["getGameType"])) == {
        "unknown_game_type",
        "rate_limited",
        "internal_error",
    }
    assert "version_conflict" not in documented_codes(ops["startGame"])
    assert "invalid_request" not in documented_codes(ops["getGame"])  # no parameter can be refused
    assert "game_over" not in documented_codes(ops["createGame"])


def _failures(client: TestClient) -> list[tuple[str, Any]]:
    """Real failing requests, each with the operation it called."""
    game, tokens = seated_game(client)
    gid = game["id"]
    lobby = new_game(client)
    player = client.post("/v1/players", json={"name": "Ann"}).json()
    pending = client.get(f"/v1/games/{gid}/choices", headers=auth(tokens[0])).json()
    submit = f"/v1/games/{gid}/choices"
    return [
        ("getGameType", client.get("/v1/game-types/nope")),
        ("createGame", client.post("/v1/games", json={"type": "nope"})),
        ("createGame", client.post("/v1/games", json={"type": "duel", "options": {"rounds": 9}})),
        ("createGame", client.post("/v1/games", content=b"{", headers={"content-type": "application/json"})),
        ("createGame", client.post("/v1/games", json={"type": "duel", "colour": "red"})),
        ("createGame", client.post("/v1/games", json={"type": "duel", "seed_mode": "host"})),
        ("getGame", client.get("/v1/games/nope")),
        ("getGame", client.get(f"/v1/games/{gid}", headers=auth("not-a-token"))),
        ("joinGame", client.post(f"/v1/games/{gid}/seats", json={"name": "Late"})),
        ("joinGame", client.post(f"/v1/games/{lobby['id']}/seats", json={"bot": "random"})),
        ("joinGame", client.post(f"/v1/games/{lobby['id']}/seats", json={"name": "\u202eevil"})),
        ("startGame", client.post(f"/v1/games/{lobby['id']}/start", headers=auth(lobby["host_token"]))),
        ("startGame", client.post(f"/v1/games/{gid}/start", headers=auth(tokens[0]))),
        ("abortGame", client.post(f"/v1/games/{gid}/abort")),
        ("removeSeat", client.delete(f"/v1/games/{lobby['id']}/seats/5", headers=auth(lobby["host_token"]))),
        ("submitChoice", client.post(submit, json={"choice": {"card": 99}}, headers=auth(tokens[0]))),
        (
            "submitChoice",
            client.post(
                submit, json={"choice": pending["choices"][0], "version": 0}, headers=auth(tokens[0])
            ),
        ),
        (
            "submitChoice",
            client.post(submit, json={"choice": pending["choices"][0]}, headers=auth(game["host_token"])),
        ),
        ("listEvents", client.get(f"/v1/games/{gid}/events", params={"after": -1})),
        ("replayGame", client.get(f"/v1/games/{gid}/replay", params={"at": 1})),
        ("rematchGame", client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0]))),
        ("resignSeat", client.post(f"/v1/games/{lobby['id']}/resign", headers=auth(lobby["host_token"]))),
        ("createPlayer", client.post("/v1/players", json={"name": "\u202eevil"})),
        ("listMyGames", client.get("/v1/players/me/games")),
        ("enableWebhook", client.post("/v1/webhooks/nope/enable", headers=auth(player["token"]))),
        (
            "createWebhook",
            client.post(
                "/v1/webhooks",
                json={"url": "http://127.0.0.1/", "filters": ["all"]},
                headers=auth(player["token"]),
            ),
        ),
    ]


def test_every_problem_met_in_practice_is_documented(client: TestClient, document: dict[str, Any]) -> None:
    ops = operations(document)
    met = set()
    for operation_id, answer in _failures(client):
        assert answer.status_code >= 400, (operation_id, answer.text)
        code = answer.json()["code"]
        met.add(code)
        assert documented_codes(ops[operation_id]).get(code) == answer.status_code, (operation_id, code)
    assert len(met) >= 15


def _validator(document: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator({**schema, "components": document["components"]})


def test_every_request_body_and_response_has_a_valid_example(document: dict[str, Any]) -> None:
    checked = 0
    for operation_id, operation in operations(document).items():
        bodies = [("request", operation["requestBody"])] if "requestBody" in operation else []
        responses = operation["responses"].items()
        bodies += [(s, r) for s, r in responses if s.startswith("2") and r.get("content")]
        for where, body in bodies:
            for media_type, entry in body["content"].items():
                assert "example" in entry, (operation_id, where, media_type)
                if media_type == "application/json":
                    errors = list(_validator(document, entry["schema"]).iter_errors(entry["example"]))
                    assert not errors, (operation_id, where, errors[0].message)
                checked += 1
    assert checked >= 30


def test_component_examples_are_valid(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    with_examples = {name: s for name, s in schemas.items() if "examples" in s}
    assert {"GamePublic", "GameCreate", "ChoicesPublic", "WebhookCreated"} <= set(with_examples)
    for name, schema in with_examples.items():
        ref = {"$ref": f"#/components/schemas/{name}"}
        for example in schema["examples"]:
            errors = list(_validator(document, ref).iter_errors(example))
            assert not errors, (name, errors[0].message)
