"""Property-based contract test: Schemathesis generates requests from the OpenAPI document and
sends them to the real server. The document is the one the test server publishes (the committed
export, which a test keeps equal to the served one, plus the test game's member in each per-game
union, since the server plays that game). No input may cause a 5xx, and every response must be documented
(status code, content type, headers) and match its documented schema."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from cryptography.hazmat.primitives.asymmetric import ec
from graphql import parse_value
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from requests.structures import CaseInsensitiveDict
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from persistence.outbound.notice_sender import new_vapid_keys
from tests.support import serve_for_tests
from tests.support.play import new_duel
from tests.support.push_receiver import Subscriber
from tests.support.servers import ROOT, ServerProcess, running_servers

pytestmark = pytest.mark.timeout(90)

OPENAPI = ROOT / "openapi" / "openapi.json"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
schema = schemathesis.openapi.from_dict(serve_for_tests.app().openapi())


@pytest.fixture(scope="module")
def contract_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory: Path = tmp_path_factory.mktemp("schemathesis")
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{directory / 'tabletop.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        # A webhook to a closed local port: registered for real, its deliveries fail (bounded).
        "TABLETOP_WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
        "TABLETOP_WEBHOOK_GIVE_UP_SECONDS": "5",
        # Web Push on, so the push-subscription paths meet real subscriptions (to a closed port).
        "TABLETOP_VAPID_PRIVATE_KEY": new_vapid_keys()[0],
        "TABLETOP_VAPID_SUBJECT": "mailto:operators@example.org",
        "TABLETOP_PUSH_ALLOW_PRIVATE_TARGETS": "true",
    }
    with running_servers([env], directory) as (server,):
        yield server


@pytest.fixture(scope="module")
def game_in_play(contract_server: ServerProcess) -> tuple[str, str]:
    """A started game and a seat token, so generated requests also reach the real game paths."""
    with httpx.Client(base_url=contract_server.base, timeout=10) as http:
        game_id, tokens = new_duel(http, rounds=3)
    return game_id, tokens[0]


@dataclass(frozen=True)
class RealIds:
    """Real resources for one operation's cases: values for each path parameter, and tokens."""

    path: dict[str, list[Any]]
    tokens: dict[str, str]
    examples: list[int] = field(default_factory=lambda: [0])
    """How many of the operation's examples have been sent so far (one fixture per operation)."""

    def calls(self, names: list[str]) -> list[tuple[tuple[Any, ...], str]]:
        """The real values of these path parameters and the token to send the next example with:
        the operation's first example goes with every combination of values as every token; each
        later one with one combination per token, turning with each example (token i takes
        combination i + n at the n-th example), so the examples keep meeting every combination
        as every token. Every combination repeats a code path of the first but for the values,
        so the first example is sent 1 + 12 times (2 games x 2 seats x 3 tokens), the next 1 + 3."""
        every = list(itertools.product(*(self.path[name] for name in names)))
        tokens = list(self.tokens.values())
        sent = self.examples[0]
        self.examples[0] += 1
        if sent == 0:
            return [(values, token) for values in every for token in tokens]
        return [(every[(sent + i) % len(every)], token) for i, token in enumerate(tokens)]


