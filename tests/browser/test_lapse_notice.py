"""A lapsed clock is told on the seat panel (German phone): a bot moved for the player and how
many lapses in a row are left before it keeps the seat, also to a player back on the page; once
the bot keeps the seat, the player is told so and takes it back in one tap
(POST /v1/games/{id}/return)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import join_game

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}


def create_clocked(page: Page, slug: str, bots: int, options: dict[str, str] | None = None) -> str:
    page.goto("/play/#/new")
    page.select_option("#game-type", slug)
    for name, value in (options or {}).items():
        page.select_option(f"#opt-{name}", value)
    page.select_option("#clock-mode", "per_decision")
    page.fill("#clock-seconds", "5")  # the shortest clock the API accepts
    page.fill("#create-name", "Ann")
    page.fill("#bots", str(bots))
    page.select_option("#bot-level", "random")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#seats")).to_contain_text("Ann")
    return page.url.rsplit("/", 1)[-1]


def test_a_lapse_is_told_with_the_lapses_left_also_after_a_reload(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    create_clocked(page, "im-schutze-der-burg", bots=1)
    page.locator("#start").tap()
    # Nobody moves for Ann: after 5 s a bot plays her decision, and the panel says so.
    notice = page.locator("#lapse-notice")
    # The stand-in thinks in the bot pool, beside the suite's busy workers (at niceness 19 there
    # it once waited over 90 s for a core; the test servers run it at their own priority).
    expect(notice).to_contain_text("Ein Bot hat für dich gezogen", timeout=90_000)
    expect(notice).to_contain_text("in Folge, und der Bot behält deinen Platz")
    expect(page.locator('#seats li[data-seat="0"] .lapses')).to_contain_text("× Zeit abgelaufen")
    page.reload()  # back on the page: told again, from the game's view
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Noch ")


def test_the_seat_the_bot_keeps_is_taken_back_in_one_tap(open_page: Callable[..., Page]) -> None:
    ann = open_page(**PHONE)
    game_id = create_clocked(ann, "duel", bots=0, options={"rounds": "3"})
    bob = open_page(locale="de")
    join_game(bob, game_id, "Bob")
    ann.locator("#start").tap()
    back = ann.locator("#take-seat-back")
    # Bob plays each of his decisions at once; Ann never does: her third lapse in a row gives the
    # bot her seat, and the game then waits for Bob (5 s a decision), not for her.
    for _ in range(600):
        if back.is_visible():
            break
        moves = bob.locator("#actions button.choice")
        if moves.count():
            moves.first.click()
            bob.wait_for_function("!document.body.dataset.busy")
        else:
            bob.wait_for_timeout(50)
    expect(ann.locator("#lapse-notice")).to_contain_text(
        "Ein Bot spielt deinen Platz, bis du ihn zurücknimmst"
    )
    expect(back).to_have_text("Meinen Platz zurücknehmen")
    assert (back.bounding_box() or {"height": 0})["height"] >= 44
    back.tap()
    expect(back).to_have_count(0)
    seat = ann.request.get(f"/v1/games/{game_id}").json()["seats"][0]
    assert seat["stand_in"] is None, seat
