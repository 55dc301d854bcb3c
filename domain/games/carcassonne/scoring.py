"""Scoring: completed features, barn scorings, the final scoring and the outcome."""

from __future__ import annotations

from domain.engine import JSON, Event, Outcome
from domain.games.carcassonne.board import find, is_complete, neighbours_filled, tile_count
from domain.games.carcassonne.state import BARN, FIGURE_NAMES, FOLLOWER, MAYOR, WAGON, State
from domain.games.carcassonne.tiles import ABBEY, CITY, CLOISTER, FIELD, KIND_NAMES, ROAD, tile_type

CATEGORY_OF = {ROAD: "roads", CITY: "cities", CLOISTER: "cloisters"}


def majority(st: State, root: int) -> list[int]:
    """Seats with the highest summed strength on a feature (empty if that strength is 0)."""
    strength = [0] * st.players
    figures = st.figures
    pennants = st.pennants[root]
    for fid in st.feature_figures[root]:
        fig = figures[fid]
        if fig.kind == MAYOR:
            strength[fig.owner] += pennants
        elif fig.kind != BARN:
            strength[fig.owner] += 1
    best = max(strength)
    if best <= 0:
        return []
    return [seat for seat in range(st.players) if strength[seat] == best]


def category(st: State, root: int) -> str:
    """The score source of a road, city or cloister: a cloister on the abbey tile is an abbey's."""
    kind = st.segment_kinds[root]
    if kind == CLOISTER and tile_type(st.oriented_tiles[st.segment_tiles[root]]) == ABBEY:
        return "abbeys"
    return CATEGORY_OF[kind]


def award(st: State, seats: list[int], points: int, category: str) -> None:
    for seat in seats:
        st.scores[seat] += points
        st.breakdown[seat][category] += points


def feature_value(st: State, root: int, complete: bool) -> int:
    kind = st.segment_kinds[root]
    if kind == CLOISTER:
        if complete:
            return 9
        return 1 + neighbours_filled(st, st.tile_squares[st.segment_tiles[root]])
    tiles = tile_count(st, root)
    if kind == ROAD:
        return tiles
    pennants = st.pennants[root]
    if not complete:
        return tiles + pennants
    if tiles == 2 and st.options["tiny_city_points"] == 2:
        return tiles + pennants
    return 2 * (tiles + pennants)


def return_figure(st: State, fid: int) -> None:
    """Take a figure off the board back to its owner's supply."""
    fig = st.figures.pop(fid)
    st.supply[fig.owner][fig.kind] += 1
    st.feature_figures[find(st.parent, st.first_segments[fig.tile] + fig.segment)].remove(fid)


def score_completed(st: State, root: int, events: list[Event]) -> list[int]:
    """Score a feature completed this turn; returns the wagons that stood on it."""
    winners = majority(st, root)
    points = feature_value(st, root, True) if winners else 0
    kind = st.segment_kinds[root]
    award(st, winners, points, category(st, root))
    fids = sorted(st.feature_figures[root])
    wagons = [fid for fid in fids if st.figures[fid].kind == WAGON]
    events.append(
        Event(
            "feature_scored",
            {
                "feature": KIND_NAMES[kind],
                "feature_id": root,
                "points": points,
                "winners": winners,
                "tiles": tile_count(st, root) if kind != CLOISTER else 9,
                "figures": figures_of(st, fids),
                "returned": [fid for fid in fids if fid not in wagons],
                "final": False,
            },
        )
    )
    for fid in fids:
        if fid not in wagons:
            return_figure(st, fid)
    return wagons


def figures_of(st: State, fids: list[int]) -> list[JSON]:
    """The figures ``fids`` as events name them: id, owner and figure type."""
    return [
        {"id": fid, "seat": st.figures[fid].owner, "figure": FIGURE_NAMES[st.figures[fid].kind]}
        for fid in fids
    ]


def completed_cities(st: State, field_root: int) -> set[int]:
    """Distinct completed city features touching a field (per-tile adjacency)."""
    refs = st.field_cities[field_root]
    if not refs:
        return set()
    parent, open_edges = st.parent, st.open_edges
    result = set()
    for ref in refs:
        r = find(parent, ref)
        if open_edges[r] == 0:
            result.add(r)
    return result


def farmers_on(st: State, root: int) -> list[int]:
    return sorted(f for f in st.feature_figures[root] if st.figures[f].kind == FOLLOWER)


def farmer_majority(st: State, root: int) -> list[int]:
    count = [0] * st.players
    for fid in st.feature_figures[root]:
        fig = st.figures[fid]
        if fig.kind == FOLLOWER:
            count[fig.owner] += 1
    best = max(count)
    return [s for s in range(st.players) if count[s] == best] if best else []


def score_field_now(st: State, root: int, per_city: int, reason: str, events: list[Event]) -> None:
    """Barn scoring during play: farmer majority scores, then the farmers go home."""
    farmers = sorted(f for f in st.feature_figures[root] if st.figures[f].kind == FOLLOWER)
    if not farmers:
        return
    winners = farmer_majority(st, root)
    cities = len(completed_cities(st, root))
    points = per_city * cities
    award(st, winners, points, "fields")
    events.append(
        Event(
            "field_scored",
            {
                "reason": reason,
                "fields": [root],
                "points": points,
                "cities": cities,
                "winners": winners,
                "figures": figures_of(st, farmers),
                "returned": farmers,
            },
        )
    )
    for fid in farmers:
        return_figure(st, fid)


