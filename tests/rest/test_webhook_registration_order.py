"""Anonymous webhook registration answers 401 before the URL's host is looked up (issue 19 item
11): whether a name resolves, and to what, is told only to an authenticated owner."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import app_with_test_game, make_settings
from tests.support.http import auth


def test_an_unauthenticated_registration_is_refused_before_any_lookup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked_up: list[str] = []

    def counting_lookup(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        looked_up.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port))]

    monkeypatch.setattr("persistence.outbound.webhook_sender.socket.getaddrinfo", counting_lookup)
    body = {"url": "https://intranet.example/hook", "filters": ["all"]}
    with TestClient(app_with_test_game(make_settings(tmp_path))) as client:
        anonymous = client.post("/v1/webhooks", json=body)
        invented = client.post("/v1/webhooks", json=body, headers=auth("not-a-token"))
        assert (anonymous.status_code, invented.status_code) == (401, 401), invented.text
        assert "intranet" not in anonymous.text + invented.text
        assert looked_up == []
        player = client.post("/v1/players", json={"name": "Ann"}).json()
        owned = client.post("/v1/webhooks", json=body, headers=auth(player["token"]))
    assert owned.status_code == 422 and "non-public address" in owned.text, owned.text
    assert looked_up == ["intranet.example"]
