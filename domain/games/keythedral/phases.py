"""The frames of tile laying and of the round: the phase driver, phases 1 (work orders,
workers), 2 (harvest), 4 (retrieve, refill laws) and 5 (the start-player auction). Phase 3 lives
in ``actions``."""

from __future__ import annotations

from domain.engine import Choice, Event
from domain.games.keythedral import board, choices, effects, laws
from domain.games.keythedral.data import COLOURS, COTTAGES, FIELD_TYPES, ROUND_CAP
from domain.games.keythedral.flow import ask, frame_type, push
from domain.games.keythedral.state import Frame, LawEffects, Pending, State


# -- tile laying (S-9) -------------------------------------------------------------------------
def _setup_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    i = fr["i"]
    if i >= 2 * COTTAGES * st.players:
        st.stack.pop()
        effects.reveal_first_row(st, events)
        start_round(st, events)
        return None
    seat = (st.start + (i // 2)) % st.players
    if i % 2 == 0:
        ftype = FIELD_TYPES[st.field_stack[-1]]
        return ask(seat, "lay_field", choices.field_choices(st), field=ftype)
    return ask(seat, "lay_cottage", choices.cottage_choices(st, seat))


def _setup_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    cell = (int(choice["x"]), int(choice["y"]))
    if fr["i"] % 2 == 0:
        effects.lay_field(st, seat, cell, events)
    else:
        effects.lay_cottage(st, seat, int(choice["number"]), cell, events)
    fr["i"] += 1


frame_type("setup", _setup_step, _setup_answer)


# -- rounds and phases ---------------------------------------------------------------------
def start_round(st: State, events: list[Event]) -> None:
    st.round += 1
    if st.round > ROUND_CAP:
        st.over = True
        st.abnormal = True
        events.append(Event("game_ended", {"reason": "round cap reached", "abnormal": True}))
        return
    st.fx = LawEffects.fresh(st.players)
    st.markers = []
    events.append(Event("round_started", {"round": st.round, "start": st.start}))
    push(st, {"t": "phase", "p": 1, "s": 0})


def _phase_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Each phase opens its start window, then pushes its own frames; with nothing to wait for,
    the frame runs straight on (as ``advance`` would run it again)."""
    while True:
        p = fr["p"]
        s = fr["s"]
        if s == 0:
            st.phase = p
            events.append(Event("phase_started", {"phase": p, "start": st.start}))
            fr["s"] = 1
            laws.open_window(st, "start", st.start, p=p)
            return None
        if s == 1:
            fr["s"] = 2
            if p == 1:
                for k in range(5, 0, -1):
                    push(st, {"t": "marker", "k": k, "s": 0, "q": []})
                return None
            if p == 2:
                push(st, {"t": "harvest", "j": 0, "free": 0})
                return None
            if p == 3:
                st.cur = st.start
                st.streak = 0
                st.out = [False] * st.players
                st.taken = False
                push(st, {"t": "turn", "s": 0})
                return None
            if p == 5:
                b = effects.pass_start_marker(st, events)
                order = [(b + i) % st.players for i in range(1, st.players)] + [b]
                push(
                    st,
                    {"t": "auction", "order": order, "i": 0, "high": 0, "by": -1, "matched": False, "b": b},
                )
                return None
            effects.retrieve(st, events)
        if p < 5:
            fr["p"] = p + 1
            fr["s"] = 0
            continue
        st.stack.pop()
        start_round(st, events)
        return None


frame_type("phase", _phase_step)


# -- phase 1: work-order markers and workers -------------------------------------------------
def _marker_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    s = fr["s"]
    if s == 3:
        return _place_workers(st, fr, events)
    k = fr["k"]
    placer = (st.start + k - 1) % st.players
    if s == 0:
        chooser = st.fx.work_order if st.fx.work_order >= 0 else placer
        return ask(chooser, "work_order", choices.work_order_choices(st), marker=k)
    if s == 1:
        fr["s"] = 2
        laws.open_window(st, "marker", placer, k=k)
        return None
    fr["s"] = 3
    number = st.markers[-1]
    queue = []
    renumber = st.fx.renumber
    for seat in st.turn_order(placer):
        renum = renumber[seat]
        if renum is None:
            queue.append([seat, number])
            continue
        if renum[0] != number:
            queue.append([seat, number])
        if renum[1] == k:
            queue.append([seat, renum[0]])
    fr["q"] = queue
    return _place_workers(st, fr, events)


def _place_workers(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Ask each queued cottage or house in turn; one with a single way to place its workers
    just places them (the single legal choice, applied at once as ``advance`` would)."""
    queue = fr["q"]
    while queue:
        seat, number = queue[0]
        gap = st.cottage_pos[seat][number - 1]
        if gap is not None:
            options = board.worker_fields(st, seat, gap)
            if options:
                listed = choices.placement_choices(st, seat, number, options)
                if len(listed) > 1:
                    return ask(seat, "place_workers", listed, number=number, x=gap[0], y=gap[1])
                _marker_answer(st, fr, seat, listed[0], events)
                continue
            events.append(Event("workers_idle", {"seat": seat, "number": number}))
        queue.pop(0)
    st.stack.pop()
    return None


def _marker_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    if fr["s"] == 0:
        fr["s"] = 1
        effects.place_work_order(st, seat, fr["k"], int(choice["number"]), events)
        return
    _, number = fr["q"].pop(0)
    effects.place_workers(st, seat, number, choice["fields"], events)


frame_type("marker", _marker_step, _marker_answer)


# -- phase 2: collect resources --------------------------------------------------------------
def _harvest_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    if fr["free"] > 0:
        seat = (st.start + fr["j"]) % st.players
        listed = choices.store_colour_choices(st)
        if listed:
            return ask(seat, "harvest_colour", listed, remaining=fr["free"])
        events.append(Event("harvest_failed", {"seat": seat, "colour": "any", "missing": fr["free"]}))
        fr["free"] = 0
        fr["j"] += 1
        return None
    if fr["j"] >= st.players:
        st.stack.pop()
        return None
    seat = (st.start + fr["j"]) % st.players
    free = effects.harvest(st, seat, events)
    if free:
        fr["free"] = free
    else:
        fr["j"] += 1
    return None


def _harvest_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    effects.harvest_cube(st, seat, COLOURS.index(choice["colour"]), events)
    fr["free"] -= 1
    if fr["free"] == 0:
        fr["j"] += 1


frame_type("harvest", _harvest_step, _harvest_answer)


# -- phase 5: the auction for choosing the next start player -------------------------------
def _auction_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    order = fr["order"]
    if fr["i"] < len(order):
        seat = order[fr["i"]]
        high = fr["high"]
        bids = choices.bid_choices(st.total_cubes(seat), high, starter=seat == fr["b"])
        return ask(seat, "bid", bids, high=high, by=None if fr["by"] < 0 else fr["by"])
    if not fr.get("window"):
        fr["window"] = True  # the bids are in: a law window before they are settled
        laws.open_window(st, "auction", st.start)
        return None
    st.stack.pop()
    b = fr["b"]
    chooser = b
    if fr["matched"]:
        push(st, {"t": "choose_start", "seat": b})
        push(st, {"t": "pay", "seat": b, "n": fr["high"], "to": fr["by"], "paid": [0] * 8})
    elif fr["by"] >= 0:
        chooser = fr["by"]
        push(st, {"t": "choose_start", "seat": chooser})
        push(st, {"t": "pay", "seat": chooser, "n": fr["high"], "to": b, "paid": [0] * 8})
    else:
        push(st, {"t": "choose_start", "seat": chooser})
    return None


def _auction_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    bid = int(choice["bid"])
    fr["i"] += 1
    events.append(Event("bid", {"seat": seat, "bid": bid}))
    if bid == 0:
        return
    if seat == fr["b"]:
        fr["matched"] = True
    else:
        fr["high"] = bid
        fr["by"] = seat


frame_type("auction", _auction_step, _auction_answer)


def _choose_start_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    return ask(fr["seat"], "choose_start", choices.start_player_choices(st))


def _choose_start_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    effects.name_start_player(st, seat, int(choice["seat"]), events)


frame_type("choose_start", _choose_start_step, _choose_start_answer)
