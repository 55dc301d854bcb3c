"""Table talk in the web client: two people chat live, a reload keeps the history, hostile
messages stay inert text in a bounded box (also on a phone), the host mutes, a player hides."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import create_game, join_game, save_screenshot, stop_first_item

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def chat_ready(page: Page) -> None:
    expect(page.locator("#chat")).to_have_attribute("data-ready", "true")


def messages(page: Page) -> list[str]:
    return page.locator("#chat-log li[data-seat] .chat-text").all_inner_texts()


def test_two_people_chat_live_in_their_own_languages_and_a_reload_keeps_the_history(
    open_page: Callable[..., Page],
) -> None:
    ann = open_page()
    game_id = create_game(ann, "duel", bots=0, name="Ann")
    bob = open_page(locale="de")
    join_game(bob, game_id, "Bob")
    chat_ready(ann)
    chat_ready(bob)
    say(ann, "Hello Bob, ready?")
    expect(bob.locator("#chat-log")).to_contain_text("Hello Bob, ready?")
    bob.click("#chat-phrases button[data-phrase='good_luck']")
    expect(bob.locator("#chat-log")).to_contain_text("Viel Glück!")
    expect(ann.locator("#chat-log")).to_contain_text("Good luck!")  # the phrase in Ann's language
    expect(ann.locator("#chat-log li[data-seat='1']")).to_contain_text("Bob")

    bob.reload()
    chat_ready(bob)
    assert messages(bob) == ["Hello Bob, ready?", "Viel Glück!"]
    say(ann, "after your reload")
    expect(bob.locator("#chat-log")).to_contain_text("after your reload")
    assert len(messages(bob)) == 3  # live again after the reload, nothing twice
    save_screenshot(bob, "chat-two-people")


def test_a_chat_stream_ended_by_database_unavailable_is_followed_again_after_its_wait(
    open_page: Callable[..., Page],
) -> None:
    """The guide's rule for a stream the database stopped, for the chat as for the game: Bob's
    page subscribes again after ``retry_after`` from its last entry, so the entry the error took
    the place of, and those after it, each show once (it used to stop following for good)."""
    ann = open_page()
    game_id = create_game(ann, "duel", bots=0, name="Ann")
    bob = open_page()
    stopped = stop_first_item(bob, "chat", "chatMessages", lambda entry: bool(entry.get("seq")))
    join_game(bob, game_id, "Bob")
    chat_ready(ann)
    chat_ready(bob)
    say(ann, "first, stopped on its way")
    expect(ann.locator("#chat-log")).to_contain_text("first, stopped on its way")
    expect(bob.locator("#chat-log")).to_contain_text("first, stopped on its way", timeout=15_000)
    assert stopped, "no chat entry came over Bob's socket"
    say(ann, "second, after the wait")
    expect(bob.locator("#chat-log")).to_contain_text("second, after the wait")
    assert messages(bob) == ["first, stopped on its way", "second, after the wait"]


def test_hostile_messages_render_as_inert_bounded_text_on_a_phone(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    create_game(page, "duel", bots=1, name="Ann")
    chat_ready(page)
    script = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'
    say(page, script)
    expect(page.locator("#chat-log")).to_contain_text("<script>window.__pwned = 1</script>")
    assert page.locator("#chat-log script, #chat-log img").count() == 0
    assert page.evaluate("window.__pwned") is None

    for refused in ("\u202eevil override", "zero" + "\u200b" * 200 + "width", "\u2066isolate"):
        say(page, refused)
        expect(page.locator("#chat-error")).not_to_be_empty()
        page.fill("#chat-input", "")
    # A 10,000-character line: the input stops at 500; forced past it, the server refuses it.
    page.fill("#chat-input", "w" * 10_000)
    assert len(page.input_value("#chat-input")) == 500
    page.evaluate("document.getElementById('chat-input').value = 'w'.repeat(10000)")
    page.click("#chat-send")
    expect(page.locator("#chat-error")).not_to_be_empty()
    assert len(messages(page)) == 1

    long_line = "W" * 500  # the longest line accepted, without a single break opportunity
    say(page, long_line)
    expect(page.locator("#chat-log li[data-seat]")).to_have_count(2)
    log_overflow = page.evaluate("(l => l.scrollWidth - l.clientWidth)(document.getElementById('chat-log'))")
    assert log_overflow <= 1, f"the chat scrolls sideways by {log_overflow} px"
    page_overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert page_overflow <= 1, f"the page scrolls sideways by {page_overflow} px"
    box = page.locator("#chat-log").bounding_box()
    assert box is not None and box["width"] <= 390 and box["height"] <= 844 / 2
    save_screenshot(page, "chat-hostile-phone")


def test_the_host_mutes_a_seat_and_a_player_hides_another_for_itself(open_page: Callable[..., Page]) -> None:
    ann = open_page()
    game_id = create_game(ann, "duel", bots=0, name="Ann")
    bob = open_page()
    join_game(bob, game_id, "Bob")
    chat_ready(ann)
    chat_ready(bob)
    say(ann, "first from Ann")
    say(bob, "first from Bob")
    expect(ann.locator("#chat-log")).to_contain_text("first from Bob")

    ann.click("#chat .chat-settings summary")
    ann.click("#chat-seats button.chat-mute[data-seat='1']")
    expect(bob.locator("#chat-log li[data-kind='muted']")).to_have_count(1)
    expect(bob.locator("#chat-input")).to_be_disabled()
    expect(bob.locator("#chat-read-only")).to_be_visible()
    ann.click("#chat-seats button.chat-mute[data-seat='1']")  # unmute
    expect(bob.locator("#chat-input")).to_be_enabled()

    bob.click("#chat .chat-settings summary")
    bob.click("#chat-seats button.chat-hide[data-seat='0']")
    expect(bob.locator("#chat-log li[data-seat='0']")).to_have_count(0)
    say(ann, "Bob no longer reads me")
    expect(ann.locator("#chat-log")).to_contain_text("Bob no longer reads me")
    say(bob, "still here")
    expect(ann.locator("#chat-log")).to_contain_text("still here")
    assert "Bob no longer reads me" not in bob.locator("#chat-log").inner_text()
    assert "first from Ann" not in bob.locator("#chat-log").inner_text()
    bob.click("#chat-seats button.chat-hide[data-seat='0']")  # show again: everything is back
    expect(bob.locator("#chat-log")).to_contain_text("Bob no longer reads me")
    expect(bob.locator("#chat-log")).to_contain_text("first from Ann")
