"""Assertions on RFC 9457 problem details, as every error answer of the API is one."""

from __future__ import annotations

from typing import Any


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """The answer is a problem with this status and ``code`` and says why; its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["status"] == status and body["detail"]
    return body
