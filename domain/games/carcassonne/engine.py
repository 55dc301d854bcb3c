"""The Carcassonne engine: the GameEngine interface over the state, flow and choices modules."""

from __future__ import annotations

import random
from collections.abc import Mapping

from domain.engine import JSON, Choice, Decision, Event, GameMeta, OptionSpec, Outcome, PlayerLimit
from domain.games.carcassonne.board import find, is_complete, place_tile
from domain.games.carcassonne.bot import CarcassonneSearch
from domain.games.carcassonne.choices import (
    abbey_choices,
    figure_choices,
    placement_choices,
    wagon_targets,
)
from domain.games.carcassonne.copying import clone, restore_board
from domain.games.carcassonne.flow import (
    continue_end_round,
    draw,
    move_wagon,
    next_wagon,
    put_figure,
    put_tile,
    resolve,
    return_wagon,
    start_turn,
)
from domain.games.carcassonne.invariants import check_invariants
from domain.games.carcassonne.state import (
    CATEGORIES,
    END_ABBEY,
    FIGURE,
    FIGURE_NAMES,
    FOLLOWERS_PER_PLAYER,
    OVER,
    PLACE,
    START,
    SUPPLY_NAMES,
    WAGON_MOVE,
    CarcState,
    pos_of,
    xy_of,
)
from domain.games.carcassonne.tiles import (
    ABBEY,
    ABBEY_OT,
    KIND_NAMES,
    OT_SEG_PLACES,
    PORT_NAMES,
    SIDE_NAMES,
    START_TYPE,
    TILE_TYPES,
    TYPE_BY_ID,
)

DUMP_VERSION = 1

META = GameMeta(
    slug="carcassonne",
    name="Carcassonne",
    min_players=2,
    max_players=6,
    description=(
        "Tile-laying in southern France: build roads, cities, cloisters and fields, claim them "
        "with followers. Optionally with the Abbey & Mayor expansion (abbeys, mayors, wagons, "
        "barns)."
    ),
    options=(
        OptionSpec(
            "abbey_and_mayor",
            "bool",
            True,
            "Play with the Abbey & Mayor expansion (12 tiles, abbey, mayor, wagon, barn).",
        ),
        OptionSpec(
            "abbey_end_round",
            "enum",
            "mandatory",
            "After the last land tile: no abbey round, an optional one, or a mandatory one.",
            ("none", "optional", "mandatory"),
        ),
        OptionSpec(
            "wagon_move",
            "enum",
            "current",
            "Wagon range: 'current' = the 3x3 tiles around it; 'classic' = connected features.",
            ("current", "classic"),
        ),
        OptionSpec(
            "tiny_city_points",
            "int",
            4,
            "Points of a completed 2-tile city without pennants (classic: 2).",
            (4, 2),
        ),
        OptionSpec(
            "farm_scoring",
            "enum",
            "v3",
            "Farm scoring: v3 current (3 per city per field), v2 (a city once per "
            "player), v1 (4 per city to the farmer majority around it).",
            ("v3", "v2", "v1"),
        ),
        OptionSpec("barn_on_barn_field", "bool", False, "Allow a barn on a field that already holds a barn."),
    ),
    player_limits=(PlayerLimit("abbey_and_mayor", False, 5),),
)
DEFAULTS = {spec.name: spec.default for spec in META.options}

PROMPTS = {
    START: ("abbey_or_draw", "Place your abbey in a hole, or draw a land tile."),
    PLACE: ("place_tile", "Place the drawn tile."),
    FIGURE: ("place_figure", "Place a figure on the tile you just placed, or none."),
    WAGON_MOVE: (
        "move_wagon",
        "Move your wagon to a nearby unfinished, unoccupied feature, or take it back.",
    ),
    END_ABBEY: ("end_abbey", "Last chance to place your abbey."),
}


