"""The round machine: runs automatic steps until a seat must decide or the game ends.

``advance`` leaves ``state.pending`` (the decision kind) and ``state.pending_seats`` set, with
the legal choices of each deciding seat cached in ``state.cache``. A decision with no real
option is never asked: the step resolves automatically.
"""

from __future__ import annotations

from typing import Any

from domain.engine import Event, reveal_event

from . import actions
from .building import building_choices, clear_building, payment_choices
from .choices import (
    bid_choices,
    buy_choices,
    firewood_choices,
    helper_choices,
    pick_choices,
    picked_cards,
    tower_choices,
    trader_choices,
    worker_options,
)
from .data import (
    BRICKLAYER,
    BUILDABLE_TILES,
    CARDS,
    MASTER_BUILDER,
    MAX_BUILDS,
    MESSENGER,
    PLAYER_COUNTS,
    STONEMASON,
    TRADER,
    WINTER_BY_ID,
    WORKERS,
    winter_rounds,
)
from .state import (
    DAMSEL,
    EQUIP,
    FIREWOOD,
    NOBODY,
    OVER,
    PICK,
    RESOLVE,
    REVEAL,
    ROUND_START,
    State,
)

Choice = dict[str, Any]


def advance(s: State, ev: list[Event]) -> None:
    s.cache = None
    s.memo = None
    s.pending = ""
    s.pending_seats = []
    while not s.over and not _step(s, ev):
        pass


def ask(s: State, kind: str, seat: int, options: list[Choice]) -> bool:
    s.pending = kind
    s.pending_seats = [seat]
    s.cache = {seat: options}
    return True


def _step(s: State, ev: list[Event]) -> bool:
    phase = s.phase
    if phase == RESOLVE:
        return _resolve_step(s, ev)
    if phase == ROUND_START:
        _round_start(s, ev)
        return False
    if phase == PICK:
        return _pick_step(s, ev)
    if phase == EQUIP:
        return _equip_step(s, ev)
    if phase == FIREWOOD:
        return _firewood_step(s, ev)
    if phase == DAMSEL:
        return _damsel_step(s, ev)
    if phase == REVEAL:
        reveal(s, ev)
        return False
    return True


# ----------------------------------------------------------------------------- round frame


def _round_start(s: State, ev: list[Event]) -> None:
    coin = 1 if s.track > 0 else 0
    s.track -= coin
    s.thalers[s.start] += coin
    s.posts_new = [False] * 5
    s.picks = []
    s.revealed = False
    s.round_flags = []
    s.workers = []
    s.queue = []
    s.round_builds = []
    s.round_tiles = [[] for _ in range(s.n)]
    ev.append(Event("round_started", {"round": s.round, "start_player": s.start, "income": coin}))
    s.phase = PICK


def _pick_step(s: State, ev: list[Event]) -> bool:
    picks = PLAYER_COUNTS[s.n].picks
    cache: dict[int, list[Choice]] = {}
    for seat in range(s.n):
        options = pick_choices(s.hand[seat], picks)
        cache[seat] = options
    deciding = [seat for seat in range(s.n) if len(cache[seat]) > 1]
    if deciding:
        s.pending = "pick_cards"
        s.pending_seats = deciding
        s.cache = cache
        return True
    after_picks(s, ev, {seat: cache[seat][0] for seat in range(s.n)})
    return False


def forced_picks(s: State) -> dict[int, Choice]:
    picks = PLAYER_COUNTS[s.n].picks
    out: dict[int, Choice] = {}
    for seat in range(s.n):
        options = pick_choices(s.hand[seat], picks)
        if len(options) == 1:
            out[seat] = options[0]
    return out


def after_picks(s: State, ev: list[Event], chosen: dict[int, Choice]) -> None:
    s.picks = [sorted(picked_cards(chosen[seat])) for seat in range(s.n)]
    s.phase = REVEAL
    if s.winter and s.winter_deck and s.round in winter_rounds(s.rounds):
        card = WINTER_BY_ID[s.winter_deck.pop(0)]
        s.winter_seen.append(card.id)
        ev.append(Event("winter_card", {"card": card.id}))
        actions.winter_effect(s, ev, card.id)


def reveal(s: State, ev: list[Event]) -> None:
    """Open every seat's cards at once, then equip the Workers and queue the resolution."""
    shown = {seat: _pick_choice(s.picks[seat]) for seat in range(s.n)}
    ev.append(reveal_event(shown, round=s.round))
    s.revealed = True
    order = [(s.start + i) % s.n for i in range(s.n)]
    queue: list[tuple[int, int, int, int]] = []
    for pos, seat in enumerate(order):
        cards = s.picks[seat]
        s.hand[seat] &= ~sum(1 << c for c in cards)
        for c in cards:
            queue.append((CARDS[c].rank, pos, c, seat))
    queue.sort()
    s.queue = [[seat, c] for _r, _p, c, seat in queue]
    s.workers = [[seat, c, 0, 0, 0, 0, 0] for seat, c in s.queue if c in WORKERS]
    s.cursor = 0
    s.phase = EQUIP


