"""The sign-in link as a QR code: drawn by our server for the player whose token asks, for no one
else, and never kept by a cache (the picture carries the token)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from api.pages.sign_in_qr import qr_svg, sign_in_link
from tests.support.client import new_game
from tests.support.http import auth
from tests.support.problems import assert_problem


def test_the_qr_code_draws_the_owners_sign_in_link_and_is_never_cached(client: TestClient) -> None:
    ann = client.post("/v1/players", json={"name": "Ann"}).json()
    bob = client.post("/v1/players", json={"name": "Bob"}).json()

    answer = client.get("/v1/players/me/sign-in-qr", headers=auth(ann["token"]))
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.headers["cache-control"] == "no-store"
    link = sign_in_link(str(client.base_url) + "/", ann["token"])
    assert link == f"{client.base_url}/play/#/signin/{ann['token']}"
    assert answer.content == qr_svg(link, "Tabletop sign-in")  # exactly Ann's link, nothing else
    assert answer.content.startswith(b"<svg") and b"viewBox" in answer.content
    assert ann["token"].encode() not in answer.content  # drawn, not written out as text

    bobs = client.get("/v1/players/me/sign-in-qr", headers=auth(bob["token"]))
    assert bobs.status_code == 200 and bobs.content != answer.content


def test_no_qr_code_without_a_player_token(client: TestClient) -> None:
    game = new_game(client)
    seat = client.post(f"/v1/games/{game['id']}/seats", json={"name": "Cid"}).json()
    for headers in ({}, auth(seat["token"]), auth(game["host_token"]), auth("not-a-token")):
        answer = client.get("/v1/players/me/sign-in-qr", headers=headers)
        assert_problem(answer, 401, "unauthorized")
        assert "svg" not in answer.headers["content-type"]
