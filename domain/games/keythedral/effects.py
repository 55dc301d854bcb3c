"""State changes, each with its public event, that the frames carry out when a step runs or a
choice is answered. Law-card effects live in ``laws``, buying and swapping tiles in ``market``;
what comes next (pushing frames, moving counters of a frame) stays with the frames.
"""

from __future__ import annotations

from domain.engine import JSON, Event
from domain.games.keythedral import board
from domain.games.keythedral.data import BLACK, BROWN, COLOURS, CRAFTS, FIELD_TYPES, RED, RESOURCES, law_id
from domain.games.keythedral.market import tile_public
from domain.games.keythedral.state import Cell, Slot, State


# -- tile laying (S-9) -------------------------------------------------------------------------
def lay_field(st: State, seat: int, cell: Cell, events: list[Event]) -> None:
    """The top field tile of the stack goes to ``cell``."""
    ftype = st.field_stack.pop()
    st.fields[cell] = ftype
    events.append(
        Event("field_laid", {"seat": seat, "x": cell[0], "y": cell[1], "field": FIELD_TYPES[ftype]})
    )


def lay_cottage(st: State, seat: int, number: int, cell: Cell, events: list[Event]) -> None:
    board.place_cottage(st, seat, number, cell)
    events.append(Event("cottage_laid", {"seat": seat, "number": number, "x": cell[0], "y": cell[1]}))


def reveal_first_row(st: State, events: list[Event]) -> None:
    """Tile laying is over: the value-4 tiles turn face up (S-10), or every row in the variant."""
    rows = range(len(st.rows)) if st.face_up_tiles else [0]
    for r in rows:
        events.append(
            Event("row_revealed", {"value": 4 + 2 * r, "tiles": [tile_public(st, t) for t in st.rows[r]]})
        )


# -- phase 1: work-order markers and workers ---------------------------------------------------
def place_work_order(st: State, seat: int, marker: int, number: int, events: list[Event]) -> None:
    st.markers.append(number)
    events.append(Event("work_order_placed", {"seat": seat, "marker": marker, "number": number}))


def place_workers(st: State, seat: int, number: int, fields: list[list[int]], events: list[Event]) -> None:
    """The workers of cottage (or house) ``number`` go to ``fields``."""
    placed = []
    for x, y in fields:
        st.workers[(x, y)] = seat
        placed.append([x, y])
    events.append(Event("workers_placed", {"seat": seat, "number": number, "fields": placed}))


# -- phase 2: the harvest ----------------------------------------------------------------------
def harvest(st: State, seat: int, events: list[Event]) -> int:
    """Each worker of ``seat`` yields a cube of its field's colour from the store (two under a
    bumper harvest, doubled by a hard worker, none under blight); a short store leaves the rest
    unpaid. Returns the cubes due from the field type of a Choice of Harvest (L08), whose
    colours the seat picks one by one."""
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
    return free


def harvest_cube(st: State, seat: int, colour: int, events: list[Event]) -> None:
    """One cube of the seat's choosing, for a Choice of Harvest (L08)."""
    st.take_from_store(seat, colour)
    events.append(Event("harvested", {"seat": seat, "cubes": {COLOURS[colour]: 1}}))


# -- phase 3: actions --------------------------------------------------------------------------
def build_house(st: State, seat: int, number: int, events: list[Event]) -> None:
    """A2: a black and a brown cube turn cottage ``number`` into a house."""
    st.pay_to_store(seat, BLACK)
    st.pay_to_store(seat, BROWN)
    st.house[seat][number - 1] = True
    events.append(Event("house_built", {"seat": seat, "number": number}))


def build_fence(st: State, seat: int, slot: Slot, events: list[Event]) -> tuple[int, int] | None:
    """A3a: one of the seat's fences on ``slot`` for a brown cube. Returns the (seat, number) of
    a cottage the fence closes off from every field: it leaves the board until re-placed."""
    st.pay_to_store(seat, BROWN)
    st.fences[slot] = seat
    st.fences_left[seat] -= 1
    events.append(Event("fence_built", {"seat": seat, **_slot_data(slot)}))
    gap = (slot[0], slot[1])
    if not board.is_enclosed(st, gap):
        return None
    owner, number = st.gap_occ[gap]
    board.lift_cottage(st, owner, number)
    st.off_board.append([owner, number])
    events.append(Event("cottage_fenced_out", {"seat": owner, "number": number, "x": gap[0], "y": gap[1]}))
    return owner, number


