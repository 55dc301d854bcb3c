"""The mutable game state, its exact JSON round trip, and the cube bookkeeping helpers.

The flow of play is a stack of small JSON frames (``stack``): the top frame is what happens next
(a phase, a law-card window, a payment...). Frames hold only JSON values so that ``dump`` is a
plain copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.engine import JSON, Choice, Decision

Cell = tuple[int, int]
Slot = tuple[int, int, int, int]
Frame = dict[str, Any]

KEYTHEDRAL: Cell = (0, 0)


@dataclass(slots=True)
class Pending:
    """The decision the game is waiting for (derived, never stored).

    ``seats`` is set for a law window: every listed seat decides at once (sealed), each from its
    own choices; ``seat`` and ``choices`` then describe the first of them. ``held`` keeps a
    decision with a single choice open: whether it has more depends on a hidden hand, so
    applying it at once would tell everyone that the hand holds nothing playable.
    """

    seat: int
    kind: str
    choices: list[Choice]
    data: dict[str, JSON]
    decision: Decision | None = None
    seats: dict[int, list[Choice]] | None = None
    held: bool = False

    def choices_of(self, seat: int) -> list[Choice]:
        if self.seats is not None:
            return self.seats.get(seat, [])
        return self.choices if seat == self.seat else []


@dataclass(slots=True)
class LawEffects:
    """What law cards changed for the current round only."""

    work_order: int = -1  # L01 holder
    right_of_way: list[int] = field(default_factory=list)  # L09 seats
    restriction: int = -1  # L12 holder
    bumper: int = -1  # L18 field type
    blight: int = -1  # L19 field type
    harvest_choice: list[int] = field(default_factory=list)  # L08 field type per seat
    hard_worker: list[list[int] | None] = field(default_factory=list)  # L14 field per seat
    renumber: list[list[int] | None] = field(default_factory=list)  # L06 [number, marker]

    @classmethod
    def fresh(cls, players: int) -> LawEffects:
        return cls(
            harvest_choice=[-1] * players,
            hard_worker=[None] * players,
            renumber=[None] * players,
        )


@dataclass(slots=True)
class State:
    players: int
    length: str
    face_up_tiles: bool
    law_cards_face_up: bool
    optional_placement: bool
    seed: int
    draws: int = 0
    start: int = 0
    round: int = 0
    phase: int = 0  # 0 = tile laying, 1..5 = the phases of a round
    over: bool = False
    abnormal: bool = False
    fields: dict[Cell, int] = field(default_factory=dict)
    field_stack: list[int] = field(default_factory=list)
    cottage_pos: list[list[Cell | None]] = field(default_factory=list)  # [seat][number-1]
    house: list[list[bool]] = field(default_factory=list)
    gap_occ: dict[Cell, tuple[int, int]] = field(default_factory=dict)  # gap -> (seat, number)
    off_board: list[list[int]] = field(default_factory=list)  # fenced-out [seat, number]
    fences: dict[Slot, int] = field(default_factory=dict)
    fences_left: list[int] = field(default_factory=list)
    workers: dict[Cell, int] = field(default_factory=dict)
    cubes: list[list[int]] = field(default_factory=list)
    store: list[int] = field(default_factory=list)
    craftsmen: list[int] = field(default_factory=list)  # white, purple, yellow on Keytown
    rows: list[list[int]] = field(default_factory=list)
    pools: list[list[int]] = field(default_factory=list)
    bought: list[list[int]] = field(default_factory=list)
    mods: dict[int, list[int]] = field(default_factory=dict)  # tile -> [increases, decreases]
    deck: list[int] = field(default_factory=list)
    spaces: list[int] = field(default_factory=list)  # law card or 0 when empty
    hands: list[list[int]] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)  # numbers chosen, marker 1 first
    fx: LawEffects = field(default_factory=LawEffects)
    cur: int = 0  # phase 3: the seat whose turn it is
    streak: int = 0  # phase 3: consecutive passes
    out: list[bool] = field(default_factory=list)  # phase 3: procured a law card
    taken: bool = False  # phase 3: the current turn's action was carried out
    stack: list[Frame] = field(default_factory=list)
    pending: Pending | None = None

    # -- derived -----------------------------------------------------------------------------
    def current_row(self) -> int:
        for i, row in enumerate(self.rows):
            if row:
                return i
        return len(self.rows)

    def face_up(self, row: int) -> bool:
        """Fronts visible: the lowest unfinished row once tile laying is over (S-10 turns the
        value-4 tiles up only then), or every row in the face-up variant."""
        return self.face_up_tiles or (self.round > 0 and row == self.current_row())

    def turn_order(self, first: int | None = None) -> list[int]:
        first = self.start if first is None else first
        return [(first + i) % self.players for i in range(self.players)]

    def total_cubes(self, seat: int) -> int:
        return sum(self.cubes[seat])

    # -- cube moves (the store and the craftsmen are the only other places cubes live) ----
    def pay_to_store(self, seat: int, colour: int, count: int = 1) -> None:
        self.cubes[seat][colour] -= count
        self.store[colour] += count

    def take_from_store(self, seat: int, colour: int, count: int = 1) -> None:
        self.store[colour] -= count
        self.cubes[seat][colour] += count


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists and scalars), much faster than ``copy.deepcopy``."""
    if type(value) is dict:
        return {k: copy_json(v) if type(v) in (dict, list) else v for k, v in value.items()}
    if type(value) is list:
        return [copy_json(v) if type(v) in (dict, list) else v for v in value]
    return value


