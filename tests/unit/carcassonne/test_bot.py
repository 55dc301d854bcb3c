"""Search hooks: determinize resamples only the pile order; evaluate follows the game's scoring."""

from __future__ import annotations

import random

import pytest

from domain.bots import BotContext, choose
from domain.bots.search import SearchResult
from domain.engine import JSON
from domain.games.carcassonne import ENGINE as E
from domain.games.carcassonne.state import FOLLOWER, State, copy_state
from tests.support.strong_search import strong_search
from tests.unit.carcassonne.support import choose as choose_legal
from tests.unit.carcassonne.support import figure_step, game, place, played

HOOKS = E.search_hooks


MID_GAMES = [
    (2, 40, 1, {}),
    (4, 95, 2, {}),
    (3, 60, 3, {"abbey_and_mayor": False}),
    (5, 130, 4, {"wagon_move": "classic"}),
]


@pytest.mark.parametrize(("players", "steps", "seed", "options"), MID_GAMES)
def test_a_determinized_state_keeps_the_invariants_and_shows_every_seat_the_same(
    players: int, steps: int, seed: int, options: dict[str, JSON]
) -> None:
    st = played(players, steps, seed, **options)
    before = E.dump(st)
    for seat in range(players):
        sample = HOOKS.determinize(st, seat, random.Random(seat))
        assert E.check_invariants(sample) == []
        for viewer in (seat, None):
            assert E.view(sample, viewer) == E.view(st, viewer)
        assert sorted(sample.pile) == sorted(st.pile)
    assert E.dump(st) == before, "determinize changed the real state"


def test_determinize_resamples_the_order_of_the_pile() -> None:
    st = played(3, 30, 7)
    orders = {tuple(HOOKS.determinize(st, 0, random.Random(k)).pile) for k in range(5)}
    assert len(orders) == 5


def test_states_that_differ_only_in_the_pile_order_determinize_alike() -> None:
    st = played(4, 50, 8)
    other = E.load(E.dump(st))
    random.Random(99).shuffle(other.pile)
    assert other.pile != st.pile
    a = HOOKS.determinize(st, 1, random.Random(5))
    b = HOOKS.determinize(other, 1, random.Random(5))
    assert E.dump(a) == E.dump(b)


def test_playing_on_a_determinized_copy_leaves_the_original_alone() -> None:
    st = played(3, 45, 9)
    before = E.dump(st)
    sample = HOOKS.determinize(st, 0, random.Random(1))
    rng = random.Random(2)
    while (decision := E.decision(sample)) is not None:
        E.apply(sample, {s: rng.choice(E.legal_choices(sample, s)) for s in decision.seats})
    assert E.dump(st) == before
    assert E.check_invariants(st) == []


def test_loading_one_dump_twice_gives_independent_states() -> None:
    st = played(2, 60, 10)
    data = E.dump(st)
    first, second = E.load(data), E.load(data)
    rng = random.Random(3)
    while (decision := E.decision(first)) is not None:
        E.apply(first, {s: rng.choice(E.legal_choices(first, s)) for s in decision.seats})
    assert E.dump(second) == data
    assert E.check_invariants(second) == []
    assert E.dump(copy_state(st)) == data


@pytest.mark.parametrize("steps", [69, 70, 71, 72])
def test_two_player_evaluation_is_zero_sum_at_every_step(steps: int) -> None:
    st = played(2, steps, 11)
    assert HOOKS.evaluate(st, 0) == pytest.approx(-HOOKS.evaluate(st, 1))


def test_the_seat_about_to_claim_counts_its_best_claim_whoever_judges() -> None:
    """A figure step counts the claim of the seat that placed the tile for every seat: the strong
    search, judging a leaf after an opponent's placement, sees the claim the opponent is about to
    make (here a city it may close with a knight for 4 points at once)."""
    st = game(["BA/RFr", "BA/C"], abbey_and_mayor=False)
    away = next(c for c in E.legal_choices(st, 0) if c.get("action") == "place" and c["y"] == 1)
    choose_legal(st, away)
    figure_step(st, None)
    if st.phase == "start":
        choose_legal(st, {"action": "draw"})
    assert st.active == 1 and st.phase == "place"
    before = HOOKS.evaluate(st, 0)
    choose_legal(st, {"action": "place", "x": 0, "y": -1, "rotation": 180})
    assert st.phase == "figure" and st.active == 1
    after = HOOKS.evaluate(st, 0)
    assert after == pytest.approx(-HOOKS.evaluate(st, 1))
    assert after < before - 3, "the city seat 1 may close at once counts against seat 0"
    figure_step(st, "follower", 0)
    assert st.scores[1] == 4


