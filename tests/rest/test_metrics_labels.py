"""``/metrics`` counts every request under a bounded set of route labels: FastAPI's templates, the
templates of mounted apps (the web client, the docs' assets) and of GraphQL (included under a
prefix); any other path is ``unmatched`` and any unusual method ``other``, so a client inventing
paths or methods cannot create labels."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

COUNTED = re.compile(
    r'^tabletop_http_requests_total\{method="([^"]*)",route="([^"]*)",status="(\d+)"\} (\S+)$'
)


def counted(client: TestClient) -> dict[tuple[str, str, str], float]:
    found = {}
    for line in client.get("/metrics").text.splitlines():
        match = COUNTED.match(line)
        if match:
            method, route, status, value = match.groups()
            found[(method, route, status)] = float(value)
    return found


def test_mounted_apps_and_graphql_are_counted_under_their_templates(client: TestClient) -> None:
    assert client.get("/play/style.css").status_code == 200
    assert client.get("/docs/assets/swagger/swagger-ui.css").status_code == 200
    assert client.post("/graphql", json={"query": "{ gameTypes { slug } }"}).status_code == 200
    assert client.get("/graphql").status_code == 200
    labels = counted(client)
    assert labels[("GET", "/play/{path}", "200")] == 1
    assert labels[("GET", "/docs/assets/swagger/{path}", "200")] == 1
    assert labels[("POST", "/graphql", "200")] == 1
    assert labels[("GET", "/graphql", "200")] == 1


def test_unknown_paths_and_methods_do_not_create_labels(client: TestClient) -> None:
    before = set(counted(client))
    for number in range(30):
        client.get(f"/no/such/path/{number}")
        client.post(f"/graphqlx/{number}")
        client.request(f"BREW{number}", "/v1/games")
    assert client.get("/v1/games/unknown-game").status_code == 404
    new = set(counted(client)) - before
    routes = {route for _, route, _ in new}
    assert routes <= {"unmatched", "/v1/games", "/v1/games/{game_id}", "/metrics"}, routes
    assert {method for method, _, _ in new} <= {"GET", "POST", "other"}
    assert len(new) <= 6, new
    assert counted(client)[("GET", "unmatched", "404")] == 30