def remove_fence(st: State, seat: int, slot: Slot, events: list[Event]) -> None:
    """A3b: any fence removed for two red cubes."""
    st.pay_to_store(seat, RED, 2)
    del st.fences[slot]
    events.append(Event("fence_removed", {"seat": seat, **_slot_data(slot)}))


def _slot_data(slot: Slot) -> dict[str, int]:
    return {"gx": slot[0], "gy": slot[1], "fx": slot[2], "fy": slot[3]}


def procure_law(st: State, seat: int, space: int, events: list[Event]) -> None:
    """A6: the card of a new-law space goes to the seat's hand (the seat alone learns which),
    and the seat is done with phase 3 (P3-2). The price is paid next."""
    card = st.spaces[space]
    st.spaces[space] = 0
    st.hands[seat].append(card)
    st.out[seat] = True
    events.append(
        Event("law_procured", {"seat": seat, "space": space}, private={seat: {"card": law_id(card)}})
    )


def pay_cubes(st: State, seat: int, to: int, counts: list[int]) -> None:
    """Cubes by colour from ``seat`` to the store (``to`` < 0) or to seat ``to``."""
    mine = st.cubes[seat]
    dest = st.store if to < 0 else st.cubes[to]
    for c, k in enumerate(counts):
        if k:
            mine[c] -= k
            dest[c] += k


def take_cube(st: State, seat: int, colour: int, events: list[Event]) -> None:
    """A resource cube of the seat's choosing from the store (the Trader, A5)."""
    st.take_from_store(seat, colour)
    events.append(Event("cube_taken", {"seat": seat, "colour": COLOURS[colour]}))


def gain_craft(st: State, seat: int, colour: int, events: list[Event]) -> None:
    """A craft cube from its craftsman, who refills from the store when empty (A4)."""
    k = CRAFTS.index(colour)
    if st.craftsmen[k] == 0:
        st.craftsmen[k] = st.store[colour]
        st.store[colour] = 0
    st.craftsmen[k] -= 1
    st.cubes[seat][colour] += 1
    events.append(Event("craft_bought", {"seat": seat, "colour": COLOURS[colour]}))


def replace_cottage(st: State, seat: int, number: int, cell: Cell, events: list[Event]) -> None:
    """A fenced-out cottage (or house) comes back on the board at ``cell`` (Q2)."""
    st.off_board.remove([seat, number])
    board.place_cottage(st, seat, number, cell)
    events.append(
        Event(
            "cottage_replaced",
            {"seat": seat, "number": number, "x": cell[0], "y": cell[1], "house": st.house[seat][number - 1]},
        )
    )


# -- phases 4 and 5 ----------------------------------------------------------------------------
def retrieve(st: State, events: list[Event]) -> None:
    """Phase 4: the workers and markers come back, empty new-law spaces are refilled."""
    st.workers.clear()
    st.markers = []
    refilled = []
    for i, card in enumerate(st.spaces):
        if card == 0 and st.deck:
            st.spaces[i] = st.deck.pop()
            refilled.append(i)
    data: dict[str, JSON] = {"spaces": refilled}
    if st.law_cards_face_up:
        data["cards"] = [law_id(st.spaces[i]) for i in refilled]
    events.append(Event("workers_retrieved", data))


def pass_start_marker(st: State, events: list[Event]) -> int:
    """Phase 5: the start marker passes to the left; returns its new holder."""
    st.start = (st.start + 1) % st.players
    events.append(Event("start_marker_passed", {"seat": st.start}))
    return st.start


def name_start_player(st: State, seat: int, start: int, events: list[Event]) -> None:
    """``seat`` names ``start`` the start player (the auction's winner, or Trusted Aide, L20)."""
    st.start = start
    events.append(Event("start_player", {"seat": start, "named_by": seat}))
