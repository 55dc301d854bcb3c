"""A seat's clock, presence, resignation and rematch in the browser (on the test-only duel game)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import create_game, join_game, start


def create_duel_with_clock(page: Page, seconds: int) -> str:
    page.goto("/play/#/new")
    page.select_option("#game-type", "duel")
    page.select_option("#clock-mode", "per_decision")
    page.fill("#clock-seconds", str(seconds))
    page.fill("#create-name", "Ann")
    page.fill("#bots", "1")
    page.select_option("#bot-level", "random")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#seats")).to_contain_text("Ann")
    return page.url.rsplit("/", 1)[-1]


def test_a_clocked_game_ticks_shows_who_is_online_and_resigning_hands_the_seat_to_a_bot(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    create_duel_with_clock(page, 600)
    start(page)
    ann, bot = page.locator('#seats li[data-seat="0"]'), page.locator('#seats li[data-seat="1"]')
    expect(ann.locator(".presence")).to_have_attribute("data-connected", "true")
    expect(ann.locator(".presence")).to_contain_text("online")
    expect(bot.locator(".presence")).to_have_count(0)  # a bot is neither online nor offline
    clock = ann.locator(".clock.running .clock-time")
    first = clock.inner_text()
    assert first.startswith(("10:00", "9:5")), first
    expect(clock).not_to_have_text(first)  # it ticks without any new event

    page.click("#resign")
    expect(page.locator("#resign-question")).to_contain_text("Really resign?")
    page.click("#resign-cancel")
    expect(page.locator("#resign-question")).to_have_count(0)
    page.click("#resign")
    page.click("#resign-confirm")
    expect(ann.locator(".stand-in")).to_contain_text("resigned")
    expect(page.locator("#scores")).to_be_visible(timeout=60_000)  # bots play both seats to the end
    expect(page.locator("#resign")).to_have_count(0)


def test_a_rematch_from_a_finished_game_opens_the_next_game_with_the_same_seats(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    first_id = create_duel_with_clock(page, 600)
    start(page)
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator("#scores")).to_be_visible(timeout=60_000)
    page.click("#rematch")
    expect(page).not_to_have_url(re.compile(f"{first_id}$"))
    second_id = page.url.rsplit("/", 1)[-1]
    assert second_id != first_id
    # Ann took her held seat and the bot sat down by itself: every seat is taken, so it starts.
    expect(page.locator("#seats")).to_contain_text("Random bot")
    expect(page.locator("#start")).to_have_count(0)
    expect(page.locator('#seats li[data-seat="0"]')).to_contain_text("Ann (you)")
    expect(page.locator('#seats li[data-seat="0"] .stand-in')).to_have_count(0)
    expect(page.locator('#seats li[data-seat="0"] .clock.running')).to_be_visible()
    page.goto(f"/play/#/game/{first_id}")
    page.click("#next-game")  # the finished game links to its rematch
    expect(page).to_have_url(re.compile(f"#/game/{second_id}$"))
    expect(page.locator('#seats li[data-seat="0"]')).to_contain_text("Ann (you)")


def test_the_resign_question_stays_open_when_the_page_is_drawn_again(
    open_page: Callable[..., Page],
) -> None:
    """The page is drawn again whenever something happens (a move, presence, a turned phone): a
    person who has just asked to resign still sees the question, with the focus where it was,
    instead of the plain button coming back under their pointer (it did, and a CI run's click on
    "Yes, resign" then waited for a button that no longer existed). The redraw changes only what
    differs, so the very button stays on the page."""
    page = open_page()
    create_duel_with_clock(page, 600)
    start(page)
    page.click("#resign")
    expect(page.locator("#resign-cancel")).to_be_focused()
    page.locator("#resign-confirm").focus()
    page.evaluate(
        "() => { window.__before = document.querySelector('#resign-confirm'); "
        "window.__drawn = Number(document.getElementById('app').dataset.drawn); "
        "window.dispatchEvent(new Event('resize')); }"
    )
    page.wait_for_function("() => Number(document.getElementById('app').dataset.drawn) > window.__drawn")
    assert page.evaluate("() => document.querySelector('#resign-confirm') === window.__before")
    expect(page.locator("#resign-question")).to_be_visible()
    expect(page.locator("#resign-confirm")).to_be_focused()
    page.click("#resign-cancel")
    expect(page.locator("#resign")).to_be_focused()
    page.evaluate(
        "() => { window.__drawn = Number(document.getElementById('app').dataset.drawn); "
        "window.dispatchEvent(new Event('resize')); }"
    )
    page.wait_for_function("() => Number(document.getElementById('app').dataset.drawn) > window.__drawn")
    expect(page.locator("#resign-question")).to_have_count(0)
    page.click("#resign")
    page.click("#resign-confirm")
    expect(page.locator('#seats li[data-seat="0"] .stand-in')).to_be_visible()


def play_first_moves(*pages: Page) -> None:
    """Each person makes the first listed move whenever it is theirs, until the game is over."""
    while not all(page.locator("#scores").is_visible() for page in pages):
        moved = False
        for page in pages:
            moves = page.locator("#actions button.choice")
            if moves.count():
                moves.first.click()
                page.wait_for_function("!document.body.dataset.busy")
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)


def test_everyone_sees_the_rematch_offer_live_joins_it_in_place_and_it_starts_by_itself(
    open_page: Callable[..., Page],
) -> None:
    ann = open_page()
    first_id = create_game(ann, "duel", bots=0, name="Ann")
    bob = open_page()
    join_game(bob, first_id, "Bob")
    expect(ann.locator("#seats")).to_contain_text("Bob")
    start(ann)
    play_first_moves(ann, bob)
    expect(bob.locator("#next-game")).to_have_count(0)
    ann.click("#rematch")
    expect(ann).not_to_have_url(re.compile(f"{first_id}$"))
    # Bob's page, untouched since the end, offers the rematch within seconds (no reload).
    bob.locator("#next-game").click(timeout=15_000)
    expect(bob).not_to_have_url(re.compile(f"{first_id}$"))
    for page in (ann, bob):
        expect(page.locator("#start")).to_have_count(0)
        expect(page.locator("#turn")).not_to_contain_text("Waiting for players", timeout=15_000)
    expect(bob.locator('#seats li[data-seat="1"]')).to_contain_text("Bob (you)")
