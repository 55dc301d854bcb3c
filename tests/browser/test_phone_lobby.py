"""The lobby on a phone (390×844, touch, German): "Your turn" and "My games" in the first screen,
"Play now" (the oldest open game of a type, else a new one that bots fill after the wait chosen),
"Play again" in one tap, the new game's form as a step of its own with option values and bots
named in the page's language, and every control 44 px tall or more on the lobby, the form, a game
in play and its end screen."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import PHONE, assert_controls_44px, create_game


def fill_open_games(page: Page, slug: str) -> None:
    """No listed game of `slug` is left with a free seat: the page's "Play now" must open one."""
    for _ in range(50):
        listed = page.request.get(f"/v1/games?type={slug}&joinable=true&limit=50").json()["items"]
        if not listed:
            return
        for game in listed:
            for _seat in range(game["max_players"] - game["players"]):
                page.request.post(f"/v1/games/{game['id']}/seats", data={"name": "Filler"})
    raise AssertionError(f"open {slug} games keep appearing")


def german_bot_names(page: Page) -> list[str]:
    """The bot levels' German names, strongest first (as the form offers them)."""
    levels = page.request.get("/v1/game-types/duel?lang=de").json()["bot_levels"]
    return [str(level["name"]) for level in reversed(levels)]


def oldest_open(page: Page, slug: str) -> str:
    listed = page.request.get(f"/v1/games?type={slug}&joinable=true&limit=50").json()["items"]
    return str(max(listed, key=lambda game: game["age_seconds"])["id"])


def test_play_now_fills_with_bots_and_the_lobby_puts_your_turn_first(open_page: Callable[..., Page]) -> None:
    ann = open_page(**PHONE)
    ann.goto("/play/")
    expect(ann.locator("#play-now")).to_be_visible()
    assert ann.locator("#play-now button[type=submit]").bounding_box()["y"] < 844  # type: ignore[index]
    assert_controls_44px(ann, "lobby, first visit")
    fill_open_games(ann, "im-schutze-der-burg")
    ann.select_option("#play-now-type", "im-schutze-der-burg")
    ann.select_option("#play-now-wait", "0")
    ann.fill("#play-now-name", "Ann")
    ann.locator("#play-now button[type=submit]").tap()
    # No open game: a new one, where a bot takes the free seat at once and the game starts.
    expect(ann.locator("#seal-pick")).to_be_visible()
    strongest = german_bot_names(ann)[0]
    expect(ann.locator("#seats")).to_contain_text(f"Bot {strongest}")
    expect(ann.locator("#seats")).not_to_contain_text("greedy bot")
    expect(ann.locator("#log")).to_contain_text(f"Bot {strongest} ist beigetreten.")
    assert_controls_44px(ann, "game in play")
    game_id = ann.url.rsplit("/", 1)[-1]
    ann.goto("/play/")
    mine = ann.locator(f"#your-turn li[data-game='{game_id}']")
    expect(mine).to_contain_text("Du bist dran")
    box = mine.bounding_box()
    assert box and box["y"] + box["height"] <= 844, f"'Your turn' is below the first screen: {box}"
    title = ann.locator("#my-games-title").bounding_box()
    assert title and title["y"] + title["height"] <= 844, f"'My games' is below the first screen: {title}"
    assert_controls_44px(ann, "lobby with my games")


def test_play_now_takes_the_oldest_open_game_and_a_wait_can_be_cut_short(
    open_page: Callable[..., Page],
) -> None:
    ann = open_page(**PHONE)
    ann.goto("/play/")
    fill_open_games(ann, "keythedral")
    ann.select_option("#play-now-type", "keythedral")
    ann.select_option("#play-now-wait", "300")
    ann.fill("#play-now-name", "Ann")
    ann.locator("#play-now button[type=submit]").tap()
    expect(ann.locator("#bot-fill")).to_be_visible()  # waiting 5 minutes for people
    ann_game = ann.url.rsplit("/", 1)[-1]
    assert oldest_open(ann, "keythedral") == ann_game
    bob = open_page(**PHONE)
    bob.goto("/play/")
    bob.select_option("#play-now-type", "keythedral")
    bob.fill("#play-now-name", "Bob")
    bob.locator("#play-now button[type=submit]").tap()
    expect(bob.locator("#seats")).to_contain_text("Bob (du)")
    assert bob.url.rsplit("/", 1)[-1] == ann_game
    expect(ann.locator("#seats")).to_contain_text("Bob")
    ann.locator("#bot-fill-now").tap()  # two people are enough: no bot needed, the game starts
    expect(ann.locator("#board svg").first).to_be_visible()
    expect(ann.locator("#seats li")).to_have_count(2)
    expect(bob.locator("#board svg").first).to_be_visible()


def test_the_new_game_step_names_every_option_value_in_german(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    page.goto("/play/")
    page.locator("#new-game-link").tap()
    expect(page.locator("#create-form")).to_be_visible()
    page.select_option("#game-type", "carcassonne")
    farms = page.locator("#opt-farm_scoring option")
    expect(farms.first).to_have_text("aktuell: 3 je Stadt und Wiese")
    shown = page.locator("#create-form select option").all_inner_texts()
    raw = {"mandatory", "optional", "none", "current", "classic", "v3", "v2", "v1", "short", "full"}
    assert not raw & {text.strip() for text in shown}, shown
    page.select_option("#game-type", "keythedral")
    expect(page.locator("#opt-length option").first).to_have_text("kurz (17 Bauplättchen)")
    page.select_option("#clock-mode", "fischer")
    assert_controls_44px(page, "new game")
    card = page.locator("#create-form").bounding_box()
    clock = page.locator("#create-form .clock-options").bounding_box()
    assert card and clock and clock["x"] + clock["width"] <= card["x"] + card["width"], (card, clock)
    bots = page.locator("#bot-level option").all_inner_texts()
    assert bots == german_bot_names(page) and "Zufall" in bots, bots


def test_the_end_screen_and_play_again_in_one_tap(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    game_id = create_game(page, "duel", bots=1)
    page.locator("#start").tap()
    scores = page.locator("#scores")
    for _ in range(200):
        if scores.is_visible():
            break
        moves = page.locator("#actions button.choice")
        if moves.count():
            moves.first.tap()
            page.wait_for_function("!document.body.dataset.busy")
        else:
            page.wait_for_timeout(50)
    expect(scores).to_be_visible()
    assert_controls_44px(page, "end screen")
    # Ranked: first place first, the score tables below in the same order; words hyphenated in German.
    ranked = page.locator("#scores tbody tr").evaluate_all(
        "(rows) => rows.map((row) => [Number(row.dataset.rank), Number(row.lastElementChild.textContent)])"
    )
    assert ranked[0][0] == 1 and [r for r, _ in ranked] == sorted(r for r, _ in ranked), ranked
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True) or ranked[0][0] == ranked[
        1
    ][0]
    sections = page.locator(".player-result").evaluate_all(
        "(nodes) => nodes.map((node) => Number(node.dataset.rank))"
    )
    assert sections == [r for r, _ in ranked], sections
    expect(page.locator(".player-result h3").first).to_contain_text("Platz 1")
    assert page.evaluate("[document.documentElement.lang, getComputedStyle(document.body).hyphens]") == [
        "de",
        "auto",
    ]
    page.goto("/play/")
    entry = page.locator(f"#my-games li[data-game='{game_id}']")
    expect(entry).to_contain_text("beendet")
    entry.locator("button.play-again").tap()
    expect(page.locator("#seats")).to_contain_text("Ann (du)")
    assert page.url.rsplit("/", 1)[-1] != game_id
