"""The turn machine: the decision due in each phase, its legal choices, applying an answer, and
the automatic steps between decisions (drawing, scoring, wagon queue, the end of the game).

A decision with no real option is never asked: a figure step whose only choice is "none" is
skipped, and a wagon with no target goes home.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.engine import Choice, Decision, Event
from domain.games.carcassonne import effects
from domain.games.carcassonne.board import find, neighbours_filled
from domain.games.carcassonne.choices import (
    abbey_choices,
    figure_choices,
    has_placement,
    placement_choices,
    wagon_targets,
)
from domain.games.carcassonne.scoring import final_scoring, has_barn, score_completed, score_field_now
from domain.games.carcassonne.state import (
    DELTA,
    END_ABBEY,
    FIGURE,
    NINE,
    NO_TILE,
    OVER,
    PLACE,
    START,
    SUPPLY_ABBEY,
    WAGON_MOVE,
    State,
    square_of,
    xy_of,
)
from domain.games.carcassonne.tiles import (
    ABBEY_OT,
    CITY,
    FIELD,
    IS_HOLE,
    OT_SIDE_SEG,
    OT_TILE,
    ROAD,
    TILE_TYPES,
    oriented,
)
from domain.games.carcassonne.view import PROMPTS

DECISION_KINDS = {
    START: "abbey_or_draw",
    PLACE: "place_tile",
    FIGURE: "place_figure",
    WAGON_MOVE: "move_wagon",
    END_ABBEY: "end_abbey",
}
"""The decision kind asked in each phase (every phase but the game over asks one)."""


def decision(st: State) -> Decision | None:
    phase = st.phase
    if phase == OVER:
        return None
    kind = DECISION_KINDS[phase]
    prompt = PROMPTS[kind]
    if phase == PLACE:
        return Decision((st.active,), kind, prompt, data={"tile": TILE_TYPES[st.drawn_tile].id})
    if phase == WAGON_MOVE:
        wagon = st.figures[st.wagon_queue[0]]
        x, y = xy_of(st.tile_squares[wagon.tile])
        return Decision((wagon.owner,), kind, prompt, data={"x": x, "y": y})
    if phase == FIGURE:
        x, y = xy_of(st.tile_squares[st.placed_tile])
        return Decision((st.active,), kind, prompt, data={"x": x, "y": y})
    return Decision((st.active,), kind, prompt)


def legal_choices(st: State, seat: int) -> list[Choice]:
    """The choices of the deciding seat, computed once per decision (``State.cache``)."""
    due = decision(st)
    if due is None or seat not in due.seats:
        return []
    if st.cache is None:
        st.cache = _compute_choices(st, seat)
    return list(st.cache)


def _compute_choices(st: State, seat: int) -> list[Choice]:
    phase = st.phase
    if phase == PLACE:
        return placement_choices(st, st.drawn_tile)
    if phase == FIGURE:
        return figure_choices(st, seat)
    if phase == WAGON_MOVE:
        return wagon_targets(st, st.wagon_queue[0])
    if phase == START:
        return [{"action": "draw"}, *abbey_choices(st)]
    holes = abbey_choices(st)
    if st.options["abbey_end_round"] == "optional":
        return [{"action": "pass"}, *holes]
    return holes


def apply(st: State, choices: Mapping[int, Choice]) -> list[Event]:
    """Apply the deciding seat's choice, then run on to the next decision."""
    choice = next(iter(choices.values()))
    st.cache = None
    events: list[Event] = []
    action = choice["action"]
    phase = st.phase
    if phase == PLACE:
        ot = oriented(st.drawn_tile, choice["rotation"] // 90)
        play_tile(st, square_of(choice["x"], choice["y"]), ot, events)
    elif phase == FIGURE:
        if action == "none":
            resolve(st, None, events)
        else:
            fid = effects.put_figure(
                st, choice["figure"], choice.get("segment", -1), choice.get("corner"), events
            )
            resolve(st, fid if choice["figure"] == "barn" else None, events)
    elif phase == WAGON_MOVE:
        if action == "move":
            effects.move_wagon(st, square_of(choice["x"], choice["y"]), choice["segment"], events)
        else:
            effects.return_wagon(st, events)
        next_wagon(st, events)
    elif phase == START:
        if action == "draw":
            draw(st, events)
        else:
            play_tile(st, square_of(choice["x"], choice["y"]), ABBEY_OT, events)
    elif phase == END_ABBEY:
        st.end_queue.pop(0)
        if action == "pass":
            events.append(Event("abbey_passed", {"seat": st.active}))
            continue_end_round(st, events)
        else:
            play_tile(st, square_of(choice["x"], choice["y"]), ABBEY_OT, events)
    return events


def start_turn(st: State, seat: int, events: list[Event]) -> None:
    st.active = seat
    st.turn += 1
    st.drawn_tile = NO_TILE
    st.placed_tile = NO_TILE
    if st.expansion and st.supply[seat][SUPPLY_ABBEY] and st.holes:
        st.phase = START
        return
    draw(st, events)


def draw(st: State, events: list[Event]) -> None:
    """Draw until a placeable tile turns up; unplaceable tiles leave the game."""
    pile = st.pile
    while pile:
        tile = pile.pop()
        if has_placement(st, tile):
            st.drawn_tile = tile
            st.phase = PLACE
            events.append(
                Event("tile_drawn", {"seat": st.active, "tile": TILE_TYPES[tile].id, "pile": len(pile)})
            )
            return
        st.discarded.append(tile)
        events.append(
            Event("tile_discarded", {"seat": st.active, "tile": TILE_TYPES[tile].id, "pile": len(pile)})
        )
    end_of_tiles(st, events)


def play_tile(st: State, square: int, ot: int, events: list[Event]) -> None:
    """Lay a land tile or the abbey, then offer the figure step (or skip it)."""
    effects.lay_tile(st, square, ot, events)
    choices = figure_choices(st, st.active)
    if len(choices) > 1:
        st.phase = FIGURE
        st.cache = choices
        return
    resolve(st, None, events)


def resolve(st: State, barn: int | None, events: list[Event]) -> None:
    """Scoring step of a turn: completed features, barn scorings, then the wagon queue.
    ``barn`` is the id of a barn just placed, which scores its field at once."""
    idx = st.placed_tile
    square = st.tile_squares[idx]
    ot = st.oriented_tiles[idx]
    parent, open_edges, tile_at = st.parent, st.open_edges, st.tile_at
    oriented_tiles, first_segments = st.oriented_tiles, st.first_segments
    base = first_segments[idx]
    completed: list[int] = []
    if ot == ABBEY_OT:
        for side in range(4):
            k = tile_at[square + DELTA[side]]
            facing = OT_SIDE_SEG[oriented_tiles[k]][(side + 2) & 3]
            if facing >= 0:
                r = find(parent, first_segments[k] + facing)
                if open_edges[r] == 0 and r not in completed:
                    completed.append(r)
    else:
        for local, kind in enumerate(OT_TILE[ot].kinds):
            if kind in (ROAD, CITY):
                r = find(parent, base + local)
                if open_edges[r] == 0 and r not in completed:
                    completed.append(r)
    for d in NINE:
        j = tile_at.get(square + d)
        if j is not None:
            cloister = OT_TILE[oriented_tiles[j]].cloister
            if cloister >= 0 and neighbours_filled(st, square + d) == 8:
                completed.append(first_segments[j] + cloister)
    wagons: list[int] = []
    for root in completed:
        if st.feature_figures[root]:
            wagons.extend(score_completed(st, root, events))
    if barn is not None:
        score_field_now(st, find(parent, base + st.figures[barn].segment), 3, "barn_placed", events)
    if ot != ABBEY_OT:
        for local, kind in enumerate(OT_TILE[ot].kinds):
            if kind == FIELD:
                r = find(parent, base + local)
                if has_barn(st, r):
                    score_field_now(st, r, 1, "barn_connected", events)
    if wagons:
        n, active = st.players, st.active
        wagons.sort(key=lambda f: (st.figures[f].owner - active) % n)
        st.wagon_queue = wagons
    next_wagon(st, events)


def next_wagon(st: State, events: list[Event]) -> None:
    """Ask the next queued wagon owner, sending home wagons with nowhere to go."""
    queue = st.wagon_queue
    while queue:
        fid = queue[0]
        targets = wagon_targets(st, fid)
        if targets:
            st.phase = WAGON_MOVE
            st.cache = targets
            return
        queue.pop(0)
        effects.send_wagon_home(st, fid, events)
    end_turn(st, events)


def end_turn(st: State, events: list[Event]) -> None:
    st.placed_tile = NO_TILE
    if st.in_end_round:
        continue_end_round(st, events)
    elif not st.pile:
        end_of_tiles(st, events)
    else:
        start_turn(st, (st.active + 1) % st.players, events)


def end_of_tiles(st: State, events: list[Event]) -> None:
    """The land tiles are used up: the end-of-game abbey round (if any), then final scoring."""
    st.drawn_tile = NO_TILE
    if st.expansion and st.options["abbey_end_round"] != "none" and not st.in_end_round:
        st.in_end_round = True
        first = st.last_placer + 1
        st.end_queue = [(first + k) % st.players for k in range(st.players)]
        events.append(Event("abbey_round", {"order": list(st.end_queue)}))
        continue_end_round(st, events)
        return
    finish(st, events)


def continue_end_round(st: State, events: list[Event]) -> None:
    queue = st.end_queue
    while queue:
        seat = queue[0]
        if st.supply[seat][SUPPLY_ABBEY] and st.holes:
            st.active = seat
            if st.holes == 1 and st.options["abbey_end_round"] == "mandatory":
                # a forced abbey with a single hole is placed without asking
                queue.pop(0)
                hole = next(square for square, code in st.frontier.items() if IS_HOLE[code])
                play_tile(st, hole, ABBEY_OT, events)
                return
            st.phase = END_ABBEY
            return
        queue.pop(0)
    finish(st, events)


def finish(st: State, events: list[Event]) -> None:
    final_scoring(st, events)
    st.phase = OVER
    st.drawn_tile = NO_TILE
    st.placed_tile = NO_TILE
    events.append(Event("final_scoring", {"scores": list(st.scores)}))
