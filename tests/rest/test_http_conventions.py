"""HTTP conventions a client expects (issue 12, section 5): CORS with preflights and the same
origin check on the GraphQL websocket, ETag / If-None-Match → 304 on game reads, Location on
every 201, Allow on 405, gzip for large answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from api.edge.cors import origin_policy
from api.settings import Settings
from tests.support.client import (
    app_with_test_game,
    finished_duel,
    make_settings,
    new_game,
    seated_game,
)
from tests.support.http import auth
from tests.support.problems import assert_problem

PROTOCOL = "graphql-transport-ws"
APP_ORIGIN = "https://app.example"


@pytest.fixture
def listed_origin_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(tmp_path, cors_origins=f"{APP_ORIGIN}, https://other.example")
    with TestClient(app_with_test_game(settings)) as client:
        yield client


def preflight(client: TestClient, origin: str, method: str = "POST") -> httpx.Response:
    answer: httpx.Response = client.options(
        "/v1/games",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )
    return answer


# -- CORS ------------------------------------------------------------------------------------------


def test_a_listed_origin_gets_its_preflight_answered(listed_origin_client: TestClient) -> None:
    answer = preflight(listed_origin_client, APP_ORIGIN)
    assert answer.status_code == 200
    headers = answer.headers
    assert headers["access-control-allow-origin"] == APP_ORIGIN
    assert "POST" in headers["access-control-allow-methods"]
    allowed = headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= set(allowed.replace(" ", "").split(","))
    assert "access-control-allow-credentials" not in headers  # bearer tokens, never cookies


def test_an_unlisted_origin_gets_no_cors_permission(listed_origin_client: TestClient) -> None:
    refused = preflight(listed_origin_client, "https://evil.example")
    assert refused.status_code == 400
    assert "access-control-allow-origin" not in refused.headers
    plain = listed_origin_client.get("/v1/game-types", headers={"Origin": "https://evil.example"})
    assert plain.status_code == 200 and "access-control-allow-origin" not in plain.headers
    assert preflight(listed_origin_client, "http://localhost:5173").status_code == 400


def test_a_cross_origin_read_exposes_the_headers_a_client_needs(listed_origin_client: TestClient) -> None:
    game = new_game(listed_origin_client)
    read = listed_origin_client.get(f"/v1/games/{game['id']}", headers={"Origin": APP_ORIGIN})
    assert read.headers["access-control-allow-origin"] == APP_ORIGIN
    exposed = {h.strip().lower() for h in read.headers["access-control-expose-headers"].split(",")}
    assert {"etag", "location", "content-language", "x-request-id", "retry-after"} <= exposed


def test_a_page_can_read_a_rate_limit_refusal(tmp_path: Path) -> None:
    """CORS is outermost: a 429 (or any refusal at the edge) still tells the page why. (A token
    a minute and more: on a loaded machine three requests can take longer than a second.)"""
    settings = make_settings(
        tmp_path, cors_origins=APP_ORIGIN, rate_limit_per_second=0.01, rate_limit_burst=2
    )
    with TestClient(app_with_test_game(settings)) as client:
        answers = [client.get("/v1/game-types", headers={"Origin": APP_ORIGIN}) for _ in range(3)]
    refused = answers[-1]
    assert refused.status_code == 429
    assert refused.headers["access-control-allow-origin"] == APP_ORIGIN
    assert "retry-after" in refused.headers["access-control-expose-headers"].lower()


def test_the_embedded_default_allows_localhost_pages_only(client: TestClient) -> None:
    for origin in ("http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]:3000"):
        answer = preflight(client, origin)
        assert answer.status_code == 200, origin
        assert answer.headers["access-control-allow-origin"] == origin
    assert preflight(client, "https://app.example").status_code == 400
    assert preflight(client, "http://localhost.evil.example").status_code == 400


def test_production_databases_allow_no_origin_unless_listed() -> None:
    production = origin_policy(Settings(database_url="postgresql://tabletop@db/tabletop"))
    assert not production.allows("http://localhost:5173")
    assert not production.allows(APP_ORIGIN)
    listed = origin_policy(Settings(database_url="postgresql://db/t", cors_origins=f"{APP_ORIGIN}/"))
    assert listed.allows(APP_ORIGIN) and not listed.allows("http://localhost:5173")
    assert origin_policy(Settings(database_url="postgresql://db/t", cors_origins="*")).allows(
        "https://x.example"
    )
    none = origin_policy(Settings(cors_origins=""))  # explicitly empty: not even localhost
    assert not none.allows("http://localhost:5173")


def _socket_answer(client: TestClient, headers: dict[str, str]) -> str:
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL], headers=headers) as socket:
        socket.send_json({"type": "connection_init"})
        answer: str = socket.receive_json()["type"]
        return answer


def test_the_graphql_websocket_refuses_an_unlisted_origin(listed_origin_client: TestClient) -> None:
    """Closed before it is accepted: a real server answers the handshake with HTTP 403."""
    for origin in ("https://evil.example", "null", "http://localhost:5173"):
        with pytest.raises(WebSocketDisconnect) as closed:
            _socket_answer(listed_origin_client, {"Origin": origin})
        assert closed.value.code == 1008, origin


def test_the_graphql_websocket_accepts_listed_origins_and_non_browser_clients(
    listed_origin_client: TestClient,
) -> None:
    assert _socket_answer(listed_origin_client, {"Origin": APP_ORIGIN}) == "connection_ack"
    assert _socket_answer(listed_origin_client, {"Origin": "HTTPS://App.Example:443"}) == "connection_ack"
    assert _socket_answer(listed_origin_client, {}) == "connection_ack"  # no Origin: not a browser
    # the page at /play is on the server's own origin, whatever the list says
    assert _socket_answer(listed_origin_client, {"Origin": "http://testserver"}) == "connection_ack"


def test_the_embedded_default_accepts_localhost_pages_on_the_websocket(client: TestClient) -> None:
    assert _socket_answer(client, {"Origin": "http://localhost:5173"}) == "connection_ack"
    with pytest.raises(WebSocketDisconnect):
        _socket_answer(client, {"Origin": "https://evil.example"})


# -- ETag ------------------------------------------------------------------------------------------


def test_a_game_read_answers_304_while_nothing_changed(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}"
    first = client.get(url, headers=auth(tokens[0]))
    etag = first.headers["etag"]
    assert etag.startswith('W/"') and first.headers["cache-control"] == "private, no-cache"
    assert "Authorization" in first.headers["vary"]
    again = client.get(url, headers={**auth(tokens[0]), "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    listed = client.get(url, headers={**auth(tokens[0]), "If-None-Match": f'"other", {etag}'})
    assert listed.status_code == 304
    assert client.get(url, headers={**auth(tokens[0]), "If-None-Match": "*"}).status_code == 304


def test_two_viewers_never_share_an_etag(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}"
    tags = {
        client.get(url, headers=auth(tokens[0])).headers["etag"],
        client.get(url, headers=auth(tokens[1])).headers["etag"],
        client.get(url).headers["etag"],
        client.get(url, headers=auth(game["host_token"])).headers["etag"],
        client.get(url, params={"lang": "de"}, headers=auth(tokens[0])).headers["etag"],
    }
    assert len(tags) == 5
    seat_zero = client.get(url, headers=auth(tokens[0])).headers["etag"]
    as_other_seat = client.get(url, headers={**auth(tokens[1]), "If-None-Match": seat_zero})
    assert as_other_seat.status_code == 200 and as_other_seat.json()["viewer"]["seat"] == 1


def test_a_change_to_the_game_changes_the_etag(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}"
    before = client.get(url, headers=auth(tokens[0])).headers["etag"]
    pending = client.get(f"{url}/choices", headers=auth(tokens[0])).json()
    sealed = client.post(f"{url}/choices", json={"choice": pending["choices"][0]}, headers=auth(tokens[0]))
    assert sealed.status_code == 200, sealed.text
    after = client.get(url, headers={**auth(tokens[0]), "If-None-Match": before})
    assert after.status_code == 200 and after.headers["etag"] != before
    assert after.json()["version"] == pending["version"] + 1


def test_choices_have_their_own_etag_per_seat_and_answer_304(client: TestClient) -> None:
    game, tokens = seated_game(client)
    url = f"/v1/games/{game['id']}/choices"
    first = client.get(url, headers=auth(tokens[0]))
    etag = first.headers["etag"]
    assert client.get(f"/v1/games/{game['id']}", headers=auth(tokens[0])).headers["etag"] != etag
    assert client.get(url, headers=auth(tokens[1])).headers["etag"] != etag
    assert client.get(url, headers={**auth(tokens[0]), "If-None-Match": etag}).status_code == 304
    other_seat = client.get(url, headers={**auth(tokens[1]), "If-None-Match": etag})
    assert other_seat.status_code == 200 and other_seat.json()["choices"]
    client.post(url, json={"choice": first.json()["choices"][0]}, headers=auth(tokens[0]))
    changed = client.get(url, headers={**auth(tokens[0]), "If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()["version"] == first.json()["version"] + 1


def test_static_game_data_is_revalidated_with_its_etag(client: TestClient) -> None:
    url = "/v1/game-types/carcassonne"
    first = client.get(url, params={"lang": "de"})
    etag = first.headers["etag"]
    again = client.get(url, params={"lang": "de"}, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    french = client.get(url, params={"lang": "fr"}, headers={"If-None-Match": etag})
    assert french.status_code == 200 and french.headers["etag"] != etag
    assert client.get("/v1/game-types/keythedral", headers={"If-None-Match": etag}).status_code == 200


# -- Location, Allow, gzip ---------------------------------------------------------------------


def test_every_201_names_what_it_created(client: TestClient) -> None:
    created = client.post("/v1/games", json={"type": "duel"})
    assert created.status_code == 201
    assert created.headers["location"] == f"/v1/games/{created.json()['id']}"
    assert client.get(created.headers["location"]).json()["id"] == created.json()["id"]
    joined = client.post(f"{created.headers['location']}/seats", json={"name": "Ann"})
    assert joined.status_code == 201
    assert joined.headers["location"] == f"/v1/games/{created.json()['id']}/seats/0"
    player = client.post("/v1/players", json={"name": "Bea"})
    assert player.status_code == 201 and player.headers["location"] == f"/v1/players/{player.json()['id']}"
    game, token = finished_duel(client)
    rematch = client.post(f"/v1/games/{game['id']}/rematch", headers=auth(token))
    assert rematch.status_code == 201 and rematch.headers["location"] == f"/v1/games/{rematch.json()['id']}"


def test_webhook_creation_names_the_endpoint(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, webhook_allow_private_targets=True)
    with TestClient(app_with_test_game(settings)) as client:
        player = client.post("/v1/players", json={"name": "Ann"}).json()
        body = {"url": "http://127.0.0.1:9/hook", "filters": ["all"]}
        hook = client.post("/v1/webhooks", json=body, headers=auth(player["token"]))
        assert hook.status_code == 201, hook.text
        assert hook.headers["location"] == f"/v1/webhooks/{hook.json()['id']}"


def test_a_wrong_method_answers_405_with_every_allowed_method(client: TestClient) -> None:
    for method, path, allowed in (
        ("DELETE", "/v1/games", "GET, HEAD, POST"),
        ("PUT", "/v1/games/abc", "GET, HEAD"),
        ("GET", "/v1/games/abc/start", "POST"),
        ("POST", "/v1/games/abc/seats/0", "DELETE"),
        ("PUT", "/graphql", "GET, HEAD, POST"),
        ("POST", "/play/index.html", "GET, HEAD"),
    ):
        answer = client.request(method, path)
        assert_problem(answer, 405, "method_not_allowed")
        assert answer.headers["allow"] == allowed, (method, path)


def test_large_answers_are_gzipped_for_clients_that_accept_it(client: TestClient) -> None:
    raw = client.get("/v1/game-types/carcassonne", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers and len(raw.content) > 10_000
    zipped = client.get("/v1/game-types/carcassonne", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.json() == raw.json()
    assert int(zipped.headers["content-length"]) < len(raw.content) / 3
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers
