"""Differential secrecy test: twin games that differ only in the law cards hidden in hands
(``tests.support.keythedral_twins``) look identical to everyone who does not hold them."""

from __future__ import annotations

from tests.support.keythedral_twins import play_twins


def test_twins_differing_only_in_hidden_law_cards_look_identical_to_everyone_else() -> None:
    assert play_twins(4, 11) > 300


def test_twins_look_identical_in_two_and_three_players() -> None:
    assert play_twins(2, 5) > 100
    assert play_twins(3, 8) > 100
