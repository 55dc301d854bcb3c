"""Search hooks for the greedy bot: resample the face-down pile, and value a position.

The only hidden information is the order of the pile; what the pile holds is public (the tile set
minus the board, the discards and the drawn tile). ``determinize`` rebuilds the pile from those
public facts alone and shuffles it, so it never looks at the real order.

``evaluate`` is the seat's score plus what its figures are likely to bring (the part of each
unfinished feature it leads, weighted by how likely it is to be finished with the tiles left), the
worth of the figures still in its supply, and (for the seat that may still put a figure on the tile
it just placed) the best feature it could claim; minus the same for the best opponent.
"""

from __future__ import annotations

import random

from domain.bots.hooks import SearchHooks
from domain.games.carcassonne.board import find, neighbours_filled, tile_count
from domain.games.carcassonne.scoring import feature_value, majority
from domain.games.carcassonne.state import (
    BARN,
    FIGURE,
    FOLLOWER,
    MAYOR,
    NO_TILE,
    OVER,
    SUPPLY_ABBEY,
    WAGON,
    State,
    copy_state,
)
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CITY,
    CLOISTER,
    FIELD,
    OT_TILE,
    ROAD,
    full_tile_set,
    tile_type,
)

CITY_FINISH_CHANCE = (1.0, 0.75, 0.5, 0.3, 0.15)
"""Chance that a city with 0, 1, 2, 3, 4+ open edges gets finished (with plenty of tiles left)."""
CLOISTER_FILL = 0.7
"""Share of a cloister's empty neighbours expected to be filled (with plenty of tiles left)."""
OPEN_CITY_FOR_FARMS = 0.35
"""Share of an unfinished city's farm value counted for the farmers/barns next to it."""
FOLLOWER_WORTH = (3.0, 2.5, 2.0, 1.5, 1.0, 0.5, 0.5)
"""Worth of the followers in the supply: the last one left is worth the first entry, the one
before it the second, and so on (a seat's first few placements cost little, its last ones dear)."""
SPECIAL_WORTH = (0.0, 2.0, 2.0, 1.5, 1.0)
"""Worth of a mayor, wagon, barn, abbey still in the supply (followers are counted above)."""
PLENTY = 12
"""Tiles left in the pile above which finishing chances no longer shrink."""


