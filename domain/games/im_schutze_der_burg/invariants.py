"""What must hold after every step: conservation, no negatives, a consistent board.

Cheap enough to run after every decision of a simulation (a few hundred integer operations).
Each broken rule becomes one human-readable line; an empty list means the state is sound.
"""

from __future__ import annotations

from domain.games.im_schutze_der_burg.building import completions
from domain.games.im_schutze_der_burg.choices import pick_choices
from domain.games.im_schutze_der_burg.data import (
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
from domain.games.im_schutze_der_burg.state import BOARD, NOBODY, OVER, ROUND_START, State

_PREBUILT = frozenset(PREBUILT_TILES)
_WINTER_IDS = sorted(card.id for card in WINTER_CARDS)


def check_invariants(st: State) -> list[str]:
    problems: list[str] = []
    _money(st, problems)
    _resources(st, problems)
    _helpers(st, problems)
    _board(st, problems)
    _cards(st, problems)
    _rounds(st, problems)
    _winter(st, problems)
    return problems


def _negatives(problems: list[str], name: str, values: list[int]) -> None:
    for i, value in enumerate(values):
        if value < 0:
            problems.append(f"{name}[{i}] is negative ({value})")


def _money(st: State, problems: list[str]) -> None:
    total = st.bank + sum(st.thalers) + st.track
    if total != THALERS_TOTAL:
        problems.append(
            f"thalers not conserved: bank {st.bank} + players {sum(st.thalers)} + round track {st.track} "
            f"= {total}, expected {THALERS_TOTAL}"
        )
    _negatives(problems, "bank", [st.bank])
    _negatives(problems, "round track", [st.track])
    _negatives(problems, "thalers", st.thalers)


def _resources(st: State, problems: list[str]) -> None:
    for k, kind in enumerate(KINDS):
        total = st.supply[k] + st.tower[k] + sum(r[k] for r in st.res) + sum(w[2 + k] for w in st.workers)
        if k == 4:
            total += st.forge
        if total != RESOURCE_TOTAL[k]:
            problems.append(f"{kind} not conserved: {total} pieces in play, expected {RESOURCE_TOTAL[k]}")
    _negatives(problems, "supply", st.supply)
    _negatives(problems, "watchtower", st.tower)
    _negatives(problems, "forge", [st.forge])
    for seat, held in enumerate(st.res):
        _negatives(problems, f"resources of seat {seat}", held)
    for entry in st.workers:
        _negatives(problems, f"worker card {CARDS[entry[1]].id} of seat {entry[0]}", entry[2:])


def _helpers(st: State, problems: list[str]) -> None:
    per = PLAYER_COUNTS[st.n].helpers
    for seat in range(st.n):
        placed = st.posts.count(seat) + st.spaces.count(seat) + st.guests[seat]
        if st.helpers[seat] + placed != per:
            problems.append(
                f"helpers of seat {seat} not conserved: {st.helpers[seat]} in supply + {placed} placed, "
                f"expected {per}"
            )
    _negatives(problems, "helpers", st.helpers)
    _negatives(problems, "guests", st.guests)
    _negatives(problems, "vp", st.vp)
    if any(st.guests) and not st.guest_house:
        problems.append("guests placed but the Guest House is not open")


def _board(st: State, problems: list[str]) -> None:
    seats = range(st.n)
    for k, owner in enumerate(st.posts):
        if owner != NOBODY and owner not in seats:
            problems.append(f"post {KINDS[k]} held by unknown seat {owner}")
        if st.posts_new[k] and owner == NOBODY:
            problems.append(f"post {KINDS[k]} marked placed this round but empty")
    for tile, builder in enumerate(st.built):
        if tile in _PREBUILT:
            if builder != BOARD:
                problems.append(f"pre-built tile {tile} not marked as built by the board")
        elif builder != NOBODY and builder not in seats:
            problems.append(f"tile {tile} built by unknown seat {builder}")
    for sp in SPACES:
        owner = st.spaces[sp.index]
        if owner == NOBODY:
            continue
        if owner not in seats:
            problems.append(f"space {sp.id} held by unknown seat {owner}")
        if st.built[TILE_OF_SPACE[sp.index]] == NOBODY:
            problems.append(f"helper on space {sp.id} of an unbuilt building")
    if (st.act_building >= 0) != (st.pending == "build_payment"):
        problems.append(f"building {st.act_building} chosen but the decision is '{st.pending}'")
    elif st.pending == "build_payment" and not completions(st, st.pending_seats[0]):
        problems.append("a building is chosen that cannot be paid")


def _cards(st: State, problems: list[str]) -> None:
    picks = PLAYER_COUNTS[st.n].picks
    for seat, hand in enumerate(st.hand):
        if not 0 <= hand <= ALL_CARDS_MASK:
            problems.append(f"hand of seat {seat} is not a set of cards ({hand})")
    if st.picks and not st.revealed:
        for seat, cards in enumerate(st.picks):
            ids = [CARDS[c].id for c in cards]
            choice = {"card": ids[0]} if len(ids) == 1 else {"cards": ids}
            if choice not in pick_choices(st.hand[seat], picks):
                problems.append(f"sealed pick of seat {seat} is not a legal pick from its hand")


def _rounds(st: State, problems: list[str]) -> None:
    if not 1 <= st.round <= st.rounds:
        problems.append(f"round {st.round} outside 1..{st.rounds}")
    expected = st.rounds - st.round + (1 if st.phase == ROUND_START else 0)
    if st.track != expected:
        problems.append(f"round track holds {st.track} thalers in round {st.round}, expected {expected}")
    if st.over != (st.phase == OVER):
        problems.append(f"game over flag {st.over} disagrees with phase {st.phase}")


def _winter(st: State, problems: list[str]) -> None:
    if not st.winter:
        if st.winter_deck or st.winter_seen or st.guest_house:
            problems.append("winter cards in a summer game")
        return
    if sorted(st.winter_deck + st.winter_seen) != _WINTER_IDS:
        problems.append("winter deck and revealed winter cards are not the six winter cards")
    if st.guest_house != ("guest_house" in st.winter_seen):
        problems.append("Guest House open flag disagrees with the revealed winter cards")
