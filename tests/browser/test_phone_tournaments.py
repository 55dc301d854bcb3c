"""Tournaments on a phone (390×844, touch, German): the header leads to the tournaments' lobby,
a host creates a Swiss tournament there and plays in it, three more players register through the
REST API (the page shows them without a reload), the host starts it, round 1's pairings appear
with links to their games and "your game is ready" at the top of the host's screen; the other
table's game is played through the API and the host's game by tapping, and a second phone that
only watches the tournament page sees the standings change and round 2 paired without a reload.
Every control on these pages is 44 px tall or more."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import PHONE, assert_controls_44px
from tests.support.http import auth
from tests.support.servers import ServerProcess
from tests.support.tournament_api import Tourney
from tests.support.waiting import eventually

# Set on the page once; still there later means the page was never loaded again.
MARK = "window.__sameDocument = 'yes'"
SAME = "window.__sameDocument === 'yes'"


@pytest.fixture
def http(web_server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=web_server.base, timeout=30) as client:
        yield client


def opponent_moves(http: httpx.Client, game_id: str, seat: int, token: str) -> bool:
    """The API player at `seat` makes its first legal choice when the game waits for it."""
    state = http.get(f"/v1/games/{game_id}").json()
    decision = state.get("decision") or {}
    if (
        state["status"] != "in_progress"
        or seat not in decision.get("seats", [])
        or seat in decision.get("sealed", [])
    ):
        return False
    pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
    if not pending.get("choices"):
        return False
    body = {"choice": pending["choices"][0], "version": pending["version"]}
    answer = http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))
    return answer.status_code == 200


def test_a_swiss_tournament_on_a_german_phone(open_page: Callable[..., Page], http: httpx.Client) -> None:
    ann = open_page(**PHONE)
    ann.goto("/play/")
    nav = ann.locator("#nav-tournaments")
    expect(nav).to_have_text("Turniere")
    nav.tap()
    expect(ann.locator("h1")).to_have_text("Turniere")
    expect(ann.locator("#tournaments-registering")).to_have_attribute("aria-current", "page")
    assert_controls_44px(ann, "tournaments' lobby")

    ann.locator("#new-tournament-link").tap()
    form = ann.locator("#tournament-form")
    expect(form).to_be_visible()
    expect(ann.locator("#clock-mode")).to_have_value("per_decision")  # rated needs a clock
    expect(ann.locator("#tournament-rated")).to_be_checked()
    ann.fill("#tournament-name", "Vereinsabend")
    ann.select_option("#game-type", "duel")
    ann.locator("#opt-rounds").select_option("1")
    ann.select_option("#tournament-format", "swiss")
    expect(ann.locator("#tournament-format-help")).to_contain_text("Jede Runde")
    ann.fill("#tournament-rounds", "2")
    ann.fill("#tournament-max", "8")
    ann.fill("#create-name", "Ann")
    assert_controls_44px(ann, "new tournament")
    form.locator("button[type=submit]").tap()

    expect(ann.locator("#tournament-title")).to_have_text("Vereinsabend")
    expect(ann.locator("#registered")).to_contain_text("Ann")
    expect(ann.locator("#tournament-status")).to_contain_text("Anmeldung offen")
    tournament_id = ann.url.rsplit("/", 1)[-1]
    listed = http.get("/v1/tournaments", params={"status": "registering"}).json()
    assert any(t["id"] == tournament_id and t["rated"] and t["format"] == "swiss" for t in listed), listed
    assert_controls_44px(ann, "tournament, registering")

    # A second phone only watches the tournament's page from now on.
    watcher = open_page(**PHONE)
    watcher.goto(f"/play/#/tournament/{tournament_id}")
    expect(watcher.locator("#register")).to_have_text("Anmelden")
    for page in (ann, watcher):
        page.evaluate(MARK)

    club = Tourney([http])
    club.tournament_id = tournament_id
    club.register(["Bea", "Cem", "Dan"])
    for page in (ann, watcher):
        expect(page.locator("#entrants h2")).to_have_text("Spieler (4/8)")
        expect(page.locator("#standings-table tbody tr")).to_have_count(4)

    ann.locator("#start-tournament").tap()
    expect(ann.locator("#tournament-status")).to_contain_text("Runde 1 von 2")
    ready = ann.locator("#your-game")
    expect(ready).to_contain_text("Deine Partie in Runde 1 ist bereit")
    box = ready.bounding_box()
    assert box and box["y"] + box["height"] <= 844, f"'your game is ready' is below the first screen: {box}"
    round_one = club.wait_for_round(1)
    assert len(round_one["tables"]) == 2
    for page in (ann, watcher):
        tables = page.locator("#rounds [data-round='1'] li[data-game]")
        expect(tables).to_have_count(2)
        for table in round_one["tables"]:
            link = page.locator(f"#rounds li[data-game='{table['game_id']}'] a.game-link")
            expect(link).to_be_visible()
            assert table["game_id"] in (link.get_attribute("href") or "")
    assert_controls_44px(ann, "tournament, round 1")
    assert_controls_44px(watcher, "tournament, watched")

    ann_id = next(e["player_id"] for e in club.tournament()["entrants"] if e["name"] == "Ann")
    ann_table = next(t for t in round_one["tables"] if ann_id in [s["player_id"] for s in t["seats"]])
    other_table = next(t for t in round_one["tables"] if t is not ann_table)

    # The other table's game, through the API: the watcher's standings change without a reload.
    club.play_game(other_table["game_id"], [s["player_id"] for s in other_table["seats"]], seed=1)
    expect(watcher.locator(f"#rounds li[data-game='{other_table['game_id']}']")).to_contain_text("beendet")
    # The standings count the game's point for its two players: 1 and 0, or 0.5 each when the
    # random choices end it in a draw (its seed, hence its result, differs from run to run).
    table_rows = [
        watcher.locator(f"#standings-table tbody tr[data-player='{seat['player_id']}']")
        for seat in other_table["seats"]
    ]

    def table_points() -> float:
        return sum(float(row.get_attribute("data-points") or 0) for row in table_rows)

    eventually(lambda: table_points() == 1, 20, "the watcher's standings count the finished game")

    # Ann's game, by tapping on her phone, her opponent moving through the API.
    opponent = next(s for s in ann_table["seats"] if s["player_id"] != ann_id)
    taken = http.post(
        f"/v1/players/me/games/{ann_table['game_id']}/seats/{opponent['seat']}/token",
        headers=auth(club.players[opponent["player_id"]]),
    )
    assert taken.status_code == 200, taken.text
    opponent_token = taken.json()["token"]
    ann.locator("#your-game-link").tap()
    expect(ann.locator("#board, #actions").first).to_be_attached()
    assert ann.url.endswith(f"#/game/{ann_table['game_id']}"), ann.url
    scores = ann.locator("#scores")
    for _ in range(400):
        if scores.is_visible():
            break
        moved = opponent_moves(http, ann_table["game_id"], opponent["seat"], opponent_token)
        choices = ann.locator("#actions button.choice")
        if choices.count():
            choices.first.tap()
            ann.wait_for_function("!document.body.dataset.busy")
        elif not moved:
            ann.wait_for_timeout(100)
    expect(scores).to_be_visible()

    # Round 1 is over: round 2 is paired at once, and the watcher saw it all without a reload.
    expect(watcher.locator("#rounds [data-round='2'] li[data-game]")).to_have_count(2, timeout=60_000)
    expect(watcher.locator("#tournament-status")).to_contain_text("Runde 2 von 2")
    rows = watcher.locator("#standings-table tbody tr")
    shown = [float(p) for p in rows.evaluate_all("(rows) => rows.map((row) => row.dataset.points)")]
    assert sum(shown) == 2 and shown == sorted(shown, reverse=True), shown  # a point per table
    assert shown == [row["points"] for row in club.standings()], shown
    assert watcher.evaluate(SAME), "the watcher's page was loaded again"
    assert_controls_44px(watcher, "tournament, round 2, watched")
    back = ann.locator("#tournament-back")
    expect(back).to_have_text("Turnier: Vereinsabend")
    back.tap()
    expect(ann.locator("#your-game")).to_contain_text("Deine Partie in Runde 2 ist bereit")
    expect(ann.locator("#rounds [data-round='2']")).to_be_visible()
    assert_controls_44px(ann, "tournament, round 2")

    # Ann withdraws (after a question): her round 2 game is resigned, she is paired no more.
    ann.locator("#withdraw").tap()
    expect(ann.locator("#withdraw-question")).to_be_visible()
    ann.locator("#withdraw-confirm").tap()
    actions = ann.locator("#tournament-actions")
    expect(actions).to_contain_text("Du hast dich aus diesem Turnier zurückgezogen.")
    expect(ann.locator("#your-game")).to_have_count(0)
    expect(watcher.locator(f"#standings-table tr[data-player='{ann_id}']")).to_contain_text("zurückgezogen")
    assert watcher.evaluate(SAME)


def test_a_private_tournament_by_its_invite_link(open_page: Callable[..., Page], http: httpx.Client) -> None:
    host = open_page(**PHONE)
    host.goto("/play/#/tournaments/new")
    host.fill("#tournament-name", "Liga")
    host.select_option("#game-type", "duel")
    host.select_option("#tournament-format", "round_robin")
    expect(host.locator("#tournament-rounds")).to_be_hidden()  # a round robin counts its own
    host.locator("label[for=tournament-private]").tap()
    host.locator("label[for=tournament-play]").tap()
    expect(host.locator("#create-name")).to_be_hidden()  # the host does not play: no name asked
    host.locator("#tournament-form button[type=submit]").tap()
    invite = host.locator("#tournament-invite")
    expect(invite).to_be_visible()
    tournament_id = host.url.rsplit("/", 1)[-1]
    link = invite.input_value()
    assert f"#/tournament/{tournament_id}/" in link, link
    assert tournament_id not in str(http.get("/v1/tournaments").json())  # private: listed nowhere
    expect(host.locator("#start-tournament")).to_be_disabled()
    host.evaluate(MARK)

    bea = open_page(**PHONE)
    bea.goto(link)
    expect(bea.locator("#register-code")).to_have_count(0)  # the link carries the code
    bea.fill("#register-name", "Bea")
    bea.locator("#register").tap()
    expect(bea.locator("#registered")).to_contain_text("Bea")
    expect(host.locator("#entrants h2")).to_have_text("Spieler (1/32)")
    bea.locator("#unregister").tap()
    expect(bea.locator("#register")).to_be_visible()
    expect(host.locator("#entrants h2")).to_have_text("Spieler (0/32)")
    bea.locator("#register").tap()
    expect(bea.locator("#registered")).to_contain_text("Bea")
    code = link.rsplit("/", 1)[-1]
    cem = http.post("/v1/players", json={"name": "Cem"}).json()["token"]
    joined = http.post(
        f"/v1/tournaments/{tournament_id}/registrations", json={"invite_code": code}, headers=auth(cem)
    )
    assert joined.status_code == 200, joined.text
    expect(host.locator("#start-tournament")).to_be_enabled()
    assert_controls_44px(host, "private tournament, host")
    assert_controls_44px(bea, "private tournament, player")

    # "My tournaments" lists it for both browsers, though it is listed nowhere else.
    bea.goto("/play/#/tournaments")
    expect(bea.locator(f"#my-tournaments li[data-tournament='{tournament_id}']")).to_contain_text(
        "Anmeldung offen"
    )
    bea.goto(link)
    expect(bea.locator("#registered")).to_contain_text("Bea")

    host.locator("#cancel-tournament").tap()
    expect(host.locator("#cancel-question")).to_be_visible()
    host.locator("#cancel-confirm").tap()
    expect(host.locator("#tournament-status")).to_have_text("Das Turnier wurde abgesagt")
    expect(bea.locator("#tournament-status")).to_have_text("Das Turnier wurde abgesagt")
    expect(bea.locator("#tournament-live")).to_have_text("")  # over: the page stops following it
    assert host.evaluate(SAME)

    # Every text of these pages exists in every language.
    for lang in ("en", "fr", "es", "de"):
        bea.select_option("#lang-select", lang)
        expect(bea.locator("html")).to_have_attribute("lang", lang)
        expect(bea.locator("#tournament-settings")).to_be_visible()
        bea.goto("/play/#/tournaments")
        expect(bea.locator("#my-tournaments")).to_be_visible()
        bea.goto("/play/#/tournaments/new")
        expect(bea.locator("#tournament-form")).to_be_visible()
        bea.goto(link)
    assert bea.evaluate("[...window.__i18nMissing]") == []
