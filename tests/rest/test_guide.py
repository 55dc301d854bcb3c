"""The developer's guide has one source (``api/pages/guide.md``): it is the OpenAPI description that
``/docs`` and ``/redoc`` render, and the README's copy is equal to it. Facts it states that live in
the code (limits, languages, platform events) are checked against the code."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from textwrap import dedent

from fastapi.testclient import TestClient
from graphql import OperationDefinitionNode, parse, validate
from graphql import build_schema as build_graphql_schema
from standardwebhooks.webhooks import Webhook

from api.entrypoints.export import graphql_text
from api.pages.docs import README_GUIDE_START, guide, readme_with_guide
from api.settings import Settings
from domain.i18n import LANGUAGES
from domain.model.match import RESERVED_EVENT_TYPES

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_served_document_opens_with_the_guide(client: TestClient) -> None:
    served = client.get("/openapi.json").json()
    assert served["info"]["description"] == guide()
    assert "### Tokens" in served["info"]["description"]


def test_the_readme_carries_the_guide_unchanged() -> None:
    readme = README.read_text(encoding="utf-8")
    assert README_GUIDE_START in readme
    assert readme == readme_with_guide(readme), "run python -m api export-schemas"


def test_the_guide_states_the_limits_the_code_applies() -> None:
    text = guide()
    settings = Settings()
    window = max(1, round(settings.rate_limit_burst / settings.rate_limit_per_second))
    assert f"by default {settings.rate_limit_burst}\nrequests in a sliding window of {window} seconds" in text
    assert settings.lobby_expiry_seconds == 24 * 3600 and "after 24 hours" in text


def test_the_guide_names_every_language_and_platform_event() -> None:
    text = guide()
    languages = re.search(r"\(`en`, `de`, `fr`, `es`\)", text)
    assert languages is not None and LANGUAGES == ("en", "de", "fr", "es")
    for kind in RESERVED_EVENT_TYPES:
        assert f"`{kind}`" in text, kind


def test_a_ping_on_the_subscription_socket_is_answered_with_a_pong(client: TestClient) -> None:
    """The guide tells clients to keep a quiet socket alive with protocol pings."""
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as socket:
        socket.send_json({"type": "connection_init", "payload": {}})
        assert socket.receive_json()["type"] == "connection_ack"
        socket.send_json({"type": "ping"})
        assert socket.receive_json()["type"] == "pong"
    assert "send a protocol `ping` every 20 s" in guide()


GRAPHQL_BLOCK = re.compile(r"```graphql\n(.*?)```", re.S)
SAMPLE_PACKAGE = Path(__file__).resolve().parents[2] / "clients" / "typescript" / "package.json"


def test_the_sdl_is_served_as_exported_with_an_etag(client: TestClient) -> None:
    answer = client.get("/graphql/schema.graphql")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert answer.text == graphql_text(), "run python -m api export-schemas"
    again = client.get("/graphql/schema.graphql", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304
    assert "`/graphql/schema.graphql`" in guide()


def test_every_graphql_example_in_the_guide_declares_its_argument_types_and_is_valid(
    client: TestClient,
) -> None:
    served = build_graphql_schema(client.get("/graphql/schema.graphql").text)
    examples = GRAPHQL_BLOCK.findall(guide())
    assert len(examples) >= 2
    for example in examples:
        document = parse(dedent(example))
        assert validate(served, document) == [], example
        for definition in document.definitions:
            assert isinstance(definition, OperationDefinitionNode)
            assert definition.variable_definitions, f"no typed variables: {example}"


def test_the_webhook_example_signs_with_the_decoded_key_and_not_with_the_secret_text() -> None:
    text = guide()
    found = re.search(
        r"- secret `(whsec_[^`]+)`\n- `webhook-id: ([^`]+)`, `webhook-timestamp: ([0-9]+)`\n"
        r"- body `([^`]+)`\n- `webhook-signature: (v1,[^`]+)`",
        text,
    )
    assert found is not None, "the guide's webhook example"
    secret, identifier, timestamp, body, signature = found.groups()
    moment = datetime.fromtimestamp(int(timestamp), UTC)
    assert Webhook(secret).sign(identifier, moment, body) == signature  # as our sender signs
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{identifier}.{timestamp}.{body}".encode()
    by_hand = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    assert by_hand == signature
    text_key = hmac.new(secret.encode(), signed, hashlib.sha256).digest()
    assert "v1," + base64.b64encode(text_key).decode() != signature
    assert "webhook_allow_private_targets" in Settings.model_fields
    assert "`TABLETOP_WEBHOOK_ALLOW_PRIVATE_TARGETS=true`" in text


def test_the_guide_names_the_versions_the_sample_client_was_generated_with() -> None:
    pins = json.loads(SAMPLE_PACKAGE.read_text())["devDependencies"]
    text = " ".join(guide().split())
    for package in (
        "@hey-api/openapi-ts",
        "@graphql-codegen/cli",
        "@graphql-codegen/typescript",
        "@graphql-codegen/typescript-operations",
    ):
        assert f"{package} {pins[package]}" in text, package
    assert f"TypeScript {pins['typescript']}" in text
