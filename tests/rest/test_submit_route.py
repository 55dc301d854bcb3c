"""``submitChoice`` served by the pre-resolved handler (``api.rest.fast_submit``) answers exactly as
FastAPI's route does: the same statuses, bytes and headers for the same requests, errors included,
and answers that validate against the operation the OpenAPI document still declares."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.entrypoints.export import openapi_document
from api.rest.fast_submit import OPERATION_ID, PreResolvedSubmit
from tests.support.client import app_with_test_game, make_settings, seated_game
from tests.support.contract import StrictChecker
from tests.support.http import auth
from tests.support.play import start_game

SEED = "same-seed"
VOLATILE = ("x-request-id", "ratelimit", "retry-after")
"""Headers that differ between two servers by nature (a fresh id, the limiter's clock)."""
SALT = re.compile(rb'"seed_salt":"[0-9a-f]+"')
"""The random salt a game reveals at its end."""

Request = tuple[int, dict[str, Any]]
"""Which seat sends it (its token), and ``TestClient.post``'s keyword arguments."""

SCRIPT: list[Request] = [
    (0, {"json": {"choice": {"card": 9}}}),  # illegal_choice: a domain error, 422
    (0, {"json": {"choice": {"card": 3}}, "params": {"lang": "de"}}),  # sealed
    (0, {"json": {"choice": {"card": 3}, "version": 1}, "params": {"lang": "de"}}),  # 409, German
    (0, {"json": {"choice": {"card": 3}}, "headers": {"Idempotency-Key": "k-1"}}),  # replaced
    (0, {"json": {"choice": {"card": 3}}, "headers": {"Idempotency-Key": "k-1"}}),  # replayed
    (0, {"json": {"choice": {"card": 2}}, "headers": {"Idempotency-Key": "k-1"}}),  # key reused
    (1, {"json": {"choice": {"card": 1}, "decision_version": 999}}),  # version_conflict
    (1, {"json": {"choice": {"card": 1}, "extra": True}}),  # invalid_request: FastAPI's answer
    (1, {"json": {"choice": {"card": 1}, "version": "1"}}),  # coerced by pydantic: FastAPI's
    (1, {"content": b'{"choice": {"card": 1}', "headers": {"Content-Type": "application/json"}}),
    (1, {"json": {"choice": {"card": 1}}, "headers": {"Authorization": "Basic eA=="}}),  # 401
    (1, {"json": {"choice": {"card": 1}}, "headers": {"Idempotency-Key": "has space"}}),
    (1, {"json": {"choice": {"card": 1}}, "headers": {"Accept-Language": "fr-CH, de;q=0.5"}}),
    (0, {"json": {"action": "bank"}}),  # choice missing
    (0, {"json": {"choice": {"action": "bank"}}, "params": {"lang": "es"}}),  # bank or pass
    (1, {"json": {"choice": {"card": 2}}}),  # not_your_decision
]


@pytest.fixture
def apps(tmp_path: Path) -> Iterator[dict[bool, TestClient]]:
    """The app as served (True), and the same app without the pre-resolved handler (False)."""
    clients = {}
    for fast in (True, False):
        settings = make_settings(tmp_path / str(fast))
        (tmp_path / str(fast)).mkdir()
        app = app_with_test_game(settings)
        if not fast:  # Starlette builds the middleware stack at the first request
            app.user_middleware = [
                m for m in app.user_middleware if cast(object, m.cls) is not PreResolvedSubmit
            ]
        clients[fast] = TestClient(app)
        clients[fast].__enter__()
    yield clients
    for client in clients.values():
        client.__exit__(None, None, None)


def played(client: TestClient) -> list[tuple[int, bytes, list[tuple[str, str]]]]:
    game, tokens = seated_game(client, seed=SEED, options={"rounds": 1})
    answers = []
    for seat, request in SCRIPT:
        headers = {**auth(tokens[seat]), **request.get("headers", {})}
        sent = {**request, "headers": headers}
        response = client.post(f"/v1/games/{game['id']}/choices", **sent)
        kept = [(k, v) for k, v in response.headers.items() if not k.startswith(VOLATILE)]
        body = SALT.sub(b"", response.content.replace(game["id"].encode(), b"ID"))
        answers.append((response.status_code, body, kept))
    return answers


def test_the_pre_resolved_submit_answers_byte_for_byte_as_fastapi(
    apps: dict[bool, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[str] = []
    submit = PreResolvedSubmit._submit

    async def counted(self: PreResolvedSubmit, *args: Any) -> Any:
        served.append(args[1])
        return await submit(self, *args)

    monkeypatch.setattr(PreResolvedSubmit, "_submit", counted)
    fast, plain = played(apps[True]), played(apps[False])
    for number, (ours, theirs) in enumerate(zip(fast, plain, strict=True)):
        assert ours == theirs, f"request {number}: {SCRIPT[number]}"
    statuses = [status for status, _, _ in fast]
    assert statuses == [422, 200, 409, 200, 200, 422, 409, 422, 409, 400, 401, 422, 200, 422, 200, 409]
    assert len(served) == 10, "the well-formed submits were served by the pre-resolved handler"


def test_the_operation_is_still_documented_and_its_answers_validate(tmp_path: Path) -> None:
    document = openapi_document()
    operation = document["paths"]["/v1/games/{game_id}/choices"]["post"]
    assert operation["operationId"] == OPERATION_ID
    assert {"200", "409", "422"} <= set(operation["responses"])
    checker = StrictChecker(document)
    checker.game_type = "keythedral"
    app = create_app(make_settings(tmp_path))
    with TestClient(app) as client:
        client.event_hooks["response"].append(checker)
        game, tokens = start_game(client, "keythedral", 2, seed=SEED)
        for _ in range(3):
            view = client.get(f"/v1/games/{game['id']}").json()
            seat = view["decision"]["seats"][0]
            choices = client.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[seat])).json()
            submitted = client.post(
                f"/v1/games/{game['id']}/choices",
                json={"choice": choices["choices"][0], "decision_version": choices["decision_version"]},
                headers=auth(tokens[seat]),
            )
            assert submitted.status_code == 200, submitted.text
        stale = client.post(
            f"/v1/games/{game['id']}/choices",
            json={"choice": choices["choices"][0], "decision_version": choices["decision_version"]},
            headers=auth(tokens[seat]),
        )
        assert stale.status_code == 409
    assert checker.checked[OPERATION_ID] == 4