def has_barn(st: State, root: int) -> bool:
    figures = st.figures
    return any(figures[f].kind == BARN for f in st.feature_figures[root])


def final_scoring(st: State, events: list[Event]) -> None:
    """Unfinished roads, cities, cloisters; then fields with farmers; then fields with barns."""
    parent, segment_kinds, feature_figures = st.parent, st.segment_kinds, st.feature_figures
    roots = [g for g in range(len(parent)) if parent[g] == g and feature_figures[g]]
    for root in roots:
        if segment_kinds[root] == FIELD:
            continue
        winners = majority(st, root)
        points = feature_value(st, root, is_complete(st, root)) if winners else 0
        award(st, winners, points, category(st, root))
        fids = sorted(feature_figures[root])
        events.append(
            Event(
                "feature_scored",
                {
                    "feature": KIND_NAMES[segment_kinds[root]],
                    "feature_id": root,
                    "points": points,
                    "winners": winners,
                    "tiles": tile_count(st, root) if segment_kinds[root] != CLOISTER else 1,
                    "figures": figures_of(st, fids),
                    "returned": [],
                    "final": True,
                },
            )
        )
    fields = [r for r in roots if segment_kinds[r] == FIELD]
    farm_fields = []
    for root in fields:
        if has_barn(st, root):
            # Cannot happen with base + A&M (Q11); JCZ order: farmers at 1/city first.
            score_field_now(st, root, 1, "final_with_barn", events)
        elif any(st.figures[f].kind == FOLLOWER for f in feature_figures[root]):
            farm_fields.append(root)
    _score_farms(st, farm_fields, events)
    for root in fields:
        if not has_barn(st, root):
            continue
        barns = sorted(f for f in feature_figures[root] if st.figures[f].kind == BARN)
        owners = sorted({st.figures[f].owner for f in barns})
        cities = len(completed_cities(st, root))
        award(st, owners, 4 * cities, "barns")
        events.append(
            Event(
                "barn_scored",
                {
                    "fields": [root],
                    "points": 4 * cities,
                    "cities": cities,
                    "winners": owners,
                    "figures": figures_of(st, barns),
                    "returned": [],
                },
            )
        )


def _score_farms(st: State, fields: list[int], events: list[Event]) -> None:
    version = st.options["farm_scoring"]
    if version == "v3":
        for root in fields:
            winners = farmer_majority(st, root)
            cities = len(completed_cities(st, root))
            award(st, winners, 3 * cities, "fields")
            events.append(
                Event(
                    "field_scored",
                    {
                        "reason": "final",
                        "fields": [root],
                        "points": 3 * cities,
                        "cities": cities,
                        "winners": winners,
                        "figures": figures_of(st, farmers_on(st, root)),
                        "returned": [],
                    },
                )
            )
    elif version == "v2":
        won: list[set[int]] = [set() for _ in range(st.players)]
        won_fields: list[list[int]] = [[] for _ in range(st.players)]
        for root in fields:
            touching = completed_cities(st, root)
            for seat in farmer_majority(st, root):
                won[seat] |= touching
                won_fields[seat].append(root)
        for seat in range(st.players):
            if won[seat]:
                award(st, [seat], 3 * len(won[seat]), "fields")
                farmers = [
                    f for r in won_fields[seat] for f in farmers_on(st, r) if st.figures[f].owner == seat
                ]
                events.append(
                    Event(
                        "field_scored",
                        {
                            "reason": "final",
                            "fields": won_fields[seat],
                            "points": 3 * len(won[seat]),
                            "cities": len(won[seat]),
                            "winners": [seat],
                            "figures": figures_of(st, sorted(farmers)),
                            "returned": [],
                        },
                    )
                )
    else:
        fields_of_city: dict[int, list[int]] = {}
        for root in fields:
            for city in sorted(completed_cities(st, root)):
                fields_of_city.setdefault(city, []).append(root)
        for city in sorted(fields_of_city):
            count = [0] * st.players
            for root in fields_of_city[city]:
                for fid in st.feature_figures[root]:
                    fig = st.figures[fid]
                    if fig.kind == FOLLOWER:
                        count[fig.owner] += 1
            best = max(count)
            winners = [s for s in range(st.players) if count[s] == best]
            award(st, winners, 4, "fields")
            farmers = sorted(f for r in fields_of_city[city] for f in farmers_on(st, r))
            events.append(
                Event(
                    "field_scored",
                    {
                        "reason": "final",
                        "fields": fields_of_city[city],
                        "points": 4,
                        "cities": 1,
                        "winners": winners,
                        "figures": figures_of(st, farmers),
                        "returned": [],
                    },
                )
            )


def outcome(st: State) -> Outcome:
    """Highest score wins; every tied seat wins (the rulebook has no tie-breaker)."""
    best = max(st.scores)
    winners = tuple(seat for seat in range(st.players) if st.scores[seat] == best)
    return Outcome(tuple(st.scores), winners, {"breakdown": [dict(b) for b in st.breakdown]})
