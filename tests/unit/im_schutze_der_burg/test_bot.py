"""Search hooks of the greedy bot: determinization hides exactly what a seat cannot see, and the
evaluation follows the game's own scoring."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from domain.bots import BotContext, choose
from domain.bots.hooks import SearchHooks
from domain.engine import Decision
from domain.games.im_schutze_der_burg.bot import SchutzeDerBurgSearchHooks
from domain.games.im_schutze_der_burg.choices import pick_choices, picked_cards
from domain.games.im_schutze_der_burg.data import PLAYER_COUNTS
from domain.games.im_schutze_der_burg.state import State
from tests.support.strong_search import strong_search

from .support import E, new_game, set_res, set_thalers

HOOKS: SearchHooks[State] = E.search_hooks


def _states(players: int, winter: bool, seed: int) -> Iterator[State]:
    """Every state a random game passes through where some seat must decide."""
    s, _ = E.setup(players, {"winter": winter}, random.Random(seed))
    return _states_of(s, random.Random(seed))


def _states_of(s: State, rng: random.Random) -> Iterator[State]:
    """``s`` before each of its decisions, played on with random choices to the end."""
    while (d := E.decision(s)) is not None:
        yield s
        E.apply(s, {seat: rng.choice(E.legal_choices(s, seat)) for seat in d.seats})


def _sealed_winter_step(players: int) -> State:
    """A state at a Firewood or Damsel decision: the picks are made but not yet revealed."""
    for seed in range(200):
        for s in _states(players, True, seed):
            if s.picks and not s.revealed:
                return s
    raise AssertionError("no Firewood or Damsel step found")


@pytest.mark.parametrize(("players", "winter"), [(2, True), (3, True), (4, False)])
def test_determinized_state_is_sound_and_looks_the_same_to_the_seat(players: int, winter: bool) -> None:
    rng = random.Random(7)
    for step, s in enumerate(_states(players, winter, 11)):
        if step % 3:
            continue
        before = E.dump(s)
        for seat in range(players):
            sample = HOOKS.determinize(s, seat, rng)
            assert sample is not s
            assert E.check_invariants(sample) == []
            assert E.view(sample, seat) == E.view(s, seat)
            assert E.decision(sample) == E.decision(s)
            for decider in E.decision(s).seats:  # type: ignore[union-attr]
                assert E.legal_choices(sample, decider) == E.legal_choices(s, decider)
        assert E.dump(s) == before


def test_winter_deck_order_is_resampled_and_its_hidden_order_is_not_read() -> None:
    s, _ = E.setup(3, {"winter": True}, random.Random(4))
    other = E.load(E.dump(s))
    other.winter_deck.reverse()
    first = HOOKS.determinize(s, 0, random.Random(99))
    second = HOOKS.determinize(other, 0, random.Random(99))
    assert E.dump(first) == E.dump(second)
    orders = {tuple(HOOKS.determinize(s, 0, random.Random(i)).winter_deck) for i in range(30)}
    assert len(orders) > 10
    assert all(sorted(order) == sorted(s.winter_deck) for order in orders)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_other_seats_sealed_cards_are_redrawn_and_own_cards_kept(players: int) -> None:
    s = _sealed_winter_step(players)
    seat = 0
    per_seat = PLAYER_COUNTS[players].picks
    other = E.load(E.dump(s))
    for victim in range(1, players):
        options = [sorted(picked_cards(c)) for c in pick_choices(other.hand[victim], per_seat)]
        other.picks[victim] = next((p for p in options if p != s.picks[victim]), s.picks[victim])
    assert E.view(other, seat) == E.view(s, seat)
    assert E.dump(HOOKS.determinize(s, seat, random.Random(5))) == E.dump(
        HOOKS.determinize(other, seat, random.Random(5))
    )
    seen: set[tuple[int, ...]] = set()
    for i in range(40):
        sample = HOOKS.determinize(s, seat, random.Random(i))
        assert sample.picks[seat] == s.picks[seat]
        assert E.check_invariants(sample) == []
        seen.add(tuple(sample.picks[1]))
    assert len(seen) > 1


def test_evaluation_is_the_score_lead_at_the_end_of_the_game() -> None:
    final, _ = E.setup(3, {}, random.Random(3))
    for _state in _states_of(final, random.Random(3)):
        pass
    assert final.over
    outcome = E.outcome(final)
    assert outcome is not None
    for seat in range(3):
        lead = outcome.scores[seat] - max(x for i, x in enumerate(outcome.scores) if i != seat)
        assert abs(HOOKS.evaluate(final, seat) - lead) < 1
    (winner,) = outcome.winners
    assert HOOKS.evaluate(final, winner) >= 0


def test_evaluation_prefers_more_points_money_and_pieces() -> None:
    s = new_game(3)
    base = HOOKS.evaluate(s, 1)
    assert base == pytest.approx(HOOKS.evaluate(s, 2))  # same means; seat 0 holds the round's coin
    richer = E.load(E.dump(s))
    set_thalers(richer, 1, richer.thalers[1] + 5)
    assert HOOKS.evaluate(richer, 1) > base
    assert HOOKS.evaluate(richer, 0) < HOOKS.evaluate(s, 0)
    stocked = E.load(E.dump(s))
    set_res(stocked, 1, sand=1, wood=1, clay=2)
    assert HOOKS.evaluate(stocked, 1) > base
    ahead = E.load(E.dump(s))
    ahead.vp[1] += 6
    assert HOOKS.evaluate(ahead, 1) == pytest.approx(base + 6)


def _context(s: State, seat: int) -> BotContext:
    decision = E.decision(s)
    assert decision is not None

    def sample(rng: random.Random) -> State:
        return HOOKS.determinize(s, seat, rng)

    return BotContext(E, seat, decision, E.legal_choices(s, seat), sample, HOOKS)


def test_greedy_bot_outscores_random_players() -> None:
    totals = [0, 0]
    for game in range(2):
        rngs = [random.Random(f"greedy-{game}-{seat}") for seat in range(2)]
        s, _ = E.setup(2, {}, random.Random(game))
        while (d := E.decision(s)) is not None:
            choices = {
                seat: choose("greedy" if seat == 0 else "random", _context(s, seat), rngs[seat])
                for seat in d.seats
            }
            E.apply(s, choices)
        outcome = E.outcome(s)
        assert outcome is not None
        totals = [totals[i] + outcome.scores[i] for i in range(2)]
    assert totals[0] > totals[1] * 1.3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_strong_decides_alike_when_only_hidden_cards_and_the_winter_deck_differ(players: int) -> None:
    s = _sealed_winter_step(players)
    decision = E.decision(s)
    assert decision is not None
    seat = decision.seats[0]
    per_seat = PLAYER_COUNTS[players].picks
    other = E.load(E.dump(s))
    other.winter_deck.reverse()
    for victim in range(players):
        if victim != seat:
            options = [sorted(picked_cards(c)) for c in pick_choices(other.hand[victim], per_seat)]
            other.picks[victim] = next((p for p in options if p != s.picks[victim]), s.picks[victim])
    assert E.dump(other) != E.dump(s)
    assert E.view(other, seat) == E.view(s, seat)
    first, second = strong_search(E, HOOKS, s, seat, 3, 60), strong_search(E, HOOKS, other, seat, 3, 60)
    assert first.choice == second.choice and first.visits == second.visits
    assert first.iterations == 60


@pytest.mark.parametrize(("players", "winter"), [(2, True), (3, True), (4, False)])
def test_the_searchs_copy_is_the_stored_round_trip_and_shares_nothing(players: int, winter: bool) -> None:
    """``copy`` (the search's, a field-by-field copy) gives what dumping and loading gives, at every
    decision of a game, and playing on the copy leaves the original as it was."""
    rng = random.Random(3)
    for s in _states(players, winter, 5):
        copy = HOOKS.copy(s)
        assert copy is not s
        assert E.dump(copy) == E.dump(s)
        before = E.dump(s)
        d = E.decision(copy)
        assert d is not None and d == E.decision(s)
        E.apply(copy, {seat: rng.choice(E.legal_choices(copy, seat)) for seat in d.seats})
        assert E.dump(s) == before


class _RecordingHooks(SchutzeDerBurgSearchHooks):
    """The game's hooks, noting each ``plays_on`` answer with the kind of decision it was asked at."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, bool]] = []

    def plays_on(self, state: State, decision: Decision) -> bool:
        answer = super().plays_on(state, decision)
        self.asked.append((decision.kind, answer))
        return answer


def test_strong_plays_each_leaf_on_to_the_next_pick_of_cards() -> None:
    """A pick is judged by the round it brings: from a pick, the search's new leaves are played on
    through the round's resolution (Workers, Stonemasons, building...) and stop at the next pick."""
    s, _ = E.setup(2, {}, random.Random(5))
    decision = E.decision(s)
    assert decision is not None and decision.kind == "pick_cards"
    hooks = _RecordingHooks()
    strong_search(E, hooks, s, decision.seats[0], 1, 20)
    played_on = {kind for kind, answer in hooks.asked if answer}
    stopped_at = {kind for kind, answer in hooks.asked if not answer}
    assert {"build", "build_payment"} <= played_on and "pick_cards" not in played_on
    assert stopped_at == {"pick_cards"}
