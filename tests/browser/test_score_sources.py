"""Issue 32 item 7: an end screen explains each score by its sources (Carcassonne: roads, cities,
cloisters, fields, barns; Keythedral: building tiles and cubes; Im Schutze der Burg: points during
the game and each building's at the end), on a German phone, and the parts add up to the total."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.http import auth
from tests.support.servers import ServerProcess

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}
FIRST_SOURCE = {
    "carcassonne": "Straßen",
    "keythedral": "Punkte für Bauplättchen",
    "im-schutze-der-burg": "Punkte im Spiel",
}


def finished_bot_game(http: httpx.Client, slug: str) -> str:
    """A game of two random bots played to the end by the server; its id."""
    game = http.post("/v1/games", json={"type": slug}).json()
    for _ in range(2):
        joined = http.post(
            f"/v1/games/{game['id']}/seats", json={"bot": "random"}, headers=auth(game["host_token"])
        )
        assert joined.status_code == 201, joined.text
    for _ in range(60):  # the bot-only cap is shared with the other browser tests: wait for room
        started = http.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
        if started.status_code != 429:
            break
        time.sleep(1)
    assert started.status_code == 200, started.text
    deadline = time.monotonic() + 240
    while http.get(f"/v1/games/{game['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"{slug} did not finish"
        time.sleep(0.5)
    return str(game["id"])


@pytest.mark.parametrize("slug", ["carcassonne", "keythedral", "im-schutze-der-burg"])
def test_each_score_on_the_end_screen_is_explained_by_its_sources(
    open_page: Callable[..., Page], web_server: ServerProcess, slug: str
) -> None:
    with httpx.Client(base_url=web_server.base, timeout=30) as http:
        game_id = finished_bot_game(http, slug)
        result = http.get(f"/v1/games/{game_id}").json()["result"]
    page = open_page(**PHONE)
    page.goto(f"/play/#/game/{game_id}")
    sections = page.locator(".player-result")
    expect(sections).to_have_count(2, timeout=30_000)
    for n in range(2):
        section = sections.nth(n)
        seat = int(section.get_attribute("data-seat") or -1)
        sources = section.locator("table.sources")
        expect(section.locator("table.details")).to_have_count(1 if slug == "im-schutze-der-burg" else 0)
        expect(sources.locator("caption")).to_have_text("Punkte nach Herkunft")
        expect(sources.locator("tr[data-source] th").first).to_have_text(FIRST_SOURCE[slug])
        parts = [
            int(p)
            for p in sources.locator("tr[data-source]").evaluate_all(
                "(rows) => rows.map((r) => r.dataset.points)"
            )
        ]
        total = sources.locator("tr.sources-total")
        expect(total.locator("th")).to_have_text("Gesamt")
        expect(total.locator("td")).to_have_text(str(result["scores"][seat]))
        assert len(parts) >= 2 and sum(parts) == result["scores"][seat], (slug, seat, parts, result["scores"])
        expect(section.locator("h3")).to_contain_text(f"{result['scores'][seat]} Punkte")
