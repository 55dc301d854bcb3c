"""Tile laying and the round: the phase driver, phases 1 (work orders, workers), 2 (harvest),
4 (retrieve, refill laws) and 5 (the start-player auction). Phase 3 lives in ``actions``."""

from __future__ import annotations

from itertools import combinations

from domain.engine import Choice, Event
from domain.games.keythedral import board, laws
from domain.games.keythedral.core import ask, frame_type, push
from domain.games.keythedral.data import (
    COLOURS,
    COTTAGES,
    FIELD_TYPES,
    RESOURCES,
    ROUND_CAP,
    law_id,
)
from domain.games.keythedral.state import Effects, Frame, Pending, State


# -- tile laying (S-9) -------------------------------------------------------------------------
def _setup_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    i = fr["i"]
    if i >= 2 * COTTAGES * st.players:
        st.stack.pop()
        reveal_first_row(st, events)
        start_round(st, events)
        return None
    seat = (st.start + (i // 2)) % st.players
    if i % 2 == 0:
        ftype = FIELD_TYPES[st.field_stack[-1]]
        cells = board.legal_field_cells(st)
        return ask(seat, "lay_field", [_cell_choice(c) for c in cells], field=ftype)
    gaps = board.legal_cottage_gaps(st)
    numbers = [n + 1 for n, pos in enumerate(st.cottage_pos[seat]) if pos is None]
    return ask(seat, "lay_cottage", [_cottage_choice(n, g) for n in numbers for g in gaps])


_CELL_CHOICES: dict[tuple[int, int], Choice] = {}
_COTTAGE_CHOICES: dict[tuple[int, tuple[int, int]], Choice] = {}


def _cell_choice(cell: tuple[int, int]) -> Choice:
    found = _CELL_CHOICES.get(cell)
    if found is None:
        found = _CELL_CHOICES[cell] = {"x": cell[0], "y": cell[1]}
    return found


def _cottage_choice(number: int, cell: tuple[int, int]) -> Choice:
    found = _COTTAGE_CHOICES.get((number, cell))
    if found is None:
        found = _COTTAGE_CHOICES[(number, cell)] = {"number": number, "x": cell[0], "y": cell[1]}
    return found


def _setup_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    cell = (int(choice["x"]), int(choice["y"]))
    if fr["i"] % 2 == 0:
        ftype = st.field_stack.pop()
        st.fields[cell] = ftype
        events.append(
            Event("field_laid", {"seat": seat, "x": cell[0], "y": cell[1], "field": FIELD_TYPES[ftype]})
        )
    else:
        number = int(choice["number"])
        board.place_cottage(st, seat, number, cell)
        events.append(Event("cottage_laid", {"seat": seat, "number": number, "x": cell[0], "y": cell[1]}))
    fr["i"] += 1


frame_type("setup", _setup_step, _setup_answer)


def reveal_first_row(st: State, events: list[Event]) -> None:
    from domain.games.keythedral.market import tile_public

    rows = range(len(st.rows)) if st.face_up_tiles else [0]
    for r in rows:
        events.append(
            Event("row_revealed", {"value": 4 + 2 * r, "tiles": [tile_public(st, t) for t in st.rows[r]]})
        )


# -- rounds and phases ---------------------------------------------------------------------
def start_round(st: State, events: list[Event]) -> None:
    st.round += 1
    if st.round > ROUND_CAP:
        st.over = True
        st.abnormal = True
        events.append(Event("game_ended", {"reason": "round cap reached", "abnormal": True}))
        return
    st.fx = Effects.fresh(st.players)
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
                b = (st.start + 1) % st.players
                st.start = b
                events.append(Event("start_marker_passed", {"seat": b}))
                order = [(b + i) % st.players for i in range(1, st.players)] + [b]
                push(
                    st,
                    {"t": "auction", "order": order, "i": 0, "high": 0, "by": -1, "matched": False, "b": b},
                )
                return None
            retrieve(st, events)
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
        markers = st.markers
        return ask(chooser, "work_order", [NUMBERS[n] for n in range(1, 6) if n not in markers], marker=k)
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


NUMBERS: dict[int, Choice] = {n: {"number": n} for n in range(1, 6)}
COLOUR_CHOICES: tuple[Choice, ...] = tuple({"colour": name} for name in COLOURS)


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
                choices = placement_choices(st, seat, number, options)
                if len(choices) > 1:
                    return ask(seat, "place_workers", choices, number=number, x=gap[0], y=gap[1])
                _marker_answer(st, fr, seat, choices[0], events)
                continue
            events.append(Event("workers_idle", {"seat": seat, "number": number}))
        queue.pop(0)
    st.stack.pop()
    return None


def placement_choices(st: State, seat: int, number: int, options: list[tuple[int, int]]) -> list[Choice]:
    """A cottage sends one worker, a house two to different fields; compulsory by default (Q1)."""
    singles: list[Choice] = [_fields_choice(f) for f in options]
    if st.house[seat][number - 1] and len(options) >= 2:
        pairs: list[Choice] = [_fields_choice(a, b) for a, b in combinations(options, 2)]
        choices = pairs + singles if st.optional_placement else pairs
    else:
        choices = singles
    if st.optional_placement:
        choices = [{"fields": []}, *choices]
    return choices


_FIELDS_CHOICES: dict[tuple[tuple[int, int], ...], Choice] = {}


def _fields_choice(*cells: tuple[int, int]) -> Choice:
    found = _FIELDS_CHOICES.get(cells)
    if found is None:
        found = _FIELDS_CHOICES[cells] = {"fields": [[x, y] for x, y in cells]}
    return found


def _marker_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    if fr["s"] == 0:
        number = int(choice["number"])
        st.markers.append(number)
        fr["s"] = 1
        events.append(Event("work_order_placed", {"seat": seat, "marker": fr["k"], "number": number}))
        return
    _, number = fr["q"].pop(0)
    placed = []
    for x, y in choice["fields"]:
        st.workers[(x, y)] = seat
        placed.append([x, y])
    events.append(Event("workers_placed", {"seat": seat, "number": number, "fields": placed}))


frame_type("marker", _marker_step, _marker_answer)


# -- phase 2: collect resources --------------------------------------------------------------
def _harvest_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    if fr["free"] > 0:
        seat = (st.start + fr["j"]) % st.players
        colours = [c for c in RESOURCES if st.store[c] > 0]
        if colours:
            return ask(seat, "harvest_colour", [COLOUR_CHOICES[c] for c in colours], remaining=fr["free"])
        events.append(Event("harvest_failed", {"seat": seat, "colour": "any", "missing": fr["free"]}))
        fr["free"] = 0
        fr["j"] += 1
        return None
    if fr["j"] >= st.players:
        st.stack.pop()
        return None
    seat = (st.start + fr["j"]) % st.players
    fx = st.fx
    due = [0] * 5
    free = 0
    for f, owner in st.workers.items():
        if owner != seat:
            continue
        kind = st.fields[f]
        if kind == fx.blight:
            continue
        amount = 2 if kind == fx.bumper else 1
        hw = fx.hard_worker[seat]
        if hw is not None and hw[0] == f[0] and hw[1] == f[1]:
            amount *= 2
        if kind == fx.harvest_choice[seat]:
            free += amount
        else:
            due[kind] += amount
    got = [0] * 8
    for c in RESOURCES:
        if due[c]:
            take = min(due[c], st.store[c])
            if take:
                st.take_from_store(seat, c, take)
                got[c] = take
            if take < due[c]:
                events.append(
                    Event("harvest_failed", {"seat": seat, "colour": COLOURS[c], "missing": due[c] - take})
                )
    if any(got):
        events.append(
            Event("harvested", {"seat": seat, "cubes": {COLOURS[c]: n for c, n in enumerate(got) if n}})
        )
    if free:
        fr["free"] = free
    else:
        fr["j"] += 1
    return None


def _harvest_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    c = COLOURS.index(choice["colour"])
    st.take_from_store(seat, c)
    events.append(Event("harvested", {"seat": seat, "cubes": {COLOURS[c]: 1}}))
    fr["free"] -= 1
    if fr["free"] == 0:
        fr["j"] += 1


frame_type("harvest", _harvest_step, _harvest_answer)


# -- phase 4 ----------------------------------------------------------------------------------
def retrieve(st: State, events: list[Event]) -> None:
    st.workers.clear()
    st.markers = []
    refilled = []
    for i, card in enumerate(st.spaces):
        if card == 0 and st.deck:
            st.spaces[i] = st.deck.pop()
            refilled.append(i)
    data: dict[str, object] = {"spaces": refilled}
    if st.law_cards_face_up:
        data["cards"] = [law_id(st.spaces[i]) for i in refilled]
    events.append(Event("workers_retrieved", data))


# -- phase 5: the auction for choosing the next start player -------------------------------
def _auction_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    order = fr["order"]
    if fr["i"] < len(order):
        seat = order[fr["i"]]
        total = st.total_cubes(seat)
        high = fr["high"]
        choices: list[Choice] = [_bid(0)]
        if seat == fr["b"]:
            if high > 0 and total >= high:
                choices.append(_bid(high))
        else:
            choices.extend(_bid(n) for n in range(high + 1, total + 1))
        return ask(seat, "bid", choices, high=high, by=None if fr["by"] < 0 else fr["by"])
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


_BIDS: list[Choice] = [{"bid": n} for n in range(64)]
SEAT_CHOICES: list[Choice] = [{"seat": s} for s in range(8)]


def _bid(n: int) -> Choice:
    return _BIDS[n] if n < len(_BIDS) else {"bid": n}


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
    return ask(fr["seat"], "choose_start", SEAT_CHOICES[: st.players])


def _choose_start_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    st.start = int(choice["seat"])
    events.append(Event("start_player", {"seat": st.start, "named_by": seat}))


frame_type("choose_start", _choose_start_step, _choose_start_answer)