def _pick_choice(cards: list[int]) -> Choice:
    if len(cards) == 1:
        return {"card": CARDS[cards[0]].id}
    return {"cards": [CARDS[c].id for c in cards]}


def _equip_step(s: State, ev: list[Event]) -> bool:
    while s.cursor < len(s.workers):
        entry = s.workers[s.cursor]
        seat, card = entry[0], entry[1]
        spec = CARDS[card]
        if spec.choose:
            options = worker_options(s, card)
            if len(options) > 1:
                choices = [{"resources": req} for req, _got in options]
                return ask(s, "worker_resources", seat, choices)
            actions.equip_worker(s, ev, s.cursor, options[0][1] if options else [0] * 5)
        else:
            actions.equip_worker(s, ev, s.cursor, [0] * 5)
        s.cursor += 1
    s.phase = RESOLVE
    s.qi = 0
    s.sub = 0
    actions.reset_action(s)
    return False


def _firewood_step(s: State, ev: list[Event]) -> bool:
    while s.cursor < s.n:
        seat = (s.start + s.cursor) % s.n
        options = firewood_choices(s, seat)
        if len(options) > 1:
            return ask(s, "firewood", seat, options)
        if options:
            actions.firewood(s, ev, seat, options[0]["pay"])
        s.cursor += 1
    s.phase = REVEAL
    return False


def _damsel_step(s: State, ev: list[Event]) -> bool:
    cache = {seat: bid_choices(s, seat) for seat in range(s.n)}
    deciding = [seat for seat in range(s.n) if len(cache[seat]) > 1]
    if deciding:
        s.pending = "damsel_bid"
        s.pending_seats = deciding
        s.cache = cache
        return True
    actions.damsel(s, ev, {seat: 0 for seat in range(s.n)})
    s.phase = REVEAL
    return False


def _end_round(s: State, ev: list[Event]) -> None:
    all_built = all(s.built[t] != NOBODY for t in BUILDABLE_TILES)
    if s.round >= s.rounds or all_built:
        s.over = True
        s.phase = OVER
        ev.append(Event("game_ended", {"round": s.round, "all_built": all_built}))
        return
    s.round += 1
    s.start = (s.start + 1) % s.n
    s.phase = ROUND_START


# ----------------------------------------------------------------------------- resolution


def _resolve_step(s: State, ev: list[Event]) -> bool:
    if s.qi >= len(s.queue):
        _end_round(s, ev)
        return False
    seat, card = s.queue[s.qi]
    sub = s.sub
    if card == MESSENGER:
        actions.messenger(s, ev, seat)
    elif card == TRADER:
        options = trader_choices(s, seat)
        if options:
            return ask(s, "trader", seat, options)
    elif card == MASTER_BUILDER:
        actions.master_builder(s, ev, seat)
    elif card in (BRICKLAYER, STONEMASON):
        if sub == 0:
            options = tower_choices(s) if card == BRICKLAYER else buy_choices(s, seat)
            if options:
                kind = "watchtower" if card == BRICKLAYER else "stonemason_buy"
                return ask(s, kind, seat, options)
            s.sub = 1
            return False
        if sub == 1:
            return _build_step(s, ev, seat)
        if s.act_built > 0:
            options = helper_choices(s, seat)
            if options:
                return ask(s, "place_helpers", seat, options)
    else:  # a Worker
        if sub == 0:
            actions.collect_worker(s, ev, seat, card)
            s.sub = 1
        return _build_step(s, ev, seat)
    next_item(s, ev)
    return False


def _build_step(s: State, ev: list[Event], seat: int) -> bool:
    if s.act_building >= 0:
        return ask(s, "build_payment", seat, payment_choices(s, seat))
    if s.act_built < MAX_BUILDS:
        options = building_choices(s, seat, s.queue[s.qi][1])
        if options:
            return ask(s, "build", seat, options)
    finish_build(s, ev)
    return False


def pay_for_building(s: State, ev: list[Event], seat: int, choice: Choice) -> None:
    """Erect the chosen building with the pieces of a ``pay`` choice; the step is over."""
    actions.build(s, ev, seat, s.queue[s.qi][1], s.act_building, choice)
    clear_building(s)


def finish_build(s: State, ev: list[Event]) -> None:
    """Leave the building step: to helper placement, or on to the next card for a Worker."""
    card = s.queue[s.qi][1]
    if card in WORKERS:
        next_item(s, ev)
    else:
        s.sub = 2


def next_item(s: State, ev: list[Event]) -> None:
    card = s.queue[s.qi][1]
    s.qi += 1
    s.sub = 0
    actions.reset_action(s)
    if card == TRADER and (s.qi >= len(s.queue) or s.queue[s.qi][1] != TRADER):
        actions.production(s, ev)
