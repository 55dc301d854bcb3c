"""Search hooks for the greedy bot: a determinizer that hides what a seat cannot know, and a
heuristic on the game's own final scoring.

What a seat cannot see: the order of the face-down winter cards, and, between the sealed picks
and the reveal (a winter Firewood or Damsel step), the other seats' sealed cards. Sealed choices
still being made (picks, Damsel bids) live in the platform's match, never in the engine state.
Everything else (hands, played cards, resources, money, the board) is public.
"""

from __future__ import annotations

import random

from domain.bots.hooks import SearchHooks
from domain.engine import Choice, Decision
from domain.games.im_schutze_der_burg import flow
from domain.games.im_schutze_der_burg.building import BACK, PAYMENTS_LISTED_MAX, payment_choices
from domain.games.im_schutze_der_burg.choices import pick_choices, picked_cards
from domain.games.im_schutze_der_burg.data import MAX_BUILDS, PLAYER_COUNTS, RESOURCE_VALUE, STONEMASON, YIELD
from domain.games.im_schutze_der_burg.scoring import final_scores
from domain.games.im_schutze_der_burg.state import RESOLVE, State, copy_state

# Heuristic weights, in victory points per unit. A value point of pieces is worth a share of
# what building turns it into: a Stonemason gets about 0.6-0.75 VP per value point, a Worker half
# that, so pieces count more while the seat's Stonemason is still to resolve this round. A thaler
# pays for helper spaces and the Market; helpers in supply and on carts promise later points.
# Tuned against random seats with api/entrypoints/simulate.py (see the report in the package README).
RESOURCE_WEIGHT = 0.5
PENDING_BUILD_WEIGHT = 0.25
THALER_WEIGHT = 0.4
SUPPLY_HELPER_WEIGHT = 1.5
POST_WEIGHT_PER_ROUND = 0.5
TIEBREAK_THALER = 0.01
TIEBREAK_VALUE = 0.001
HORIZON_ROUNDS = 3  # with fewer rounds left, unspent means are worth less and less

_POST_YIELD = tuple((YIELD[k] - 1) * RESOURCE_VALUE[k] for k in range(5))


class SchutzeDerBurgSearchHooks(SearchHooks[State]):
    """``determinize``, ``evaluate``, ``copy`` and ``worth_trying`` for ``domain.bots`` (greedy, strong)."""

    # Every payment of a building is tried, so the cheapest one (listed first) always is.
    max_candidates = PAYMENTS_LISTED_MAX + 2

    value_scale = 2.0

    def copy(self, state: State) -> State:
        return copy_state(state)

    def worth_trying(self, decision: Decision, choices: list[Choice]) -> list[Choice]:
        """Every choice but ``back``: undoing a building choice only helps a person who erred,
        and a one-step search could go back and forth for ever."""
        if decision.kind != "build_payment":
            return choices
        return [c for c in choices if c != BACK]

    def plays_on(self, state: State, decision: Decision) -> bool:
        """Until the round's next card pick: picked cards are worth what they bring when they act
        (a Stonemason's buildings, a Trader's deal), which the evaluation cannot read before."""
        return decision.kind != "pick_cards"

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy with the winter deck reshuffled and other seats' sealed cards redrawn.

        Only public facts are read to do so (which winter cards are left, each seat's hand), so
        two states that differ only in what ``seat`` cannot see give the same result for the
        same ``rng``.
        """
        st = copy_state(state)
        deck = sorted(st.winter_deck)
        rng.shuffle(deck)
        st.winter_deck = deck
        if st.picks and not st.revealed:
            per_seat = PLAYER_COUNTS[st.n].picks
            for other in range(st.n):
                if other != seat:
                    choice = rng.choice(pick_choices(st.hand[other], per_seat))
                    st.picks[other] = sorted(picked_cards(choice))
        return st

    def evaluate(self, state: State, seat: int) -> float:
        """Projected points of ``seat`` minus those of its best opponent.

        A building chosen but not yet paid for is valued as if paid the cheapest way.
        """
        worth = _projected(_settled(state))
        best_other = max(w for other, w in enumerate(worth) if other != seat)
        return worth[seat] - best_other


def _settled(state: State) -> State:
    """``state`` itself, or when a payment is pending, a copy with the cheapest payment made."""
    if state.pending != "build_payment":
        return state
    st = copy_state(state)
    seat = st.pending_seats[0]
    flow.pay_for_building(st, [], seat, payment_choices(st, seat)[0])
    flow.advance(st, [])
    return st


def _projected(st: State) -> list[float]:
    rows = final_scores(st)
    if st.over:
        return [
            r["total"] + r["tiebreak_thalers"] * TIEBREAK_THALER + r["tiebreak_value"] * TIEBREAK_VALUE
            for r in rows
        ]
    rounds_left = st.rounds - st.round + 1
    horizon = min(1.0, rounds_left / HORIZON_ROUNDS)
    out = []
    for seat, r in enumerate(rows):
        posts = sum(_POST_YIELD[k] for k in range(5) if st.posts[k] == seat)
        on_workers = sum(e[2 + k] * RESOURCE_VALUE[k] for e in st.workers if e[0] == seat for k in range(5))
        value = r["tiebreak_value"] + on_workers
        out.append(
            r["total"]
            + value * PENDING_BUILD_WEIGHT * _stonemason_to_come(st, seat)
            + horizon
            * (
                value * RESOURCE_WEIGHT
                + r["tiebreak_thalers"] * THALER_WEIGHT
                + st.helpers[seat] * SUPPLY_HELPER_WEIGHT
            )
            + posts * POST_WEIGHT_PER_ROUND * RESOURCE_WEIGHT * (rounds_left - 1) / 2
        )
    return out


def _stonemason_to_come(st: State, seat: int) -> bool:
    """Whether a Stonemason of ``seat`` may still build this round (full VP for its pieces)."""
    resolving = st.phase == RESOLVE
    first = st.qi if resolving else 0  # before resolution starts, qi is last round's
    for i in range(first, len(st.queue)):
        owner, card = st.queue[i]
        if owner == seat and card == STONEMASON:
            return i > first or not resolving or (st.sub <= 1 and st.act_built < MAX_BUILDS)
    return False