def clone_state(st: State) -> State:
    """An independent copy of ``st`` with no pending decision (the caller rebuilds it)."""
    fx = st.fx
    return State(
        players=st.players,
        length=st.length,
        face_up_tiles=st.face_up_tiles,
        law_cards_face_up=st.law_cards_face_up,
        optional_placement=st.optional_placement,
        seed=st.seed,
        draws=st.draws,
        start=st.start,
        round=st.round,
        phase=st.phase,
        over=st.over,
        abnormal=st.abnormal,
        fields=dict(st.fields),
        field_stack=list(st.field_stack),
        cottage_pos=[list(row) for row in st.cottage_pos],
        house=[list(row) for row in st.house],
        gap_occ=dict(st.gap_occ),
        off_board=[list(o) for o in st.off_board],
        fences=dict(st.fences),
        fences_left=list(st.fences_left),
        workers=dict(st.workers),
        cubes=[list(c) for c in st.cubes],
        store=list(st.store),
        craftsmen=list(st.craftsmen),
        rows=[list(r) for r in st.rows],
        pools=[list(p) for p in st.pools],
        bought=[list(b) for b in st.bought],
        mods={t: list(m) for t, m in st.mods.items()},
        deck=list(st.deck),
        spaces=list(st.spaces),
        hands=[list(h) for h in st.hands],
        discard=list(st.discard),
        markers=list(st.markers),
        fx=LawEffects(
            work_order=fx.work_order,
            right_of_way=list(fx.right_of_way),
            restriction=fx.restriction,
            bumper=fx.bumper,
            blight=fx.blight,
            harvest_choice=list(fx.harvest_choice),
            hard_worker=[None if h is None else list(h) for h in fx.hard_worker],
            renumber=[None if r is None else list(r) for r in fx.renumber],
        ),
        cur=st.cur,
        streak=st.streak,
        out=list(st.out),
        taken=st.taken,
        stack=[copy_json(fr) for fr in st.stack],
    )


def _cell(c: Cell | None) -> list[int] | None:
    return None if c is None else [c[0], c[1]]