class CarcassonneSearchHooks(SearchHooks[State]):
    """The ``SearchHooks`` of Carcassonne.

    ``samples`` and ``max_candidates`` are what this game would ask of the search: the pile order
    barely matters one step ahead, so one sampled pile is enough. The strong level searches the
    seat's whole turn (``turn_rollouts``): the best end of each of its 6 best first moves, each
    played on through the opponents' turns on 12 sampled piles (``domain.bots.turn_search``;
    bench/README.md has what it won).
    """

    samples = 1
    max_candidates = 48
    value_scale = 3.0
    turn_rollouts = 12
    turn_candidates = 6

    def copy(self, state: State) -> State:
        return copy_state(state)

    def observed(self, state: State) -> str:
        """The tile drawn, shown to the table: the seat to place it decides on its own node of the
        strong search (a placement's key names only a square and a rotation, the same for every
        tile, so without it one node mixed the replies of every tile the sampled piles drew).
        Nothing (the empty string) while no tile is drawn: the whole-turn search reads a new value
        as chance showing something new."""
        return "" if state.drawn_tile == NO_TILE else str(state.drawn_tile)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy whose pile holds the unseen tiles in an order drawn from ``rng``."""
        copy = copy_state(state)
        pile = unseen_tiles(state)
        rng.shuffle(pile)
        copy.pile = pile
        return copy

    def evaluate(self, state: State, seat: int) -> float:
        """The seat's prospects minus the best opponent's. The seat about to put a figure on the
        tile it just placed counts the best feature it could claim, whoever asks: the greedy
        level only ever judges its own figure step, and the strong search, judging a leaf where an
        opponent is about to claim, sees the claim coming instead of finding the opponent's
        placement free of cost."""
        values = prospects(state)
        if state.phase == FIGURE:
            values[state.active] += claim_bonus(state, state.active)
        best_other = max(v for s, v in enumerate(values) if s != seat)
        return values[seat] - best_other


def unseen_tiles(st: State) -> list[int]:
    """The land tiles nobody has seen yet, sorted: the public content of the face-down pile.

    Computed from public facts only (the tile set, the board, the discards and the drawn tile), so
    it never looks at the pile itself.
    """
    left = full_tile_set(st.expansion)
    for ot in st.oriented_tiles:
        if ot != ABBEY_OT:
            left[tile_type(ot)] -= 1
    for tile in st.discarded:
        left[tile] -= 1
    if st.drawn_tile != NO_TILE:
        left[st.drawn_tile] -= 1
    return sorted(left.elements())


def _finish_factor(st: State) -> float:
    return min(1.0, len(st.pile) / PLENTY)


def supply_worth(st: State, seat: int, factor: float) -> float:
    supply = st.supply[seat]
    worth = sum(FOLLOWER_WORTH[: supply[FOLLOWER]])
    worth += sum(SPECIAL_WORTH[k] * supply[k] for k in (MAYOR, WAGON, BARN, SUPPLY_ABBEY))
    return worth * factor


def feature_prospect(st: State, root: int, factor: float) -> float:
    """Points the leaders of a road, city or cloister may still expect from it.

    A finished feature is worth its full value during the figure step (it is scored right after)
    and nothing later (only a wagon waiting to move can still stand on it, already paid).
    """
    if _finished(st, root):
        return float(feature_value(st, root, True)) if st.phase == FIGURE else 0.0
    kind = st.segment_kinds[root]
    if kind == ROAD:
        return float(tile_count(st, root))
    if kind == CITY:
        base = tile_count(st, root) + st.pennants[root]
        return base * (1.0 + CITY_FINISH_CHANCE[min(st.open_edges[root], 4)] * factor)
    filled = neighbours_filled(st, st.tile_squares[st.segment_tiles[root]])
    return 1.0 + filled + (8 - filled) * CLOISTER_FILL * factor


def _farm_prospect(st: State, root: int, factor: float, per_city: float) -> float:
    refs = st.field_cities[root]
    if not refs:
        return 0.0
    parent, open_edges = st.parent, st.open_edges
    finished: set[int] = set()
    unfinished: set[int] = set()
    for ref in refs:
        r = find(parent, ref)
        (finished if open_edges[r] == 0 else unfinished).add(r)
    return per_city * (len(finished) + OPEN_CITY_FOR_FARMS * factor * len(unfinished))


def prospects(st: State) -> list[float]:
    """Per seat: score, plus expected points of the features it leads, plus its supply's worth."""
    values = [float(s) for s in st.scores]
    if st.phase == OVER:
        return values
    factor = _finish_factor(st)
    parent, figures = st.parent, st.figures
    seen: set[int] = set()
    for fig in figures.values():
        root = find(parent, st.first_segments[fig.tile] + fig.segment)
        if root in seen:
            continue
        seen.add(root)
        if st.segment_kinds[root] == FIELD:
            _farm_values(st, root, factor, values)
            continue
        leaders = majority(st, root)
        if leaders:
            points = feature_prospect(st, root, factor)
            for s in leaders:
                values[s] += points
    for s in range(st.players):
        values[s] += supply_worth(st, s, factor)
    return values


def _farm_values(st: State, root: int, factor: float, values: list[float]) -> None:
    farmers = [0] * st.players
    barns: set[int] = set()
    for fid in st.feature_figures[root]:
        fig = st.figures[fid]
        if fig.kind == FOLLOWER:
            farmers[fig.owner] += 1
        elif fig.kind == BARN:
            barns.add(fig.owner)
    most = max(farmers)
    if most:
        points = _farm_prospect(st, root, factor, 3.0)
        for s in range(st.players):
            if farmers[s] == most:
                values[s] += points
    if barns:
        points = _farm_prospect(st, root, factor, 4.0)
        for s in barns:
            values[s] += points


def claim_bonus(st: State, seat: int) -> float:
    """What the best free feature of the tile just placed is worth to ``seat`` with a follower."""
    supply = st.supply[seat]
    if not supply[FOLLOWER] or st.placed_tile == NO_TILE:
        return 0.0
    factor = _finish_factor(st)
    cost = FOLLOWER_WORTH[supply[FOLLOWER] - 1] * factor
    base = st.first_segments[st.placed_tile]
    best = 0.0
    for local in range(len(OT_TILE[st.oriented_tiles[st.placed_tile]].kinds)):
        root = find(st.parent, base + local)
        if st.feature_figures[root]:
            continue
        if st.segment_kinds[root] == FIELD:
            gain = _farm_prospect(st, root, factor, 3.0) - cost
        elif _finished(st, root):
            gain = float(feature_value(st, root, True))  # scored now, the follower comes back
        else:
            gain = feature_prospect(st, root, factor) - cost
        best = max(best, gain)
    return best


def _finished(st: State, root: int) -> bool:
    kind = st.segment_kinds[root]
    if kind == CLOISTER:
        return neighbours_filled(st, st.tile_squares[st.segment_tiles[root]]) == 8
    return st.open_edges[root] == 0
