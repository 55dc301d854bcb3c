"""The round machine: runs automatic steps until a seat must decide or the game ends, names the
decision due, and applies the answers.

``advance`` leaves ``state.pending`` (the decision kind) and ``state.pending_seats`` set, with
the legal choices of each deciding seat cached in ``state.cache``. A decision with no real
option is never asked: the step resolves automatically.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.engine import JSON, Choice, Decision, Event, reveal_event
from domain.games.im_schutze_der_burg import building, effects
from domain.games.im_schutze_der_burg.choices import (
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
from domain.games.im_schutze_der_burg.data import (
    BRICKLAYER,
    BUILDABLE_TILES,
    BUILDING_INDEX,
    BUILDING_TYPES,
    CARDS,
    KIND_INDEX,
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
from domain.games.im_schutze_der_burg.state import (
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
from domain.games.im_schutze_der_burg.view import PROMPTS

SIMULTANEOUS = frozenset({"pick_cards", "damsel_bid"})


def decision(st: State) -> Decision | None:
    """The decision due, built once per state of the machine (``state.memo``)."""
    if st.over:
        return None
    memo = st.memo
    if memo is not None:
        return memo
    kind = st.pending
    data: dict[str, JSON] = {"round": st.round}
    if kind == "pick_cards":
        data["cards_to_choose"] = PLAYER_COUNTS[st.n].picks
    if st.phase == RESOLVE:
        card = st.queue[st.qi][1]
        data["card"] = CARDS[card].id
        data["built"] = st.act_built
        data["placed"] = st.act_placed
        if kind == "build_payment":
            seat = st.pending_seats[0]
            first = legal_choices(st, seat)[0]
            data.update(building.payment_data(st, seat, card, first))
    memo = Decision(
        seats=tuple(st.pending_seats),
        kind=kind,
        prompt=PROMPTS[kind],
        simultaneous=kind in SIMULTANEOUS,
        data=data,
    )
    st.memo = memo
    return memo


def legal_choices(st: State, seat: int) -> list[Choice]:
    """The cached choices of ``seat`` (a loaded state computes them again on first use)."""
    if st.over or seat not in st.pending_seats:
        return []
    if st.cache is None:
        pending, seats = st.pending, st.pending_seats
        advance(st, [])
        assert st.pending == pending and st.pending_seats == seats
    assert st.cache is not None
    return list(st.cache.get(seat, []))


def apply(st: State, choices: Mapping[int, Choice]) -> list[Event]:
    """Apply the deciding seats' choices, then run on to the next decision."""
    events: list[Event] = []
    kind = st.pending
    if kind == "pick_cards":
        chosen = forced_picks(st)
        chosen.update(choices)
        after_picks(st, events, chosen)
    elif kind == "damsel_bid":
        bids = {seat: 0 for seat in range(st.n)}
        bids.update({seat: int(c["bid"]) for seat, c in choices.items()})
        events.append(reveal_event({seat: {"bid": b} for seat, b in bids.items()}, what="bids"))
        effects.damsel(st, events, bids)
        st.phase = REVEAL
    else:
        seat = st.pending_seats[0]
        _apply_turn(st, events, kind, seat, choices[seat])
    advance(st, events)
    return events


def _apply_turn(st: State, events: list[Event], kind: str, seat: int, choice: Choice) -> None:
    action = choice.get("action")
    if kind == "build":
        if action == "done":
            finish_build(st, events)
        else:
            building.choose_building(st, BUILDING_INDEX[choice["building"]])
            events.append(Event("building_chosen", {"seat": seat, "building": choice["building"]}))
    elif kind == "build_payment":
        chosen = BUILDING_TYPES[st.act_building].id
        if action == "pay":
            pay_for_building(st, events, seat, choice)
        elif action == "fix":
            building.fix_count(st, KIND_INDEX[choice["resource"]], int(choice["count"]))
            narrowed = {"resource": choice["resource"], "count": choice["count"]}
            events.append(Event("payment_narrowed", {"seat": seat, "building": chosen, **narrowed}))
        else:
            building.clear_building(st)
            events.append(Event("building_unchosen", {"seat": seat, "building": chosen}))
    elif kind == "place_helpers":
        if action == "done":
            next_item(st, events)
        else:
            effects.place_helper(st, events, seat, choice)
    elif kind == "stonemason_buy":
        if action == "done":
            st.sub = 1
        else:
            effects.buy(st, events, seat, choice)
    elif kind == "watchtower":
        effects.take_from_tower(st, events, seat, choice)
        st.sub = 1
    elif kind == "trader":
        effects.trader(st, events, seat, choice)
        next_item(st, events)
    elif kind == "worker_resources":
        card = st.workers[st.cursor][1]
        got = next(g for req, g in worker_options(st, card) if req == choice["resources"])
        effects.equip_worker(st, events, st.cursor, got)
        st.cursor += 1
    elif kind == "firewood":
        effects.firewood(st, events, seat, choice["pay"])
        st.cursor += 1


