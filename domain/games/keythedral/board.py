"""Board geometry on the parity lattice of the rules reference (section 2.2).

Fields (octagons) sit on cells with both coordinates odd, gaps (diamonds: cottages, houses, the
Keythedral) on cells with both even, the Keythedral at (0, 0). A field touches the fields two
steps away orthogonally and the four gaps diagonally next to it; a gap touches four fields. A
fence slot is a (gap, field) pair of diagonal neighbours.
"""

from __future__ import annotations

from domain.games.keythedral.state import KEYTHEDRAL, Cell, Slot, State

DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHOGONAL = ((2, 0), (-2, 0), (0, 2), (0, -2))


_DIAGONAL: dict[Cell, tuple[Cell, ...]] = {}
_SLOTS: dict[Cell, tuple[tuple[Cell, Slot], ...]] = {}


def diagonal(cell: Cell) -> tuple[Cell, ...]:
    found = _DIAGONAL.get(cell)
    if found is None:
        x, y = cell
        found = _DIAGONAL[cell] = ((x + 1, y + 1), (x + 1, y - 1), (x - 1, y + 1), (x - 1, y - 1))
    return found


def gap_slots(gap: Cell) -> tuple[tuple[Cell, Slot], ...]:
    """The four cells diagonal to ``gap``, each with the fence slot between them."""
    found = _SLOTS.get(gap)
    if found is None:
        found = _SLOTS[gap] = tuple((f, (gap[0], gap[1], f[0], f[1])) for f in diagonal(gap))
    return found


_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {}


def field_neighbours(cell: Cell) -> tuple[Cell, ...]:
    found = _NEIGHBOURS.get(cell)
    if found is None:
        x, y = cell
        found = _NEIGHBOURS[cell] = ((x + 2, y), (x - 2, y), (x, y + 2), (x, y - 2))
    return found


def legal_field_cells(st: State) -> list[Cell]:
    """Empty field cells connected to a field or to an occupied gap (G4)."""
    fields = st.fields
    cells: set[Cell] = set()
    for f in fields:
        for n in field_neighbours(f):
            if n not in fields:
                cells.add(n)
    for g in st.gap_occ:
        for n in diagonal(g):
            if n not in fields:
                cells.add(n)
    return sorted(cells)


def legal_cottage_gaps(st: State) -> list[Cell]:
    """Empty gaps with at least one neighbouring field (G5)."""
    cells: set[Cell] = set()
    for f in st.fields:
        for g in diagonal(f):
            if g not in st.gap_occ:
                cells.add(g)
    return sorted(cells)


def slot(gap: Cell, fld: Cell) -> Slot:
    return (gap[0], gap[1], fld[0], fld[1])


def open_fields(st: State, gap: Cell) -> list[Cell]:
    """The existing fields next to ``gap`` that no fence closes off from it."""
    fences = st.fences
    fields = st.fields
    return [f for f, s in gap_slots(gap) if f in fields and s not in fences]


def replacement_gaps(st: State) -> list[Cell]:
    """Where a fenced-out cottage may go: an empty gap with an open neighbouring field (Q2)."""
    return [g for g in legal_cottage_gaps(st) if open_fields(st, g)]


def is_enclosed(st: State, gap: Cell) -> bool:
    return not open_fields(st, gap)


def free_fence_slots(st: State) -> list[Slot]:
    """Slots between a cottage or house and an existing field that hold no fence (G6)."""
    slots: list[Slot] = []
    fences = st.fences
    fields = st.fields
    for g, (seat, _) in st.gap_occ.items():
        if seat < 0:
            continue
        for f, s in gap_slots(g):
            if f in fields and s not in fences:
                slots.append(s)
    slots.sort()
    return slots


def has_free_fence_slot(st: State) -> bool:
    fences = st.fences
    fields = st.fields
    for g, (seat, _) in st.gap_occ.items():
        if seat >= 0:
            for f, s in gap_slots(g):
                if f in fields and s not in fences:
                    return True
    return False


def worker_fields(st: State, seat: int, gap: Cell) -> list[Cell]:
    """Fields a worker from ``gap`` may enter: existing, unoccupied, not fenced off (P1-3)."""
    fields = st.fields
    workers = st.workers
    if seat in st.fx.right_of_way:
        return [f for f in diagonal(gap) if f in fields and f not in workers]
    fences = st.fences
    return [f for f, s in gap_slots(gap) if f in fields and f not in workers and s not in fences]


def place_cottage(st: State, seat: int, number: int, gap: Cell) -> None:
    st.cottage_pos[seat][number - 1] = gap
    st.gap_occ[gap] = (seat, number)


def lift_cottage(st: State, seat: int, number: int) -> Cell:
    gap = st.cottage_pos[seat][number - 1]
    assert gap is not None and gap != KEYTHEDRAL
    del st.gap_occ[gap]
    st.cottage_pos[seat][number - 1] = None
    return gap