def dump_state(st: State) -> dict[str, JSON]:
    fx = st.fx
    data: dict[str, JSON] = {
        "players": st.players,
        "length": st.length,
        "face_up_tiles": st.face_up_tiles,
        "law_cards_face_up": st.law_cards_face_up,
        "optional_placement": st.optional_placement,
        "seed": st.seed,
        "draws": st.draws,
        "start": st.start,
        "round": st.round,
        "phase": st.phase,
        "over": st.over,
        "abnormal": st.abnormal,
        "fields": [[x, y, t] for (x, y), t in st.fields.items()],
        "field_stack": list(st.field_stack),
        "cottage_pos": [[_cell(c) for c in row] for row in st.cottage_pos],
        "house": [list(row) for row in st.house],
        "off_board": [list(o) for o in st.off_board],
        "fences": [[*slot, owner] for slot, owner in st.fences.items()],
        "fences_left": list(st.fences_left),
        "workers": [[x, y, s] for (x, y), s in st.workers.items()],
        "cubes": [list(c) for c in st.cubes],
        "store": list(st.store),
        "craftsmen": list(st.craftsmen),
        "rows": [list(r) for r in st.rows],
        "pools": [list(p) for p in st.pools],
        "bought": [list(b) for b in st.bought],
        "mods": [[t, m[0], m[1]] for t, m in st.mods.items()],
        "deck": list(st.deck),
        "spaces": list(st.spaces),
        "hands": [list(h) for h in st.hands],
        "discard": list(st.discard),
        "markers": list(st.markers),
        "fx": {
            "work_order": fx.work_order,
            "right_of_way": list(fx.right_of_way),
            "restriction": fx.restriction,
            "bumper": fx.bumper,
            "blight": fx.blight,
            "harvest_choice": list(fx.harvest_choice),
            "hard_worker": [None if h is None else list(h) for h in fx.hard_worker],
            "renumber": [None if r is None else list(r) for r in fx.renumber],
        },
        "cur": st.cur,
        "streak": st.streak,
        "out": list(st.out),
        "taken": st.taken,
        "stack": copy_json(st.stack),
    }
    return data


def load_state(d: Mapping[str, Any]) -> State:
    fx = d["fx"]
    st = State(
        players=d["players"],
        length=d["length"],
        face_up_tiles=d["face_up_tiles"],
        law_cards_face_up=d["law_cards_face_up"],
        optional_placement=d["optional_placement"],
        seed=d["seed"],
        draws=d["draws"],
        start=d["start"],
        round=d["round"],
        phase=d["phase"],
        over=d["over"],
        abnormal=d["abnormal"],
        fields={(x, y): t for x, y, t in d["fields"]},
        field_stack=list(d["field_stack"]),
        cottage_pos=[[None if c is None else (c[0], c[1]) for c in row] for row in d["cottage_pos"]],
        house=[list(row) for row in d["house"]],
        off_board=[list(o) for o in d["off_board"]],
        fences={(a, b, c, e): o for a, b, c, e, o in d["fences"]},
        fences_left=list(d["fences_left"]),
        workers={(x, y): s for x, y, s in d["workers"]},
        cubes=[list(c) for c in d["cubes"]],
        store=list(d["store"]),
        craftsmen=list(d["craftsmen"]),
        rows=[list(r) for r in d["rows"]],
        pools=[list(p) for p in d["pools"]],
        bought=[list(b) for b in d["bought"]],
        mods={t: [i, m] for t, i, m in d["mods"]},
        deck=list(d["deck"]),
        spaces=list(d["spaces"]),
        hands=[list(h) for h in d["hands"]],
        discard=list(d["discard"]),
        markers=list(d["markers"]),
        fx=LawEffects(
            work_order=fx["work_order"],
            right_of_way=list(fx["right_of_way"]),
            restriction=fx["restriction"],
            bumper=fx["bumper"],
            blight=fx["blight"],
            harvest_choice=list(fx["harvest_choice"]),
            hard_worker=[None if h is None else list(h) for h in fx["hard_worker"]],
            renumber=[None if r is None else list(r) for r in fx["renumber"]],
        ),
        cur=d["cur"],
        streak=d["streak"],
        out=list(d["out"]),
        taken=d["taken"],
        stack=copy_json(d["stack"]),
    )
    for seat, row in enumerate(st.cottage_pos):
        for i, pos in enumerate(row):
            if pos is not None:
                st.gap_occ[pos] = (seat, i + 1)
    st.gap_occ[KEYTHEDRAL] = (-1, 0)
    return st
