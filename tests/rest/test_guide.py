"""The developer's guide has one source (``api/pages/guide.md``): it is the OpenAPI description that
``/docs`` and ``/redoc`` render, and the README's copy is equal to it. Facts it states that live in
the code (limits, languages, platform events) are checked against the code."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

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