def advance(st: State, events: list[Event]) -> None:
    st.cache = None
    st.memo = None
    st.pending = ""
    st.pending_seats = []
    while not st.over and not _step(st, events):
        pass


def ask(st: State, kind: str, seat: int, options: list[Choice]) -> bool:
    st.pending = kind
    st.pending_seats = [seat]
    st.cache = {seat: options}
    return True


def _step(st: State, events: list[Event]) -> bool:
    phase = st.phase
    if phase == RESOLVE:
        return _resolve_step(st, events)
    if phase == ROUND_START:
        _round_start(st, events)
        return False
    if phase == PICK:
        return _pick_step(st, events)
    if phase == EQUIP:
        return _equip_step(st, events)
    if phase == FIREWOOD:
        return _firewood_step(st, events)
    if phase == DAMSEL:
        return _damsel_step(st, events)
    if phase == REVEAL:
        reveal(st, events)
        return False
    return True


# ----------------------------------------------------------------------------- round frame


def _round_start(st: State, events: list[Event]) -> None:
    coin = 1 if st.track > 0 else 0
    st.track -= coin
    st.thalers[st.start] += coin
    st.posts_new = [False] * 5
    st.picks = []
    st.revealed = False
    st.round_flags = []
    st.workers = []
    st.queue = []
    st.round_builds = []
    st.round_tiles = [[] for _ in range(st.n)]
    events.append(Event("round_started", {"round": st.round, "start_player": st.start, "income": coin}))
    st.phase = PICK


def _pick_step(st: State, events: list[Event]) -> bool:
    picks = PLAYER_COUNTS[st.n].picks
    cache: dict[int, list[Choice]] = {}
    for seat in range(st.n):
        options = pick_choices(st.hand[seat], picks)
        cache[seat] = options
    deciding = [seat for seat in range(st.n) if len(cache[seat]) > 1]
    if deciding:
        st.pending = "pick_cards"
        st.pending_seats = deciding
        st.cache = cache
        return True
    after_picks(st, events, {seat: cache[seat][0] for seat in range(st.n)})
    return False


def forced_picks(st: State) -> dict[int, Choice]:
    picks = PLAYER_COUNTS[st.n].picks
    out: dict[int, Choice] = {}
    for seat in range(st.n):
        options = pick_choices(st.hand[seat], picks)
        if len(options) == 1:
            out[seat] = options[0]
    return out


def after_picks(st: State, events: list[Event], chosen: dict[int, Choice]) -> None:
    st.picks = [sorted(picked_cards(chosen[seat])) for seat in range(st.n)]
    st.phase = REVEAL
    if st.winter and st.winter_deck and st.round in winter_rounds(st.rounds):
        card = WINTER_BY_ID[st.winter_deck.pop(0)]
        st.winter_seen.append(card.id)
        events.append(Event("winter_card", {"card": card.id}))
        effects.winter_effect(st, events, card.id)


def reveal(st: State, events: list[Event]) -> None:
    """Open every seat's cards at once, then equip the Workers and queue the resolution."""
    shown = {seat: _pick_choice(st.picks[seat]) for seat in range(st.n)}
    events.append(reveal_event(shown, round=st.round))
    st.revealed = True
    order = [(st.start + i) % st.n for i in range(st.n)]
    queue: list[tuple[int, int, int, int]] = []
    for pos, seat in enumerate(order):
        cards = st.picks[seat]
        st.hand[seat] &= ~sum(1 << c for c in cards)
        for c in cards:
            queue.append((CARDS[c].rank, pos, c, seat))
    queue.sort()
    st.queue = [[seat, c] for _r, _p, c, seat in queue]
    st.workers = [[seat, c, 0, 0, 0, 0, 0] for seat, c in st.queue if c in WORKERS]
    st.cursor = 0
    st.phase = EQUIP


def _pick_choice(cards: list[int]) -> Choice:
    if len(cards) == 1:
        return {"card": CARDS[cards[0]].id}
    return {"cards": [CARDS[c].id for c in cards]}


