"""Keythedral twins: two games that differ only in the law cards hidden in seats 0 and 1's hands,
driven by the same public choices while everything public is compared (the differential secrecy
test of ``tests/unit/keythedral/test_law_secrecy.py`` and the leak suite).

The twins start from the same seed; right after setup seats 0 and 1 are dealt six cards each,
the same twelve cards in both twins but swapped: seat 0 holds the cards playable almost
everywhere (Veto included) in one twin and the rarely playable ones in the other. Deck and new-law spaces
stay identical. Both are then driven by the same
public choices (every law window is passed, no law card is played, and a seat picks among the
choices both twins offer it). Everything public must be identical at every step: the decisions
(who is asked, for what, with which data: so also the versions and sealing events the match
records for them), every event's public data, the spectator's view and every seat's view of the
table; a seat whose hand is the same in both twins sees exactly the same views and events.
"""

from __future__ import annotations

import json
import random
from typing import Any

from domain.engine import Choice, Event
from domain.games.keythedral import ENGINE, market
from domain.games.keythedral.choices import keytown_choices
from domain.games.keythedral.data import LAW_NUMBER, TILE_INDEX
from domain.games.keythedral.state import State

EVERYWHERE = ["L10", "L17", "L04", "L11", "L03", "L07"]
"""Cards some window almost always lets their holder play (L10 in every Veto window)."""
RARELY = ["L01", "L18", "L19", "L06", "L08", "L14"]
"""Cards playable only at a phase start or a work-order marker."""
DECISION_CAP = 8000


def deal_twins(state: State, hands: list[list[str]]) -> None:
    """Put ``hands`` in the seats' hands; the deck and the new-law spaces keep their seeded
    order without those cards (so twins dealt the same cards differently keep the same deck)."""
    dealt = [LAW_NUMBER[c] for hand in hands for c in hand]
    state.hands = [[LAW_NUMBER[c] for c in hand] for hand in hands]
    state.spaces = [c if c not in dealt else 0 for c in state.spaces]
    rest = [c for c in state.deck if c not in dealt]
    for i, card in enumerate(state.spaces):
        if card == 0:
            state.spaces[i] = rest.pop()
    state.deck = rest


def public_choices(state: State, seat: int) -> list[Choice]:
    """A seat's choices that are the same whatever its hidden cards: no card played, and no
    purchase or Keytown visit that only a card (L05, L15, L16) would make possible."""
    out = []
    for c in ENGINE.legal_choices(state, seat):
        if c.get("action") == "play" or "card" in c or "substitution" in c:
            continue
        if c.get("action") == "buy" and not market.payment_choices(state, seat, TILE_INDEX[c["tile"]], False):
            continue
        if c.get("action") == "keytown" and all("card" in v for v in keytown_choices(state, seat)):
            continue
        out.append(c)
    return out


def table_view(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view without its own screen and its own choices."""
    return {k: v for k, v in view.items() if k not in ("you", "legal_choices")}


def event_text(events: list[Event], viewer: int | None) -> str:
    out = []
    for e in events:
        data = dict(e.data)
        if viewer is not None:
            data.update(e.private.get(viewer, {}))
        out.append([e.type, data])
    return json.dumps(out, sort_keys=True)


def play_twins(players: int, seed: int, options: dict[str, Any] | None = None) -> int:
    """Play the twins to the end comparing everything public; the number of decisions compared."""
    resolved = ENGINE.meta.resolve_options(options)
    twins = [ENGINE.setup(players, resolved, random.Random(seed))[0] for _ in range(2)]
    rest: list[list[str]] = [[] for _ in range(players - 2)]
    deal_twins(twins[0], [EVERYWHERE, RARELY, *rest])
    deal_twins(twins[1], [RARELY, EVERYWHERE, *rest])
    chooser = random.Random(seed)
    viewers: list[int | None] = [None, *range(players)]
    steps = 0
    windows = 0
    while True:
        decisions = [ENGINE.decision(t) for t in twins]
        assert decisions[0] == decisions[1], f"step {steps}: {decisions}"
        decision = decisions[0]
        if decision is None:
            break
        steps += 1
        assert steps <= DECISION_CAP
        windows += decision.kind == "law_window"
        joint: dict[int, Choice] = {}
        for seat in decision.seats:
            mine = [public_choices(t, seat) for t in twins]
            common = [c for c in mine[0] if c in mine[1]]
            assert common, f"step {steps}: seat {seat} has no choice common to both twins"
            joint[seat] = chooser.choice(common)
        same_before = [sorted(twins[0].hands[s]) == sorted(twins[1].hands[s]) for s in range(players)]
        events = [ENGINE.apply(t, dict(joint)) for t in twins]
        assert event_text(events[0], None) == event_text(events[1], None), f"step {steps}"
        for viewer in viewers:
            views = [ENGINE.view(t, viewer) for t in twins]
            assert table_view(views[0]) == table_view(views[1]), f"step {steps}, viewer {viewer}"
            if viewer is not None and sorted(twins[0].hands[viewer]) == sorted(twins[1].hands[viewer]):
                assert views[0] == views[1], f"step {steps}, seat {viewer}"
                if same_before[viewer]:
                    assert event_text(events[0], viewer) == event_text(events[1], viewer)
    assert windows > 20, "the twins should have met many law windows"
    assert [len(h) for h in twins[0].hands] == [len(h) for h in twins[1].hands]
    return steps