class CarcassonneEngine:
    """Carcassonne (current edition) with the Abbey & Mayor expansion as an option."""

    meta = META
    search_hooks = CarcassonneSearch()

    def setup(
        self, players: int, options: Mapping[str, JSON], rng: random.Random
    ) -> tuple[CarcState, list[Event]]:
        opts = {**DEFAULTS, **options}
        expansion = bool(opts["abbey_and_mayor"])
        pile: list[int] = []
        for tile in TILE_TYPES:
            if tile.index == ABBEY or (tile.expansion != "base" and not expansion):
                continue
            pile.extend([tile.index] * (tile.count - (1 if tile.index == START_TYPE else 0)))
        rng.shuffle(pile)
        extra = 1 if expansion else 0
        st = CarcState(
            players=players,
            options=opts,
            pile=pile,
            scores=[0] * players,
            breakdown=[dict.fromkeys(CATEGORIES, 0) for _ in range(players)],
            supply=[[FOLLOWERS_PER_PLAYER, extra, extra, extra, extra] for _ in range(players)],
        )
        _configure(st)
        place_tile(st, pos_of(0, 0), START_TYPE * 4)
        events = [
            Event(
                "start_tile_placed",
                {"start_tile": TILE_TYPES[START_TYPE].id, "x": 0, "y": 0, "rotation": 0, "pile": len(pile)},
            )
        ]
        start_turn(st, 0, events)
        return st, events

    def decision(self, state: CarcState) -> Decision | None:
        phase = state.phase
        if phase == OVER:
            return None
        kind, prompt = PROMPTS[phase]
        if phase == PLACE:
            return Decision((state.active,), kind, prompt, data={"tile": TILE_TYPES[state.tile].id})
        if phase == WAGON_MOVE:
            fig = state.figures[state.wagon_queue[0]]
            x, y = xy_of(state.t_pos[fig[2]])
            return Decision((fig[0],), kind, prompt, data={"x": x, "y": y})
        if phase == FIGURE:
            x, y = xy_of(state.t_pos[state.placed])
            return Decision((state.active,), kind, prompt, data={"x": x, "y": y})
        return Decision((state.active,), kind, prompt)

    def legal_choices(self, state: CarcState, seat: int) -> list[Choice]:
        decision = self.decision(state)
        if decision is None or seat not in decision.seats:
            return []
        if state.cache is None:
            state.cache = self._compute_choices(state, seat)
        return list(state.cache)

    def _compute_choices(self, st: CarcState, seat: int) -> list[Choice]:
        phase = st.phase
        if phase == PLACE:
            return placement_choices(st, st.tile)
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

    def apply(self, state: CarcState, choices: Mapping[int, Choice]) -> list[Event]:
        st = state
        choice = next(iter(choices.values()))
        st.cache = None
        events: list[Event] = []
        action = choice["action"]
        phase = st.phase
        if phase == PLACE:
            ot = st.tile * 4 + choice["rotation"] // 90
            put_tile(st, pos_of(choice["x"], choice["y"]), ot, events)
        elif phase == FIGURE:
            if action == "none":
                resolve(st, -1, events)
            else:
                fid = put_figure(
                    st, choice["figure"], choice.get("segment", -1), choice.get("corner"), events
                )
                resolve(st, fid if choice["figure"] == "barn" else -1, events)
        elif phase == WAGON_MOVE:
            if action == "move":
                move_wagon(st, pos_of(choice["x"], choice["y"]), choice["segment"], events)
            else:
                return_wagon(st, events)
            next_wagon(st, events)
        elif phase == START:
            if action == "draw":
                draw(st, events)
            else:
                put_tile(st, pos_of(choice["x"], choice["y"]), ABBEY_OT, events)
        elif phase == END_ABBEY:
            st.end_queue.pop(0)
            if action == "pass":
                events.append(Event("abbey_passed", {"seat": st.active}))
                continue_end_round(st, events)
            else:
                put_tile(st, pos_of(choice["x"], choice["y"]), ABBEY_OT, events)
        return events

    def view(self, state: CarcState, viewer: int | None) -> dict[str, JSON]:
        """The whole board is public (the pile order is not): the same for every viewer.

        Every segment of every placed tile names its feature (``features``: the feature id of
        each segment, in the tile type's segment order); ``features`` lists them with their kind
        and whether they are complete; figures say which feature they stand on."""
        st = state
        parent = st.parent
        board = []
        for idx, (pos, ot) in enumerate(zip(st.t_pos, st.t_ot, strict=True)):
            x, y = xy_of(pos)
            base = st.tbase[idx]
            board.append(
                {
                    "x": x,
                    "y": y,
                    "tile": TILE_TYPES[ot >> 2].id,
                    "rotation": (ot & 3) * 90,
                    "features": [find(parent, base + k) for k in range(len(TILE_TYPES[ot >> 2].kinds))],
                }
            )
        features = [
            {"id": g, "kind": KIND_NAMES[st.kind[g]], "complete": is_complete(st, g)}
            for g in range(len(parent))
            if parent[g] == g
        ]
        figures = []
        for fid in sorted(st.figures):
            owner, kind, idx, local, corner = st.figures[fid]
            x, y = xy_of(st.t_pos[idx])
            item: dict[str, JSON] = {
                "id": fid,
                "seat": owner,
                "figure": FIGURE_NAMES[kind],
                "x": x,
                "y": y,
                "segment": local,
                "feature": KIND_NAMES[TILE_TYPES[st.t_ot[idx] >> 2].kinds[local]],
                "feature_id": find(parent, st.tbase[idx] + local),
                "corner": ("NW", "NE", "SE", "SW")[corner] if corner >= 0 else None,
                "pending_move": fid in st.wagon_queue,
            }
            figures.append(item)
        placed: JSON = None
        if st.placed >= 0:
            placed = tile_segments(st.t_ot[st.placed])
        return {
            "phase": st.phase,
            "active": st.active,
            "turn": st.turn,
            "options": dict(st.options),
            "pile_count": len(st.pile),
            "tile": TILE_TYPES[st.tile].id if st.tile >= 0 else None,
            "board": board,
            "features": features,
            "placed_tile_segments": placed,
            "figures": figures,
            "discarded": [TILE_TYPES[t].id for t in st.discarded],
            "players": [
                {
                    "seat": seat,
                    "score": st.scores[seat],
                    "breakdown": dict(st.breakdown[seat]),
                    "supply": dict(zip(SUPPLY_NAMES, st.supply[seat], strict=True)),
                }
                for seat in range(st.players)
            ],
        }

    def check_invariants(self, state: CarcState) -> list[str]:
        """Violated invariants of ``state`` in words (empty when all hold); for simulations."""
        return check_invariants(state)

    def outcome(self, state: CarcState) -> Outcome | None:
        if state.phase != OVER:
            return None
        best = max(state.scores)
        winners = tuple(s for s in range(state.players) if state.scores[s] == best)
        return Outcome(tuple(state.scores), winners, {"breakdown": [dict(b) for b in state.breakdown]})

    def dump(self, state: CarcState) -> dict[str, JSON]:
        st = state
        board = []
        for pos, ot in zip(st.t_pos, st.t_ot, strict=True):
            x, y = xy_of(pos)
            board.append([x, y, TILE_TYPES[ot >> 2].id, (ot & 3) * 90])
        return {
            "version": DUMP_VERSION,
            "players": st.players,
            "options": dict(st.options),
            "pile": [TILE_TYPES[t].id for t in st.pile],
            "board": board,
            "discarded": [TILE_TYPES[t].id for t in st.discarded],
            "scores": list(st.scores),
            "breakdown": [dict(b) for b in st.breakdown],
            "supply": [list(s) for s in st.supply],
            "figures": [[fid, *st.figures[fid]] for fid in sorted(st.figures)],
            "next_fid": st.next_fid,
            "phase": st.phase,
            "active": st.active,
            "tile": TILE_TYPES[st.tile].id if st.tile >= 0 else None,
            "placed": st.placed,
            "last_placer": st.last_placer,
            "turn": st.turn,
            "in_end_round": st.in_end_round,
            "wagon_queue": list(st.wagon_queue),
            "end_queue": list(st.end_queue),
        }

    def copy_state(self, state: CarcState) -> CarcState:
        """Copies the board's derived structures (``load`` rebuilds them tile by tile): a fiftieth
        of a load's cost on a full board, so storage keeps live states (``HostedGame.copy_state``)."""
        return clone(state)

    def load(self, data: Mapping[str, JSON]) -> CarcState:
        st = CarcState(
            players=int(data["players"]),
            options=dict(data["options"]),
            pile=[TYPE_BY_ID[t] for t in data["pile"]],
            scores=list(data["scores"]),
            breakdown=[dict(b) for b in data["breakdown"]],
            supply=[list(s) for s in data["supply"]],
            phase=str(data["phase"]),
            active=int(data["active"]),
            tile=TYPE_BY_ID[data["tile"]] if data["tile"] is not None else -1,
            placed=int(data["placed"]),
            last_placer=int(data["last_placer"]),
            turn=int(data["turn"]),
            next_fid=int(data["next_fid"]),
            in_end_round=bool(data["in_end_round"]),
            discarded=[TYPE_BY_ID[t] for t in data["discarded"]],
            figures={int(f[0]): [int(v) for v in f[1:]] for f in data["figures"]},
            wagon_queue=[int(f) for f in data["wagon_queue"]],
            end_queue=[int(s) for s in data["end_queue"]],
        )
        for x, y, tile_id, rotation in data["board"]:
            st.t_pos.append(pos_of(int(x), int(y)))
            st.t_ot.append(TYPE_BY_ID[tile_id] * 4 + int(rotation) // 90)
        _configure(st)
        restore_board(st)
        return st


def _configure(st: CarcState) -> None:
    st.expansion = bool(st.options["abbey_and_mayor"])
    st.classic_wagon = st.expansion and st.options["wagon_move"] == "classic"


def tile_segments(ot: int) -> list[JSON]:
    """The segments of an oriented tile, as a client needs them to read figure choices."""
    tile = TILE_TYPES[ot >> 2]
    out: list[JSON] = []
    for local, kind in enumerate(tile.kinds):
        places = OT_SEG_PLACES[ot][local]
        item: dict[str, JSON] = {"segment": local, "feature": KIND_NAMES[kind]}
        if kind == 0:
            item["ports"] = [PORT_NAMES[p] for p in places]
        elif kind != 3:
            item["sides"] = [SIDE_NAMES[s] for s in places]
        out.append(item)
    return out
