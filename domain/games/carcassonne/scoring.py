"""Scoring: completed features, barn scorings, and the final scoring."""

from __future__ import annotations

from domain.engine import Event
from domain.games.carcassonne.board import find, is_complete, neighbours_filled, tile_count
from domain.games.carcassonne.state import BARN, FIGURE_NAMES, FOLLOWER, MAYOR, WAGON, CarcState
from domain.games.carcassonne.tiles import CITY, CLOISTER, FIELD, KIND_NAMES, ROAD

CATEGORY_OF = {ROAD: "roads", CITY: "cities", CLOISTER: "cloisters"}


def majority(st: CarcState, root: int) -> list[int]:
    """Seats with the highest summed strength on a feature (empty if that strength is 0)."""
    strength = [0] * st.players
    figures = st.figures
    pennants = st.pennants[root]
    for fid in st.figs[root]:
        owner, kind = figures[fid][0], figures[fid][1]
        if kind == MAYOR:
            strength[owner] += pennants
        elif kind != BARN:
            strength[owner] += 1
    best = max(strength)
    if best <= 0:
        return []
    return [seat for seat in range(st.players) if strength[seat] == best]


def award(st: CarcState, seats: list[int], points: int, category: str) -> None:
    for seat in seats:
        st.scores[seat] += points
        st.breakdown[seat][category] += points


def feature_value(st: CarcState, root: int, complete: bool) -> int:
    kind = st.kind[root]
    if kind == CLOISTER:
        if complete:
            return 9
        return 1 + neighbours_filled(st, st.t_pos[st.stile[root]])
    tiles = tile_count(st, root)
    if kind == ROAD:
        return tiles
    pennants = st.pennants[root]
    if not complete:
        return tiles + pennants
    if tiles == 2 and st.options["tiny_city_points"] == 2:
        return tiles + pennants
    return 2 * (tiles + pennants)


def return_figure(st: CarcState, fid: int) -> None:
    """Take a figure off the board back to its owner's supply."""
    owner, kind, tile, local = st.figures.pop(fid)[:4]
    st.supply[owner][kind] += 1
    figs = st.figs[find(st.parent, st.tbase[tile] + local)]
    figs.remove(fid)


def score_completed(st: CarcState, root: int, events: list[Event]) -> list[int]:
    """Score a feature completed this turn; returns the wagons that stood on it."""
    winners = majority(st, root)
    points = feature_value(st, root, True) if winners else 0
    kind = st.kind[root]
    award(st, winners, points, CATEGORY_OF[kind])
    fids = sorted(st.figs[root])
    wagons = [fid for fid in fids if st.figures[fid][1] == WAGON]
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


def figures_of(st: CarcState, fids: list[int]) -> list[dict[str, object]]:
    """The figures ``fids`` as events name them: id, owner and figure type."""
    return [
        {"id": fid, "seat": st.figures[fid][0], "figure": FIGURE_NAMES[st.figures[fid][1]]} for fid in fids
    ]


def completed_cities(st: CarcState, field_root: int) -> set[int]:
    """Distinct completed city features touching a field (per-tile adjacency)."""
    refs = st.fcities[field_root]
    if not refs:
        return set()
    parent, opens = st.parent, st.opens
    result = set()
    for ref in refs:
        r = find(parent, ref)
        if opens[r] == 0:
            result.add(r)
    return result


def farmers_on(st: CarcState, root: int) -> list[int]:
    return sorted(f for f in st.figs[root] if st.figures[f][1] == FOLLOWER)


def farmer_majority(st: CarcState, root: int) -> list[int]:
    count = [0] * st.players
    for fid in st.figs[root]:
        fig = st.figures[fid]
        if fig[1] == FOLLOWER:
            count[fig[0]] += 1
    best = max(count)
    return [s for s in range(st.players) if count[s] == best] if best else []


def score_field_now(st: CarcState, root: int, per_city: int, reason: str, events: list[Event]) -> None:
    """Barn scoring during play: farmer majority scores, then the farmers go home."""
    farmers = sorted(f for f in st.figs[root] if st.figures[f][1] == FOLLOWER)
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


def has_barn(st: CarcState, root: int) -> bool:
    figures = st.figures
    return any(figures[f][1] == BARN for f in st.figs[root])


def final_scoring(st: CarcState, events: list[Event]) -> None:
    """Unfinished roads, cities, cloisters; then fields with farmers; then fields with barns."""
    parent, kind, figs = st.parent, st.kind, st.figs
    roots = [g for g in range(len(parent)) if parent[g] == g and figs[g]]
    for root in roots:
        if kind[root] == FIELD:
            continue
        winners = majority(st, root)
        points = feature_value(st, root, is_complete(st, root)) if winners else 0
        award(st, winners, points, CATEGORY_OF[kind[root]])
        fids = sorted(figs[root])
        events.append(
            Event(
                "feature_scored",
                {
                    "feature": KIND_NAMES[kind[root]],
                    "feature_id": root,
                    "points": points,
                    "winners": winners,
                    "tiles": tile_count(st, root) if kind[root] != CLOISTER else 1,
                    "figures": figures_of(st, fids),
                    "returned": [],
                    "final": True,
                },
            )
        )
    fields = [r for r in roots if kind[r] == FIELD]
    farm_fields = []
    for root in fields:
        if has_barn(st, root):
            # Cannot happen with base + A&M (Q11); JCZ order: farmers at 1/city first.
            score_field_now(st, root, 1, "final_with_barn", events)
        elif any(st.figures[f][1] == FOLLOWER for f in figs[root]):
            farm_fields.append(root)
    _score_farms(st, farm_fields, events)
    for root in fields:
        if not has_barn(st, root):
            continue
        barns = sorted(f for f in figs[root] if st.figures[f][1] == BARN)
        owners = sorted({st.figures[f][0] for f in barns})
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


def _score_farms(st: CarcState, fields: list[int], events: list[Event]) -> None:
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
                farmers = [f for r in won_fields[seat] for f in farmers_on(st, r) if st.figures[f][0] == seat]
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
                for fid in st.figs[root]:
                    fig = st.figures[fid]
                    if fig[1] == FOLLOWER:
                        count[fig[0]] += 1
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
