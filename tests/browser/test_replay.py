"""The replay viewer on a phone in German: a finished game of each title stepped through (forward,
back, the slider, the end, play), each step's board and scores equal to the API's replay at that
step, the shareable link opening the same step, every control a thumb can hit, and a seat's replay
of its game in progress showing nothing hidden from that seat."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Request, expect

from tests.support.axe import serious_violations
from tests.support.http import auth
from tests.support.servers import ServerProcess

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "locale": "de",
}
TITLES = ("im-schutze-der-burg", "keythedral", "carcassonne")


def bot_game(http: httpx.Client, slug: str) -> str:
    """A started game of two random bots (they play it to its end on the server): its id."""
    game = http.post("/v1/games", json={"type": slug}).json()
    for _ in range(2):
        joined = http.post(
            f"/v1/games/{game['id']}/seats", json={"bot": "random"}, headers=auth(game["host_token"])
        )
        assert joined.status_code == 201, joined.text
    started = http.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    assert started.status_code == 200, started.text
    return game["id"]  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def finished(web_server: ServerProcess) -> Iterator[dict[str, str]]:
    """One bot-only game of each title, played to its end by the server's random bots."""
    with httpx.Client(base_url=web_server.base, timeout=60) as http:
        games = {slug: bot_game(http, slug) for slug in TITLES}
        deadline = time.monotonic() + 400
        while time.monotonic() < deadline:
            status = {slug: http.get(f"/v1/games/{gid}").json()["status"] for slug, gid in games.items()}
            if all(value == "finished" for value in status.values()):
                break
            time.sleep(1)
        assert all(value == "finished" for value in status.values()), status
        yield games


