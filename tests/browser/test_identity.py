"""A person carries their identity to another device: the first seat they take creates a player
for the browser; the lobby's sign-in link, opened in another browser, lists the same games under
"My games" with whose turn it is, and opening one there gives that browser a seat token of its own
(the game is played on, as the same seat)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.flows import create_game, start


def test_the_sign_in_link_brings_my_games_and_my_seat_to_another_browser(
    open_page: Callable[..., Page],
) -> None:
    laptop = open_page()
    game_id = create_game(laptop, "im-schutze-der-burg", bots=1, name="Ann")
    start(laptop)
    expect(laptop.locator("#seal-pick")).to_be_visible()
    laptop.goto("/play/")
    mine = laptop.locator(f"#my-games li[data-game='{game_id}']")
    expect(mine).to_have_attribute("data-your-turn", "true")
    link = laptop.locator("#signin-link").input_value()
    phone = open_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(link)
    expect(phone.locator(f"#my-games li[data-game='{game_id}']")).to_contain_text("Your turn")
    phone.locator(f"#my-games li[data-game='{game_id}'] a").tap()
    expect(phone.locator('#seats li[data-seat="0"]')).to_contain_text("Ann (you)")
    expect(phone.locator("#seal-pick")).to_be_visible()  # the phone plays the seat now
    for card in phone.locator("#hand button.pick").all():
        if phone.locator("#seal-pick").is_enabled():
            break
        card.tap()
    phone.locator("#seal-pick").tap()
    expect(phone.locator("#turn")).not_to_contain_text("Choose your character")
