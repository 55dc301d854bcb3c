"""The leaderboard and profile pages after rated games (played over the API between player
identities), the ratings shown at the table, and axe finding nothing serious on either page."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.support.axe import serious_violations
from tests.support.browser import save_screenshot
from tests.support.http import auth
from tests.support.servers import ServerProcess

CLOCK = {"mode": "per_decision", "seconds": 600}


def rated_duel(http: httpx.Client, winner: dict[str, Any], loser: dict[str, Any]) -> str:
    """A clocked one-round Duel between two player identities that ``winner`` wins; its id."""
    game = http.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}).json()
    tokens = []
    for person in (winner, loser):
        joined = http.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(person["token"]))
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    assert http.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).status_code == 200
    for token, card in zip(tokens, (3, 1), strict=True):
        assert (
            http.post(
                f"/v1/games/{game['id']}/choices", json={"choice": {"card": card}}, headers=auth(token)
            ).status_code
            == 200
        )
    ended = http.post(
        f"/v1/games/{game['id']}/choices", json={"choice": {"action": "pass"}}, headers=auth(tokens[0])
    )
    assert ended.status_code == 200, ended.text
    assert http.get(f"/v1/games/{game['id']}").json()["status"] == "finished"
    return game["id"]  # type: ignore[no-any-return]


def test_leaderboard_profile_and_table_show_the_ratings_of_rated_games(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    with httpx.Client(base_url=web_server.base, timeout=30) as http:
        # The browser tests share one server: names of our own, rows found by player id.
        tag = secrets.token_hex(3)
        people = [http.post("/v1/players", json={"name": f"{n} {tag}"}).json() for n in ("Ann", "Bob", "Cy")]
        ann, bob, cy = people
        rated_duel(http, ann, bob)
        last = rated_duel(http, ann, cy)
        board = http.get("/v1/leaderboards/duel", params={"limit": 200}).json()["entries"]
        ann_line = next(entry for entry in board if entry["subject"] == ann["id"])
    page = open_page()
    page.goto("/play/#/leaderboard/duel")
    row = {
        person["name"]: page.locator(f'#leaderboard tbody tr[data-subject="{person["id"]}"]')
        for person in people
    }
    expect(row[ann["name"]]).to_contain_text(ann["name"])
    expect(row[ann["name"]]).to_contain_text(f"{ann_line['rating']:.1f}")
    expect(row[ann["name"]]).to_contain_text("provisional")
    expect(row[ann["name"]].locator("td").first).to_have_text(str(ann_line["rank"]))
    expect(row[bob["name"]]).to_be_visible()
    expect(row[cy["name"]]).to_be_visible()
    page.fill("#leaderboard-min", "2")
    page.click(".filters button[type=submit]")
    expect(row[bob["name"]]).to_have_count(0)
    expect(row[ann["name"]]).to_be_visible()
    leaderboard_violations = serious_violations(page)

    row[ann["name"]].locator("a").click()
    expect(page.locator("#profile-name")).to_have_text(ann["name"])
    expect(page.locator("#finishing")).to_contain_text("100%")
    expect(page.locator("#profile-ratings tbody tr")).to_have_count(1)
    chart = page.locator("#rating-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("g.point")).to_have_count(2)
    expect(chart.locator("polyline.series")).to_have_count(1)
    # The later point sits higher: Ann won both games.
    heights = chart.locator("g.point circle").evaluate_all(
        "(nodes) => nodes.map((n) => Number(n.getAttribute('cy')))"
    )
    assert heights[1] < heights[0], heights
    recent = page.locator("#recent-games tbody tr")
    expect(recent).to_have_count(2)
    expect(recent.first).to_contain_text("finished")
    expect(recent.first.locator("a")).to_have_attribute("href", f"#/replay/{last}/0")  # the replay viewer
    profile_violations = serious_violations(page)
    save_screenshot(page, "ratings-profile")

    page.goto(f"/play/#/game/{last}")  # the game's own page says it was rated
    expect(page.locator("#rated")).to_contain_text("Rated game")
    first_seat = page.locator('.seat-rating[data-rating-seat="0"]')
    expect(first_seat).to_contain_text(f"rating {ann_line['rating']:.1f}")
    assert not leaderboard_violations and not profile_violations, (leaderboard_violations, profile_violations)


def test_the_leaderboard_shows_finishing_rates_and_newcomers_in_german(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    """Issue 31 item 5: each player's finishing rate beside the rating (its counts in the title),
    and a line not yet established marked as a newcomer, in the page's language."""
    with httpx.Client(base_url=web_server.base, timeout=30) as http:
        tag = secrets.token_hex(3)
        ann, bob, cy = [
            http.post("/v1/players", json={"name": f"{n} {tag}"}).json() for n in ("Ann", "Bob", "Cy")
        ]
        rated_duel(http, ann, bob)
        game = http.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}).json()
        tokens = [
            http.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(p["token"])).json()["token"]
            for p in (ann, cy)
        ]
        http.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
        for token, card in zip(tokens, (3, 1), strict=True):
            http.post(f"/v1/games/{game['id']}/choices", json={"choice": {"card": card}}, headers=auth(token))
        assert http.post(f"/v1/games/{game['id']}/resign", headers=auth(tokens[1])).status_code == 200
        for _ in range(300):  # Ann plays on (her bank decision) while the stand-in plays Cy's seat
            if http.get(f"/v1/games/{game['id']}").json()["status"] == "finished":
                break
            choices = http.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[0])).json()["choices"]
            if choices:
                http.post(
                    f"/v1/games/{game['id']}/choices", json={"choice": choices[0]}, headers=auth(tokens[0])
                )
            time.sleep(0.1)
        assert http.get(f"/v1/games/{game['id']}").json()["status"] == "finished"
    page = open_page(locale="de")
    page.goto("/play/#/leaderboard/duel")
    expect(page.locator("#leaderboard thead")).to_contain_text("Beendet Partien")
    ann_row = page.locator(f'#leaderboard tbody tr[data-subject="{ann["id"]}"]')
    cy_row = page.locator(f'#leaderboard tbody tr[data-subject="{cy["id"]}"]')
    expect(ann_row.locator("td.finishing")).to_have_text("100 %")
    expect(ann_row.locator("td.finishing")).to_have_attribute(
        "title", re.compile(r"^Beendet 100 % der Partien: 2 zu Ende")
    )
    expect(cy_row.locator("td.finishing")).to_have_text("0 %", timeout=30_000)
    expect(cy_row.locator("td.finishing")).to_have_attribute("title", re.compile("1 aufgegeben"))
    expect(ann_row.locator(".newcomer")).to_have_text("Neuling")
    bots = page.locator('#leaderboard tbody tr[data-subject^="bot:"]')
    for n in range(bots.count()):
        expect(bots.nth(n).locator("td.finishing")).to_have_text("–")
        expect(bots.nth(n).locator(".newcomer")).to_have_count(0)