def replay(base: str, game_id: str, at: int, seat: int | None = None, token: str | None = None) -> Any:
    params: dict[str, Any] = {"at": at} if seat is None else {"at": at, "seat": seat}
    answer = httpx.get(
        f"{base}/v1/games/{game_id}/replay", params=params, headers=auth(token) if token else {}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def scores(slug: str, state: dict[str, Any]) -> dict[str, str]:
    """What each seat's row of the board's player table says for its score, from the API state."""
    shown: dict[str, str] = {}
    for player in state["players"]:
        if slug == "carcassonne":
            shown[str(player["seat"])] = str(player["score"])
        elif slug == "im-schutze-der-burg":
            shown[str(player["seat"])] = str(player["vp"])
        else:
            you = state.get("you") or {}
            points = player.get(
                "tile_points", you.get("tile_points") if you.get("seat") == player["seat"] else None
            )
            shown[str(player["seat"])] = "?" if points is None else str(points)
    return shown


def board_counts(slug: str, state: dict[str, Any]) -> dict[str, int]:
    """Pieces the board draws, counted from the API state: selector → how many."""
    if slug == "carcassonne":
        return {"#board g.placed": len(state["board"])}
    if slug == "im-schutze-der-burg":
        return {"#board g.building.built": sum(1 for b in state["buildings"] if b["built"])}
    cottages = sum(1 for p in state["players"] for c in p["cottages"] if c["x"] is not None)
    return {"#board g.field": len(state["fields"]), "#board g.cottage, #board g.house": cottages}


SCORE_CELL = {
    "carcassonne": ".carc-scores tbody tr[data-seat='{seat}'] td >> nth=0",
    "keythedral": ".kt-players tbody tr[data-seat='{seat}'] td >> nth=0",
}


def shown_scores(page: Page, slug: str, state: dict[str, Any]) -> dict[str, str]:
    found = {}
    for player in state["players"]:
        seat = player["seat"]
        if slug == "im-schutze-der-burg":
            column = 1 + len(player["resources"])  # thalers, each resource, then the victory points
            cell = page.locator(f".isdb-players tbody tr[data-seat='{seat}'] td").nth(column)
        else:
            cell = page.locator(SCORE_CELL[slug].format(seat=seat))
        found[str(seat)] = cell.inner_text().strip()
    return found


def expect_step(
    page: Page, base: str, slug: str, game_id: str, step: int, moves: list[int], seat: int | None = None
) -> None:
    """The page shows step ``step``: the address, the board's pieces and the scores of the API's
    replay at that step's event."""
    main = page.locator("#app")
    expect(main).to_have_attribute("data-step", str(step))
    expect(main).to_have_attribute("data-at", str(moves[step]))
    assert page.url.endswith(f"#/replay/{game_id}/{step}" + ("" if seat is None else f"/{seat}"))
    state = replay(base, game_id, moves[step], seat)["state"]
    for selector, count in board_counts(slug, state).items():
        expect(page.locator(selector)).to_have_count(count)
    assert shown_scores(page, slug, state) == scores(slug, state)


def control_sizes(page: Page) -> dict[str, tuple[float, float]]:
    """Width and height of every control of the replay page that is smaller than 44 px."""
    small = {}
    for selector in (
        "#replay-controls button",
        "#replay-slider",
        "#replay-seat",
        "#replay-link",
        "#replay-copy",
        "#replay-back",
    ):
        for index in range(page.locator(selector).count()):
            box = page.locator(selector).nth(index).bounding_box()
            assert box is not None, selector
            if box["width"] < 44 or box["height"] < 44:
                small[f"{selector}[{index}]"] = (box["width"], box["height"])
    return small


def set_slider(page: Page, step: int) -> None:
    page.locator("#replay-slider").evaluate(
        "(slider, value) => { slider.value = String(value); "
        "slider.dispatchEvent(new Event('input', { bubbles: true })); }",
        step,
    )


@pytest.mark.timeout(600)
@pytest.mark.parametrize("slug", TITLES)
def test_stepping_through_a_finished_game_on_a_phone_in_german(
    open_page: Callable[..., Page], web_server: ServerProcess, finished: dict[str, str], slug: str
) -> None:
    base, game_id = web_server.base, finished[slug]
    moves = replay(base, game_id, 0)["moves"]
    last = len(moves) - 1
    assert last > 10, moves

    # From the end screen: the replay opens at the set-up board, as a spectator.
    page = open_page(**PHONE)
    page.goto(f"/play/#/game/{game_id}")
    # Enter on the link: a phone's sticky status line may cover it where Playwright scrolls it to.
    page.locator("#replay-link-result").press("Enter")
    expect(page.locator("#replay-title")).to_contain_text("Wiederholung")
    expect_step(page, base, slug, game_id, 0, moves)
    expect(page.locator("#replay-step")).to_have_text(f"Aufbau, vor Zug 1 von {last}")
    page.locator("#replay-forward").click()
    expect_step(page, base, slug, game_id, 1, moves)
    expect(page.locator("#replay-step")).to_have_text(f"Zug 1 von {last}")
    assert page.locator("#replay-events li").count() >= 1
    page.locator("#replay-forward").click()
    page.locator("#replay-back-step").click()
    expect_step(page, base, slug, game_id, 1, moves)

    middle = last // 2
    set_slider(page, middle)
    expect_step(page, base, slug, game_id, middle, moves)
    link = page.locator("#replay-link").input_value()
    assert link.endswith(f"#/replay/{game_id}/{middle}")

    page.locator("#replay-last").click()
    expect_step(page, base, slug, game_id, last, moves)
    page.locator("#replay-first").click()
    expect_step(page, base, slug, game_id, 0, moves)
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-label", "Pause")
    expect(page.locator("#app")).to_have_attribute("data-step", "2", timeout=10_000)
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-label", "Abspielen")

    # Seen by a player: the address says whose view, and the board is that seat's view.
    page.locator("#replay-seat").select_option("1")
    expect(page.locator("#app")).to_have_attribute("data-seat", "1")
    step = int(page.locator("#app").get_attribute("data-step") or "0")
    expect_step(page, base, slug, game_id, step, moves, seat=1)

    assert control_sizes(page) == {}
    assert page.evaluate("[...window.__i18nMissing]") == []
    if slug == "carcassonne":
        assert serious_violations(page) == []

    # The shared link opens the same step for someone else.
    other = open_page(**PHONE)
    other.goto(link.replace(base, ""))
    expect_step(other, base, slug, game_id, middle, moves)


@pytest.mark.timeout(300)
def test_a_seat_replays_its_game_so_far_without_the_other_seats_secrets(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    base = web_server.base
    with httpx.Client(base_url=base, timeout=60) as http:
        game = http.post("/v1/games", json={"type": "keythedral"}).json()
        gid = game["id"]
        token = http.post(f"/v1/games/{gid}/seats", json={"name": "Ann"}).json()["token"]
        http.post(f"/v1/games/{gid}/seats", json={"bot": "random"}, headers=auth(game["host_token"]))
        assert http.post(f"/v1/games/{gid}/start", headers=auth(game["host_token"])).status_code == 200
        made, deadline = 0, time.monotonic() + 120
        while made < 6 and time.monotonic() < deadline:
            pending = http.get(f"/v1/games/{gid}/choices", headers=auth(token)).json()
            if not pending.get("choices"):
                time.sleep(0.2)  # the bot's turn
                continue
            sent = http.post(
                f"/v1/games/{gid}/choices",
                json={"choice": pending["choices"][0], "decision_version": pending["decision_version"]},
                headers=auth(token),
            )
            made += sent.status_code == 200
        assert made == 6
        assert http.get(f"/v1/games/{gid}").json()["status"] == "in_progress"

    page = open_page(**PHONE)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/replay?" in request.url else None)
    replays: list[Request] = []
    page.on("requestfinished", lambda request: replays.append(request) if "/replay?" in request.url else None)
    page.goto("/play/")
    page.evaluate(
        "([gid, token]) => localStorage.setItem('tabletop.games', "
        "JSON.stringify({ [gid]: { seat: token, seatIndex: 0 } }))",
        [gid, token],
    )
    page.goto(f"/play/#/game/{gid}")
    page.locator("#replay-so-far").click()
    main = page.locator("#app")
    expect(main).to_have_attribute("data-seat", "0")
    moves = replay(base, gid, 0, token=token)["moves"]
    last = len(moves) - 1
    expect(main).to_have_attribute("data-step", str(last))
    expect(page.locator("#replay-seat")).to_have_count(0)  # no other view offered
    expect(page.locator("#replay-own-view")).to_contain_text("Aus deiner Sicht")
    page.locator("#replay-first").click()
    expect(main).to_have_attribute("data-step", "0")
    page.locator("#replay-forward").click()
    expect(main).to_have_attribute("data-step", "1")
    state = replay(base, gid, moves[1], token=token)["state"]
    assert state["you"]["seat"] == 0
    # Seat 0's own tile points are shown, the bot's are not known to it: "?".
    assert shown_scores(page, "keythedral", state) == scores("keythedral", state)
    expect(page.locator(".kt-players tbody tr[data-seat='1'] td").first).to_have_text("?")
    # Every replay the page read was seat 0's own, with its token; none showed another seat's hand.
    assert asked and all("seat=0" in url for url in asked), asked
    for request in replays:
        body = request.response().json()  # type: ignore[union-attr]
        assert body["seat"] == 0
        assert body["state"] is None or body["state"]["you"]["seat"] == 0
        assert request.headers.get("authorization") == f"Bearer {token}"
    assert page.evaluate("[...window.__i18nMissing]") == []

    # Someone else with the link: the game is still being played, so nothing to show.
    stranger = open_page(**PHONE)
    stranger.goto(f"/play/#/replay/{gid}/1")
    expect(stranger.locator("#replay-not-yet")).to_contain_text("läuft noch")
    expect(stranger.locator("#board")).to_have_count(0)
    assert httpx.get(f"{base}/v1/games/{gid}/replay", params={"at": moves[1], "seat": 1}).status_code == 409
    other = httpx.get(
        f"{base}/v1/games/{gid}/replay", params={"at": moves[1], "seat": 1}, headers=auth(token)
    )
    assert other.status_code == 403
