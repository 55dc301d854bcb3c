"""A person carries their identity to another device: the first seat they take creates a player
for the browser; the lobby's sign-in link, opened in another browser, lists the same games under
"My games" with whose turn it is, and opening one there gives that browser a seat token of its own
(the game is played on, as the same seat)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import create_game, start


def test_the_sign_in_link_brings_my_games_and_my_seat_to_another_browser(
    open_page: Callable[..., Page],
) -> None:
    laptop = open_page()
    game_id = create_game(laptop, "im-schutze-der-burg", bots=1, name="Ann")
    start(laptop)
    expect(laptop.locator("#seal-pick")).to_be_visible()
    laptop.goto("/play/")
    mine = laptop.locator(f"#your-turn li[data-game='{game_id}']")
    expect(mine).to_have_attribute("data-your-turn", "true")
    link = laptop.locator("#signin-link").input_value()
    # The same link as a QR code for a phone's camera, drawn by our server once the panel opens.
    laptop.locator("details.signin summary").click()
    qr = laptop.locator("#signin-qr")
    expect(qr).to_be_visible()
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:')")
    assert qr.get_attribute("alt")
    phone = open_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(link)
    expect(phone.locator(f"#your-turn li[data-game='{game_id}']")).to_contain_text("Your turn")
    phone.locator(f"#your-turn li[data-game='{game_id}'] a").tap()
    expect(phone.locator('#seats li[data-seat="0"]')).to_contain_text("Ann (you)")
    expect(phone.locator("#seal-pick")).to_be_visible()  # the phone plays the seat now
    for card in phone.locator("#hand button.pick").all():
        if phone.locator("#seal-pick").is_enabled():
            break
        card.tap()
    phone.locator("#seal-pick").tap()
    expect(phone.locator("#turn")).not_to_contain_text("Choose your character")


def test_the_first_device_keeps_playing_after_a_second_one_takes_the_seat(
    open_page: Callable[..., Page],
) -> None:
    """Opening the game on the phone gives the seat a new token and kills the laptop's; the
    laptop's page, left open, renews its own through the identity at its next request and plays
    on, and the phone then does the same: both follow the one seat without a reload."""
    laptop = open_page()
    game_id = create_game(laptop, "im-schutze-der-burg", bots=1, name="Ann")
    start(laptop)
    expect(laptop.locator("#seal-pick")).to_be_visible()
    old_token = laptop.evaluate(f"JSON.parse(localStorage.getItem('tabletop.games'))['{game_id}'].seat")
    identity = laptop.evaluate("localStorage.getItem('tabletop.player')")
    phone = open_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"/play/#/signin/{identity}")
    phone.locator(f"#your-turn li[data-game='{game_id}'] a").tap()
    expect(phone.locator("#seal-pick")).to_be_visible()
    refused = laptop.request.get(f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {old_token}"})
    assert refused.status == 401  # the laptop's token is dead now

    for card in laptop.locator("#hand button.pick").all():
        if laptop.locator("#seal-pick").is_enabled():
            break
        card.click()
    laptop.locator("#seal-pick").click()
    expect(laptop.locator("#turn")).not_to_contain_text("Choose your character")
    expect(laptop.locator("#game-error")).to_have_text("")
    expect(laptop.locator('#seats li[data-seat="0"]')).to_contain_text("Ann (you)")
    renewed = laptop.evaluate(f"JSON.parse(localStorage.getItem('tabletop.games'))['{game_id}'].seat")
    assert renewed != old_token

    # The phone's page follows the move live and, its own token now dead, renews it in turn (a
    # renewal and a new subscription: up to 20 s on a loaded test machine, where 5 s once ran out).
    expect(phone.locator("#turn")).not_to_contain_text("Choose your character", timeout=20_000)
    expect(phone.locator('#seats li[data-seat="0"]')).to_contain_text("Ann (you)", timeout=20_000)
    expect(phone.locator("#game-error")).to_have_text("")
