"""Shared helpers for the Im Schutze der Burg tests."""

from __future__ import annotations

import random
from typing import Any

from domain.games.im_schutze_der_burg import ENGINE, flow
from domain.games.im_schutze_der_burg.data import (
    CARD_INDEX,
    KINDS,
    PLAYER_COUNTS,
    RESOURCE_TOTAL,
    THALERS_TOTAL,
)
from domain.games.im_schutze_der_burg.state import NOBODY, State

E = ENGINE


def new_game(players: int, winter: bool = False, seed: int = 1) -> State:
    """A fresh game at the first pick, with seat 0 as start player (income already paid)."""
    s, _ = E.setup(players, {"winter": winter}, random.Random(seed))
    if s.start != 0:
        s.thalers[s.start] -= 1
        s.thalers[0] += 1
        s.start = 0
    return s


def mask(*cards: str) -> int:
    return sum(1 << CARD_INDEX[c] for c in cards)


def hand_without(*cards: str) -> int:
    return (1 << len(CARD_INDEX)) - 1 - mask(*cards)


def refresh(s: State) -> None:
    """Recompute the pending decision after a test changed the state by hand."""
    flow.advance(s, [])


def pick(s: State, **by_seat: Any) -> list[Any]:
    """Apply one round's picks: pick(s, p0="messenger", p1=("trader", "worker_1"))."""
    choices: dict[int, dict[str, Any]] = {}
    for key, value in by_seat.items():
        seat = int(key[1:])
        if isinstance(value, tuple):
            choices[seat] = {"cards": sorted(value, key=CARD_INDEX.__getitem__)}
        else:
            choices[seat] = {"card": value}
    refresh(s)
    d = E.decision(s)
    assert d is not None and d.kind == "pick_cards"
    for seat, c in choices.items():
        assert seat not in d.seats or c in E.legal_choices(s, seat), (seat, c)
    return E.apply(s, {seat: c for seat, c in choices.items() if seat in d.seats})


def act(s: State, choice: dict[str, Any], kind: str | None = None) -> list[Any]:
    """Apply one non-simultaneous decision, posting the listed choice verbatim (checked legal).

    A ``build_choice`` (a building with its payment) is played as the engine asks for it: the
    building, then the payment, fixing counts first when the payment step is narrowed.
    """
    if choice.get("action") == "build" and "sand" in choice:
        return _build(s, choice, kind)
    refresh(s)
    d = E.decision(s)
    assert d is not None, "game over"
    if kind is not None:
        assert d.kind == kind, (d.kind, kind)
    seat = d.seats[0]
    legal = E.legal_choices(s, seat)
    assert choice in legal, f"{choice} not legal in {d.kind}: {legal[:20]}"
    return E.apply(s, {seat: choice})


def _build(s: State, choice: dict[str, Any], kind: str | None) -> list[Any]:
    refresh(s)
    d = E.decision(s)
    assert d is not None and d.kind == "build", d
    assert kind in (None, "build"), kind
    seat = d.seats[0]
    chosen = [c for c in E.legal_choices(s, seat) if c.get("building") == choice["building"]]
    assert chosen, f"{choice['building']} not offered: {E.legal_choices(s, seat)}"
    events = E.apply(s, {seat: chosen[0]})
    pay = {"action": "pay", **{k: choice[k] for k in KINDS}}
    while True:
        d = E.decision(s)
        assert d is not None and d.kind == "build_payment", d
        legal = E.legal_choices(s, seat)
        if pay in legal:
            return events + E.apply(s, {seat: pay})
        fix = [c for c in legal if c["action"] == "fix" and c["count"] == choice[c["resource"]]]
        assert fix, f"{pay} not reachable from {legal}"
        events += E.apply(s, {seat: fix[0]})


def build_choice(
    building: str, sand: int = 0, wood: int = 0, clay: int = 0, stone: int = 0, silver: int = 0
) -> dict[str, Any]:
    """A building with its payment, as ``act`` plays it in two steps."""
    return {
        "action": "build",
        "building": building,
        "sand": sand,
        "wood": wood,
        "clay": clay,
        "stone": stone,
        "silver": silver,
    }


def kind(s: State) -> str | None:
    refresh(s)
    d = E.decision(s)
    return None if d is None else d.kind


def set_res(
    s: State, seat: int, sand: int = 0, wood: int = 0, clay: int = 0, stone: int = 0, silver: int = 0
) -> None:
    """Give a seat exactly these pieces, moving the difference from/to the stock."""
    want = [sand, wood, clay, stone, silver]
    for k in range(5):
        diff = want[k] - s.res[seat][k]
        s.supply[k] -= diff
        s.res[seat][k] = want[k]
        assert s.supply[k] >= 0


def set_thalers(s: State, seat: int, amount: int) -> None:
    s.bank -= amount - s.thalers[seat]
    s.thalers[seat] = amount
    assert s.bank >= 0


def check_invariants(s: State) -> None:
    assert s.bank + sum(s.thalers) + s.track == THALERS_TOTAL
    for k in range(5):
        total = s.supply[k] + s.tower[k] + sum(r[k] for r in s.res)
        total += sum(w[2 + k] for w in s.workers)
        if k == 4:
            total += s.forge
        assert total == RESOURCE_TOTAL[k], (k, total)
    per = PLAYER_COUNTS[s.n].helpers
    for seat in range(s.n):
        placed = s.posts.count(seat) + s.spaces.count(seat) + s.guests[seat]
        assert s.helpers[seat] + placed == per
    values = [s.bank, s.track, s.forge, *s.supply, *s.tower, *s.thalers, *s.helpers, *s.vp]
    values += [x for r in s.res for x in r] + [x for w in s.workers for x in w[2:]]
    assert min(values) >= 0
    assert 1 <= s.round <= s.rounds
    assert all(o == NOBODY or 0 <= o < s.n for o in s.posts)