def _equip_step(st: State, events: list[Event]) -> bool:
    while st.cursor < len(st.workers):
        entry = st.workers[st.cursor]
        seat, card = entry[0], entry[1]
        spec = CARDS[card]
        if spec.choose:
            options = worker_options(st, card)
            if len(options) > 1:
                choices = [{"resources": req} for req, _got in options]
                return ask(st, "worker_resources", seat, choices)
            effects.equip_worker(st, events, st.cursor, options[0][1] if options else [0] * 5)
        else:
            effects.equip_worker(st, events, st.cursor, [0] * 5)
        st.cursor += 1
    st.phase = RESOLVE
    st.qi = 0
    st.sub = 0
    effects.reset_action(st)
    return False


def _firewood_step(st: State, events: list[Event]) -> bool:
    while st.cursor < st.n:
        seat = (st.start + st.cursor) % st.n
        options = firewood_choices(st, seat)
        if len(options) > 1:
            return ask(st, "firewood", seat, options)
        if options:
            effects.firewood(st, events, seat, options[0]["pay"])
        st.cursor += 1
    st.phase = REVEAL
    return False


def _damsel_step(st: State, events: list[Event]) -> bool:
    cache = {seat: bid_choices(st, seat) for seat in range(st.n)}
    deciding = [seat for seat in range(st.n) if len(cache[seat]) > 1]
    if deciding:
        st.pending = "damsel_bid"
        st.pending_seats = deciding
        st.cache = cache
        return True
    effects.damsel(st, events, {seat: 0 for seat in range(st.n)})
    st.phase = REVEAL
    return False


def _end_round(st: State, events: list[Event]) -> None:
    all_built = all(st.built[t] != NOBODY for t in BUILDABLE_TILES)
    if st.round >= st.rounds or all_built:
        st.over = True
        st.phase = OVER
        events.append(Event("game_ended", {"round": st.round, "all_built": all_built}))
        return
    st.round += 1
    st.start = (st.start + 1) % st.n
    st.phase = ROUND_START


# ----------------------------------------------------------------------------- resolution


def _resolve_step(st: State, events: list[Event]) -> bool:
    if st.qi >= len(st.queue):
        _end_round(st, events)
        return False
    seat, card = st.queue[st.qi]
    sub = st.sub
    if card == MESSENGER:
        effects.messenger(st, events, seat)
    elif card == TRADER:
        options = trader_choices(st, seat)
        if options:
            return ask(st, "trader", seat, options)
    elif card == MASTER_BUILDER:
        effects.master_builder(st, events, seat)
    elif card in (BRICKLAYER, STONEMASON):
        if sub == 0:
            options = tower_choices(st) if card == BRICKLAYER else buy_choices(st, seat)
            if options:
                kind = "watchtower" if card == BRICKLAYER else "stonemason_buy"
                return ask(st, kind, seat, options)
            st.sub = 1
            return False
        if sub == 1:
            return _build_step(st, events, seat)
        if st.act_built > 0:
            options = helper_choices(st, seat)
            if options:
                return ask(st, "place_helpers", seat, options)
    else:  # a Worker
        if sub == 0:
            effects.collect_worker(st, events, seat, card)
            st.sub = 1
        return _build_step(st, events, seat)
    next_item(st, events)
    return False


def _build_step(st: State, events: list[Event], seat: int) -> bool:
    if st.act_building >= 0:
        return ask(st, "build_payment", seat, building.payment_choices(st, seat))
    if st.act_built < MAX_BUILDS:
        options = building.building_choices(st, seat, st.queue[st.qi][1])
        if options:
            return ask(st, "build", seat, options)
    finish_build(st, events)
    return False


def pay_for_building(st: State, events: list[Event], seat: int, choice: Choice) -> None:
    """Erect the chosen building with the pieces of a ``pay`` choice; the step is over."""
    effects.build(st, events, seat, st.queue[st.qi][1], st.act_building, choice)
    building.clear_building(st)


def finish_build(st: State, events: list[Event]) -> None:
    """Leave the building step: to helper placement, or on to the next card for a Worker."""
    card = st.queue[st.qi][1]
    if card in WORKERS:
        next_item(st, events)
    else:
        st.sub = 2


def next_item(st: State, events: list[Event]) -> None:
    card = st.queue[st.qi][1]
    st.qi += 1
    st.sub = 0
    effects.reset_action(st)
    if card == TRADER and (st.qi >= len(st.queue) or st.queue[st.qi][1] != TRADER):
        effects.production(st, events)
