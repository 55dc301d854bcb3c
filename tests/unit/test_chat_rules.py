"""The chat's rules, without I/O: what text may say, the rate limit, and who sees which entry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.errors import InvalidChatMessage
from domain.model.chat import (
    BURST,
    BURST_WINDOW,
    HIDDEN,
    MAX_MESSAGE_LENGTH,
    MESSAGE,
    MUTED,
    ChatEntry,
    check_phrase,
    clean_message,
    retry_after,
)

NOW = datetime(2026, 11, 26, 1, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "\u202eoverride",
        "isolate\u2067",
        "zero\u200bwidth",
        "\u200d\u200d\u200d",
        "two\nlines",
        "tab\there",
        "bell\x07",
        "\ue000private",
        "\u2800",
        "e\u0301\u0301\u0301\u0301\u0301",
        "",
        "   ",
        "x" * (MAX_MESSAGE_LENGTH + 1),
    ],
)
def test_text_that_hides_misleads_or_floods_is_refused(text: str) -> None:
    with pytest.raises(InvalidChatMessage):
        clean_message(text)


ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
"""A real emoji flag: the black flag and the tag sequence ``gbeng``, ended by a cancel tag."""


@pytest.mark.parametrize(
    "text",
    [
        "\u034f",  # combining grapheme joiner alone
        "\ufe0f",  # a variation selector alone
        "\ufe0e\ufe0f\U000e0100",
        " \ufe0f ",
        "\u17b4",  # Khmer inherent vowel: draws nothing
        "\u17b5",
        "\u0301",  # a mark on nothing
        "pass\u034fword",  # an invisible joiner inside a word
        "ab\u034fc\u034fd",
        "x\ufe0f\ufe0f\ufe0f",  # selectors piled on one letter
        "\U000e0067\U000e0062\U000e007f",  # tags with no flag to modify
        "\U0001f3f4\U000e0067\U000e0062",  # a tag sequence without its cancel tag
        "\U0001f3f4\U000e007f",  # a cancel tag with no tag before it
        "hi\U000e0067\U000e007f",
    ],
)
def test_text_that_renders_blank_or_hides_characters_is_refused(text: str) -> None:
    with pytest.raises(InvalidChatMessage):
        clean_message(text)


@pytest.mark.parametrize(
    "text",
    [
        ENGLAND,
        f"go {ENGLAND}!",
        "\u2764\ufe0f",  # a heart in emoji presentation
        "1\ufe0f\u20e3",  # a keycap
        "\u8fbb\U000e0100",  # an ideographic variant
        "\u1780\u17b6",  # Khmer with a real vowel sign
    ],
)
def test_text_judged_by_what_renders_emoji_flags_and_variants_pass(text: str) -> None:
    assert clean_message(text) == text


def test_text_is_nfc_normalised_and_spaces_collapsed_but_compatibility_forms_kept() -> None:
    assert clean_message("  cafe\u0301   au  lait ") == "café au lait"
    assert clean_message("ｗｉｄｅ") == "ｗｉｄｅ"  # full-width is the writer's choice, unlike names
    assert clean_message("x" * MAX_MESSAGE_LENGTH) == "x" * MAX_MESSAGE_LENGTH


def test_a_joiner_inside_an_emoji_sequence_is_kept_and_nowhere_else() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean_message(family) == family
    assert clean_message("\U0001f3f3\ufe0f\u200d\U0001f308") == "\U0001f3f3\ufe0f\u200d\U0001f308"
    with pytest.raises(InvalidChatMessage):
        clean_message("a\u200db")
    with pytest.raises(InvalidChatMessage):
        clean_message("\U0001f468\u200d\u200d\U0001f469")


def test_only_known_phrases_are_accepted() -> None:
    assert check_phrase("good_game") == "good_game"
    with pytest.raises(InvalidChatMessage):
        check_phrase("<b>gg</b>")


def test_a_seat_waits_once_its_burst_is_spent_until_the_oldest_leaves_the_window() -> None:
    recent = [NOW - timedelta(seconds=s) for s in range(BURST - 1)]
    assert retry_after(recent, NOW) is None
    recent.append(NOW - timedelta(seconds=4))
    wait = retry_after(recent, NOW)
    assert wait == pytest.approx((BURST_WINDOW - timedelta(seconds=4)).total_seconds())
    old = [NOW - BURST_WINDOW - timedelta(seconds=1)] * 10
    assert retry_after(old, NOW) is None


def test_hide_entries_are_private_and_hidden_seats_messages_are_left_out() -> None:
    hide = ChatEntry("g", 3, HIDDEN, NOW, seat=0, target=1)
    assert hide.visible_to(0, frozenset()) and not hide.visible_to(1, frozenset())
    assert not hide.visible_to(None, frozenset())
    message = ChatEntry("g", 4, MESSAGE, NOW, seat=1, text="hi")
    assert message.visible_to(None, frozenset()) and not message.visible_to(0, frozenset({1}))
    mute = ChatEntry("g", 5, MUTED, NOW, target=1)
    assert mute.visible_to(0, frozenset({1}))


def test_an_entry_crosses_the_broker_unchanged() -> None:
    entry = ChatEntry("g", 7, MESSAGE, NOW, seat=2, text="<script>x</script>", phrase=None)
    assert ChatEntry.of_event("g", entry.as_event()) == entry