def test_at_the_end_the_evaluation_is_the_score_lead_over_the_best_opponent() -> None:
    st = played(3, 1000, 12)
    assert st.phase == "over"
    scores = st.scores
    assert HOOKS.evaluate(st, 0) == scores[0] - max(scores[1], scores[2])


def test_a_knight_in_a_growing_city_is_worth_more_than_a_follower_in_the_supply() -> None:
    st = game(["BA/Cc.1", "BA/RFr"], abbey_end_round="none")
    place(st, 0, -1, 180, "follower", 0)  # a 2-tile city, still open to the east
    assert st.supply[0][FOLLOWER] == 6
    assert HOOKS.evaluate(st, 0) > 0


def greedy_choice(st: State, seed: int = 0) -> dict[str, object]:
    decision = E.decision(st)
    assert decision is not None
    seat = decision.seats[0]
    context = BotContext(
        engine=E,
        seat=seat,
        decision=decision,
        choices=E.legal_choices(st, seat),
        sample_state=lambda rng: HOOKS.determinize(st, seat, rng),
        hooks=HOOKS,
    )
    return choose("greedy", context, random.Random(seed))


def test_greedy_closes_a_city_with_a_knight_to_score_it_at_once() -> None:
    st = game(["BA/C", "BA/RFr"], abbey_and_mayor=False)
    # The cap placed above the start closes a 2-tile city: a knight there scores 4 and comes home.
    place_choice = greedy_choice(st)
    assert place_choice == {"action": "place", "x": 0, "y": -1, "rotation": 180}
    E.apply(st, {0: place_choice})
    figure = greedy_choice(st)
    assert figure == {"action": "place", "figure": "follower", "segment": 0, "feature": "city"}


def test_greedy_does_not_close_an_opponents_city() -> None:
    st = game(["BA/Cc.1", "BA/C"], abbey_and_mayor=False)
    place(st, 0, -1, 180, "follower", 0)  # seat 0 owns a 2-tile city, open to the east
    closing = {"action": "place", "x": 1, "y": -1, "rotation": 270}
    closed = copy_state(st)
    E.apply(closed, {1: closing})
    E.apply(closed, {1: {"action": "none"}})
    assert closed.scores[0] == 6
    assert greedy_choice(st) != closing


def strong(st: State, seed: int) -> SearchResult:
    decision = E.decision(st)
    assert decision is not None
    return strong_search(E, HOOKS, st, decision.seats[0], seed, 80)


def test_strong_decides_alike_on_states_that_differ_only_in_the_pile_order() -> None:
    st = played(3, 40, 12)
    other = copy_state(st)
    random.Random(3).shuffle(other.pile)
    assert other.pile != st.pile
    first, second = strong(st, 7), strong(other, 7)
    assert first.choice == second.choice
    assert first.visits == second.visits
    assert first.values == second.values
    # The generator does matter: other seeds sample other piles, which the rollouts judge otherwise.
    assert {tuple(strong(st, k).values.items()) for k in range(3)} != {tuple(first.values.items())}


def test_strong_closes_a_city_with_a_knight_to_score_it_at_once() -> None:
    st = game(["BA/C", "BA/RFr"], abbey_and_mayor=False)
    place_choice = strong(st, 0).choice
    assert place_choice == {"action": "place", "x": 0, "y": -1, "rotation": 180}
    E.apply(st, {0: place_choice})
    assert strong(st, 0).choice == {
        "action": "place",
        "figure": "follower",
        "segment": 0,
        "feature": "city",
    }


def test_the_search_tells_nodes_apart_by_the_drawn_tile_only() -> None:
    """``observed`` names the tile shown to the table (so the next seat's node is its own for every
    tile drawn) and reads nothing hidden: another pile order observes the same."""
    seen: set[str] = set()
    for seed in range(6):
        st = played(2, 2 * seed + 2, seed)
        if E.decision(st) is None or st.drawn_tile < 0:
            continue
        shuffled = copy_state(st)
        random.Random(seed).shuffle(shuffled.pile)
        assert HOOKS.observed(shuffled) == HOOKS.observed(st) == str(st.drawn_tile)
        seen.add(HOOKS.observed(st))
    assert len(seen) > 1