@pytest.fixture
def real_ids(contract_server: ServerProcess) -> RealIds:
    """Fresh for every operation (a generated abort or resign must not starve the next one): a
    game in play, a lobby, a player seated in the game, and that player's webhook."""
    with httpx.Client(base_url=contract_server.base, timeout=10) as http:
        player = http.post("/v1/players", json={"name": "Schema"}).json()
        mine = {"Authorization": f"Bearer {player['token']}"}
        playing, seat_tokens = new_duel(http, rounds=3)
        lobby = http.post("/v1/games", json={"type": "duel"}).json()
        http.post(f"/v1/games/{lobby['id']}/seats", json={"name": "x"})
        http.post(f"/v1/games/{lobby['id']}/seats", json={"name": "y"}, headers=mine)
        hook = http.post(
            "/v1/webhooks", json={"url": "http://127.0.0.1:9/hook", "filters": ["all"]}, headers=mine
        ).json()
        cup = {"name": "Cup", "game_type": "duel", "format": "swiss", "rated": False}
        tournament = http.post("/v1/tournaments", json=cup, headers=mine).json()
        browser = Subscriber(
            "http://127.0.0.1:9/push/schema", ec.generate_private_key(ec.SECP256R1()), b"0" * 16
        )
        subscription = http.post(
            "/v1/players/me/push-subscriptions", json=browser.as_json("en"), headers=mine
        )
        assert subscription.status_code == 201, subscription.text
    return RealIds(
        path={
            "game_id": [playing, lobby["id"]],
            "seat": [0, 1],
            "webhook_id": [hook["id"]],
            "slug": ["duel"],
            "game_type": ["duel"],
            "player_id": [player["id"]],
            "tournament_id": [tournament["tournament"]["id"]],
            "subscription_id": [subscription.json()["id"]],
        },
        tokens={
            "seat": seat_tokens[0],
            "host": lobby["host_token"],
            "player": player["token"],
        },
    )


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_generated_request_gets_a_documented_response_and_never_a_5xx(
    case: schemathesis.Case[Any], contract_server: ServerProcess, real_ids: RealIds
) -> None:
    """Every operation, with its generated inputs: as generated (random ids meet 404), then with
    real ids in its path as each kind of token (seat, host, player): every combination of real
    ids for the first example, then one turning combination per token (RealIds.calls)."""
    if case.path.endswith("/stream"):
        # A live stream of a game in play never ends by itself: tests/e2e/test_event_stream.py
        # covers it (history, resumption, per-viewer data, 204/401/404) over real HTTP.
        pytest.skip("the event stream is tested end to end in test_event_stream.py")
    case.call_and_validate(base_url=contract_server.base, checks=CHECKS, timeout=10)
    names = [name for name in case.path_parameters or {} if name in real_ids.path]
    for values, token in real_ids.calls(names):
        case.path_parameters = {**(case.path_parameters or {}), **dict(zip(names, values, strict=True))}
        headers = CaseInsensitiveDict(case.headers or {})
        headers["authorization"] = f"Bearer {token}"
        case.headers = headers
        case.call_and_validate(base_url=contract_server.base, checks=CHECKS, timeout=10)


def test_the_real_ids_cover_every_path_parameter_of_the_schema() -> None:
    """A new path parameter must get real values above, or its operations only ever meet 404."""
    spec = json.loads(OPENAPI.read_text())
    names = {
        parameter["name"]
        for operations in spec["paths"].values()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "path"
    }
    known = {
        "game_id",
        "seat",
        "webhook_id",
        "slug",
        "game_type",
        "player_id",
        "tournament_id",
        "subscription_id",
    }
    assert names <= known, names


JSON_LITERALS = [
    "{card: 1}",
    "{card: 2, extra: [1, 2.5, null, true]}",
    "{}",
    '"text"',
    "[[[[[[[[1]]]]]]]]",
    '{a: {b: {c: "\\u0000"}}}',
    "-1",
    "1e308",
]
schemathesis.graphql.scalar(
    "JSON",
    st.one_of(
        st.sampled_from(JSON_LITERALS).map(parse_value),
        st.integers(min_value=-(2**40), max_value=2**40).map(lambda n: parse_value(str(n))),
        st.text(max_size=20).map(lambda t: parse_value(json.dumps(t))),
    ),
)
schemathesis.graphql.scalar(
    "DateTime", st.sampled_from(['"2026-01-01T00:00:00+00:00"', '"x"']).map(parse_value)
)
graphql_schema = schemathesis.graphql.from_path(str(ROOT / "openapi" / "schema.graphql"))


@graphql_schema.parametrize()
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_every_generated_graphql_operation_is_answered_without_a_5xx_or_an_internal_error(
    case: schemathesis.Case[Any], contract_server: ServerProcess, game_in_play: tuple[str, str]
) -> None:
    """GraphQL, as a stranger and as a seat of a real game: every answer is below 500 and no
    error is an unexpected one (``internal_error``)."""
    game_id, token = game_in_play
    for headers in ({}, {"authorization": f"Bearer {token}"}):
        body: dict[str, Any] = dict(case.body) if isinstance(case.body, dict) else {"query": case.body}
        query = body.get("query", "")
        if isinstance(query, str):
            # Send generated operations at the real game too, not only at random ids.
            body = {
                **body,
                "query": query.replace('gameId: "', f'gameId: "{game_id}').replace(
                    'id: "', f'id: "{game_id}'
                ),
            }
        answer = httpx.post(f"{contract_server.base}/graphql", json=body, headers=headers, timeout=10)
        assert answer.status_code < 500, answer.text[:500]
        errors = (
            answer.json().get("errors") or []
            if answer.headers.get("content-type", "").startswith("application/json")
            else []
        )
        codes = [error.get("extensions", {}).get("code") for error in errors]
        assert "internal_error" not in codes, (body, answer.text[:500])
