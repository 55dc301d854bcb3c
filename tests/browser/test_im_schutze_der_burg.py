"""Im Schutze der Burg in the browser: a whole game against a bot by clicking the board, and the
secret pick of one person sealed for another until the reveal."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import (
    create_game,
    join_game,
    play_moves,
    play_to_end,
    save_for_readme,
    save_screenshot,
    start,
)


def settle(page: Page) -> None:
    page.wait_for_function("!document.body.dataset.busy")


def pick_cards(page: Page) -> bool:
    """Select cards in the hand until the pick can be sealed, then seal it."""
    seal = page.locator("#seal-pick")
    if not seal.count():
        return False
    for card in page.locator("#hand button.pick").all():
        if seal.is_enabled():
            break
        card.click()
    seal.click()
    settle(page)
    return True


def one_move(page: Page) -> bool:
    """Whatever the board offers first: a step of a move, the pick, a board target, or done/pass."""
    for selector in ("#step button.step-choice", "#board svg .target", "#board button.worker-card"):
        target = page.locator(selector)
        if target.count():
            target.first.click()
            settle(page)
            return True
    if pick_cards(page):
        return True
    other = page.locator("#actions button.other-move")
    if other.count():
        other.first.click()
        settle(page)
        return True
    return False


def test_a_person_plays_a_whole_game_against_a_bot_by_clicking_the_castle(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    create_game(page, "im-schutze-der-burg", bots=1)
    start(page)
    expect(page.locator("#board .isdb-castle")).to_be_visible()
    play_moves(page, one_move, 14)
    save_for_readme(page, "readme-im-schutze-der-burg")
    moves = play_to_end(page, one_move)
    assert moves > 12
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    save_for_readme(page, "readme-im-schutze-der-burg-end", at="result")
    expect(page.locator("#result .player-result table.details")).to_have_count(2)  # a table per player
    expect(page.locator("#result .player-result").first).to_contain_text("Points at the end")


def test_a_second_person_sees_the_first_pick_sealed_until_the_reveal(open_page: Callable[..., Page]) -> None:
    ann = open_page()
    game_id = create_game(ann, "im-schutze-der-burg", bots=0, name="Ann")
    bob = open_page()
    join_game(bob, game_id, "Bob")
    expect(bob.locator("#seats")).to_contain_text("Ann")
    expect(ann.locator("#seats")).to_contain_text("Bob")
    start(ann)
    expect(ann.locator("#seal-pick")).to_be_visible()
    ann_cards: list[str | None] = []
    for card in ann.locator("#hand button.pick").all():
        if ann.locator("#seal-pick").is_enabled():
            break
        card.click()
        ann_cards.append(card.get_attribute("data-card"))
    ann.locator("#seal-pick").click()
    expect(ann.locator("#my-sealed-pick")).to_be_visible()
    ann_row = bob.locator(".isdb-players tr[data-seat='0'] td.picks")
    expect(ann_row.locator(".sealed")).to_be_visible()
    expect(bob.locator("#my-sealed-pick")).to_have_count(0)
    assert not bob.locator(".isdb-players td.picks [data-card]").count()
    save_screenshot(bob, "isdb-pick-sealed-for-others")
    for card in bob.locator("#hand button.pick").all():
        if bob.locator("#seal-pick").is_enabled():
            break
        card.click()
    bob.locator("#seal-pick").click()
    for picked in ann_cards:
        expect(
            bob.locator(f".isdb-players tr[data-seat='0'] td.picks [data-card='{picked}']")
        ).to_be_visible()
