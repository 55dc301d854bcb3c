"""The parse and validation of a GraphQL document are kept by its text (bounded): a client sending
the same subscription again is neither parsed nor validated again, and a refused document is
refused every time (errors are not cached as successes)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from api.graphql.guard import DocumentCache
from tests.support.graphql import PROTOCOL, SUBSCRIBE, seated_duel


def _hits(client: TestClient) -> tuple[int, int]:
    """How often the served schema found a document already parsed, and already validated."""
    for route in client.app.routes:  # type: ignore[attr-defined]
        documents = getattr(
            getattr(getattr(route, "original_router", None), "schema", None), "documents", None
        )
        if isinstance(documents, DocumentCache):
            return documents.parse.cache_info().hits, documents.validate.cache_info().hits
    raise AssertionError("no GraphQL route")


def _first_answer(client: TestClient, game_id: str, query: str) -> dict[str, object]:
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send_json({"type": "connection_init", "payload": {}})
        assert socket.receive_json()["type"] == "connection_ack"
        socket.send_json(
            {"id": "1", "type": "subscribe", "payload": {"query": query, "variables": {"g": game_id}}}
        )
        answer: dict[str, object] = socket.receive_json()
    return answer


def test_a_subscription_sent_again_is_neither_parsed_nor_validated_again(client: TestClient) -> None:
    game_id, _ = seated_duel(client)
    first = _first_answer(client, game_id, SUBSCRIBE)
    parsed, validated = _hits(client)
    again = _first_answer(client, game_id, SUBSCRIBE)
    assert again == first and again["type"] == "next"
    assert _hits(client) == (parsed + 1, validated + 1)


def test_an_invalid_document_is_refused_each_time(client: TestClient) -> None:
    game_id, _ = seated_duel(client)
    wrong = SUBSCRIBE.replace("seq type", "seq noSuchField")
    for _ in range(2):
        answer = _first_answer(client, game_id, wrong)
        assert answer["type"] == "error", answer
        assert "noSuchField" in str(answer["payload"])
