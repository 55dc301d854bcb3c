"""The lobby and a whole game in the browser, on the test-only duel game (no board of its own)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import click_first_move, create_game, join_game, play_to_end, start


def test_a_person_creates_a_game_against_a_bot_and_plays_it_to_the_final_scores(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    page.goto("/play/#/new")
    expect(page.locator("#game-type")).to_contain_text("Carcassonne")
    expect(page.locator("#create-form .help").first).not_to_be_empty()
    create_game(page, "duel", bots=1)
    expect(page.locator("#invite-link")).to_have_value(page.url.replace("#/game/", "#/join/"))
    start(page)
    moves = play_to_end(page, click_first_move)
    assert moves >= 1
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    expect(page.locator("#log")).to_contain_text("Game over")
    page.reload()
    expect(page.locator("#create-name")).to_have_count(0)
    page.goto("/play/#/new")
    expect(page.locator("#create-name")).to_have_value("Ann")


def test_a_private_game_is_not_listed_and_a_friend_joins_it_with_the_invite_link(
    open_page: Callable[..., Page],
) -> None:
    ann = open_page()
    ann.goto("/play/#/new")
    ann.select_option("#game-type", "im-schutze-der-burg")
    ann.check("#private")
    ann.fill("#create-name", "Ann")
    ann.fill("#bots", "1")
    ann.click("#create-form button[type=submit]")
    expect(ann.locator("#seats")).to_contain_text(re.compile(r"[A-Z]\w+ bot"))  # named by its level
    game_id = ann.url.rsplit("/", 1)[-1]
    link = ann.locator("#invite-link").input_value()
    assert f"#/join/{game_id}/" in link  # the invite code travels in the link
    bob = open_page()
    bob.goto("/play/")
    expect(bob.locator("#open-games")).to_be_visible()
    assert game_id not in bob.locator("#open-games").inner_html()
    bob.goto(link)
    bob.fill("#join-name", "Bob")
    bob.click("#join-form button[type=submit]")
    expect(bob.locator("#seats")).to_contain_text("Bob (you)")
    expect(ann.locator("#seats")).to_contain_text("Bob")
    start(ann)
    expect(bob.locator("#seal-pick")).to_be_visible()


def test_open_games_show_creator_age_clock_and_rating_filter_and_the_host_blocks_a_squatter(
    open_page: Callable[..., Page],
) -> None:
    ann = open_page()
    game_id = create_game(ann, "duel", bots=0, name="Ann")
    bob = open_page()
    bob.goto("/play/")
    entry = bob.locator(f'#open-games li[data-game="{game_id}"]')
    expect(entry).to_contain_text("by Ann (no finished game yet)")
    expect(entry).to_contain_text("just now")
    expect(entry).to_contain_text("1 seated (1/3: Ann)")
    expect(entry).to_contain_text("no clock")
    expect(entry).to_contain_text("not rated: The game has no turn clock.")
    bob.select_option("#filter-clock", "per_decision")
    bob.click("#lobby-filters button[type=submit]")
    expect(entry).to_have_count(0)
    bob.select_option("#filter-clock", "none")
    bob.fill("#filter-seats", "2")
    bob.click("#lobby-filters button[type=submit]")
    expect(entry).to_be_visible()
    bob.fill("#filter-seats", "3")
    bob.click("#lobby-filters button[type=submit]")
    expect(entry).to_have_count(0)

    join_game(bob, game_id, "Squat")
    expect(ann.locator("#seats")).to_contain_text("Squat")
    ann.click('#seats li[data-seat="1"] button.remove-seat')
    expect(ann.locator("#seats")).not_to_contain_text("Squat")
    bob.goto(f"/play/#/join/{game_id}")
    bob.fill("#join-name", "Squat again")
    bob.click("#join-form button[type=submit]")
    expect(bob.locator("#join-form .error")).to_contain_text("blocked")
