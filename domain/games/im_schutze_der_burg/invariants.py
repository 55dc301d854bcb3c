"""What must hold after every step: conservation, no negatives, a consistent board.

Cheap enough to run after every decision of a simulation (a few hundred integer operations).
Each broken rule becomes one human-readable line; an empty list means the state is sound.
"""

from __future__ import annotations

from .building import completions
from .choices import pick_choices
from .data import (
    ALL_CARDS_MASK,
    CARDS,
    KINDS,
    PLAYER_COUNTS,
    PREBUILT_TILES,
    RESOURCE_TOTAL,
    SPACES,
    THALERS_TOTAL,
    TILE_OF_SPACE,
    WINTER_CARDS,
)
from .state import BOARD, NOBODY, OVER, ROUND_START, State

_PREBUILT = frozenset(PREBUILT_TILES)
_WINTER_IDS = sorted(card.id for card in WINTER_CARDS)


def check_invariants(s: State) -> list[str]:
    problems: list[str] = []
    _money(s, problems)
    _resources(s, problems)
    _helpers(s, problems)
    _board(s, problems)
    _cards(s, problems)
    _rounds(s, problems)
    _winter(s, problems)
    return problems


def _negatives(problems: list[str], name: str, values: list[int]) -> None:
    for i, value in enumerate(values):
        if value < 0:
            problems.append(f"{name}[{i}] is negative ({value})")


def _money(s: State, problems: list[str]) -> None:
    total = s.bank + sum(s.thalers) + s.track
    if total != THALERS_TOTAL:
        problems.append(
            f"thalers not conserved: bank {s.bank} + players {sum(s.thalers)} + round track {s.track} "
            f"= {total}, expected {THALERS_TOTAL}"
        )
    _negatives(problems, "bank", [s.bank])
    _negatives(problems, "round track", [s.track])
    _negatives(problems, "thalers", s.thalers)


def _resources(s: State, problems: list[str]) -> None:
    for k, kind in enumerate(KINDS):
        total = s.supply[k] + s.tower[k] + sum(r[k] for r in s.res) + sum(w[2 + k] for w in s.workers)
        if k == 4:
            total += s.forge
        if total != RESOURCE_TOTAL[k]:
            problems.append(f"{kind} not conserved: {total} pieces in play, expected {RESOURCE_TOTAL[k]}")
    _negatives(problems, "supply", s.supply)
    _negatives(problems, "watchtower", s.tower)
    _negatives(problems, "forge", [s.forge])
    for seat, held in enumerate(s.res):
        _negatives(problems, f"resources of seat {seat}", held)
    for entry in s.workers:
        _negatives(problems, f"worker card {CARDS[entry[1]].id} of seat {entry[0]}", entry[2:])


def _helpers(s: State, problems: list[str]) -> None:
    per = PLAYER_COUNTS[s.n].helpers
    for seat in range(s.n):
        placed = s.posts.count(seat) + s.spaces.count(seat) + s.guests[seat]
        if s.helpers[seat] + placed != per:
            problems.append(
                f"helpers of seat {seat} not conserved: {s.helpers[seat]} in supply + {placed} placed, "
                f"expected {per}"
            )
    _negatives(problems, "helpers", s.helpers)
    _negatives(problems, "guests", s.guests)
    _negatives(problems, "vp", s.vp)
    if any(s.guests) and not s.guest_house:
        problems.append("guests placed but the Guest House is not open")


def _board(s: State, problems: list[str]) -> None:
    seats = range(s.n)
    for k, owner in enumerate(s.posts):
        if owner != NOBODY and owner not in seats:
            problems.append(f"post {KINDS[k]} held by unknown seat {owner}")
        if s.posts_new[k] and owner == NOBODY:
            problems.append(f"post {KINDS[k]} marked placed this round but empty")
    for tile, builder in enumerate(s.built):
        if tile in _PREBUILT:
            if builder != BOARD:
                problems.append(f"pre-built tile {tile} not marked as built by the board")
        elif builder != NOBODY and builder not in seats:
            problems.append(f"tile {tile} built by unknown seat {builder}")
    for sp in SPACES:
        owner = s.spaces[sp.index]
        if owner == NOBODY:
            continue
        if owner not in seats:
            problems.append(f"space {sp.id} held by unknown seat {owner}")
        if s.built[TILE_OF_SPACE[sp.index]] == NOBODY:
            problems.append(f"helper on space {sp.id} of an unbuilt building")
    if (s.act_building >= 0) != (s.pending == "build_payment"):
        problems.append(f"building {s.act_building} chosen but the decision is '{s.pending}'")
    elif s.pending == "build_payment" and not completions(s, s.pending_seats[0]):
        problems.append("a building is chosen that cannot be paid")


def _cards(s: State, problems: list[str]) -> None:
    picks = PLAYER_COUNTS[s.n].picks
    for seat, hand in enumerate(s.hand):
        if not 0 <= hand <= ALL_CARDS_MASK:
            problems.append(f"hand of seat {seat} is not a set of cards ({hand})")
    if s.picks and not s.revealed:
        for seat, cards in enumerate(s.picks):
            ids = [CARDS[c].id for c in cards]
            choice = {"card": ids[0]} if len(ids) == 1 else {"cards": ids}
            if choice not in pick_choices(s.hand[seat], picks):
                problems.append(f"sealed pick of seat {seat} is not a legal pick from its hand")


def _rounds(s: State, problems: list[str]) -> None:
    if not 1 <= s.round <= s.rounds:
        problems.append(f"round {s.round} outside 1..{s.rounds}")
    expected = s.rounds - s.round + (1 if s.phase == ROUND_START else 0)
    if s.track != expected:
        problems.append(f"round track holds {s.track} thalers in round {s.round}, expected {expected}")
    if s.over != (s.phase == OVER):
        problems.append(f"game over flag {s.over} disagrees with phase {s.phase}")


def _winter(s: State, problems: list[str]) -> None:
    if not s.winter:
        if s.winter_deck or s.winter_seen or s.guest_house:
            problems.append("winter cards in a summer game")
        return
    if sorted(s.winter_deck + s.winter_seen) != _WINTER_IDS:
        problems.append("winter deck and revealed winter cards are not the six winter cards")
    if s.guest_house != ("guest_house" in s.winter_seen):
        problems.append("Guest House open flag disagrees with the revealed winter cards")
