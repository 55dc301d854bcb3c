"""The ``strong`` level: information-set Monte Carlo tree search over the seat's own information
(for a game whose hooks ask for the whole-turn search instead, ``domain.bots.turn_search``).

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): each iteration draws one full state
from what the seat may know (the game's ``determinize``, which resamples every hidden part), walks
the one tree of the seat's information set with it, and backs up what it found. The tree is keyed
by the choices made (every seat's choices are seen, as at the table) and by what the game says
everyone saw of chance since (``observed``: Carcassonne's drawn tile; hidden draws are not in the
key), and a choice listed in some sampled states but not in others is judged against
how often it was available (UCB with availability counts). A simultaneous decision is decoupled:
each deciding seat picks from its own statistics at that node, not knowing the others' picks.

The greedy level's evaluation guides the search twice: as the prior of every choice (a choice's
value after playing it on the sampled state, counted as ``PRIOR_VISITS`` visits, so good moves
are tried first and poor ones rarely) and as the value of a new leaf (instead of a random rollout,
which in these games plays far worse than the evaluation judges). A game whose evaluation cannot
judge a state in the middle of a sequence (Im Schutze der Burg's round: cards picked, not yet
acted) has the leaf played on first, every seat by the one-step greedy policy, until its
``plays_on`` says the sequence is over. Values are a seat's chance of leading, squashed from the
evaluation's point lead with the game's ``value_scale``; the end of a game counts its winners.

The budget is a number of iterations and, optionally, a deadline on a clock: whichever ends first
stops the search, which answers the most visited root choice so far. With the iterations alone
(``deadline`` None) the pick depends on the seat's information and the generator only, so a game
of bots replays exactly from its revealed seed and salt.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.bots.hooks import SearchHooks
from domain.engine import Choice, Decision, GameEngine

EXPLORATION = 0.6
"""UCB's exploration constant, for values in [0, 1]."""
PRIOR_VISITS = 3.0
"""How many visits a choice's prior counts for before it is tried."""
WIDEN_BASE = 3
WIDEN_RATE = 1.0
"""Progressive widening: a seat deciding at a node it chose at ``n`` times before considers only its
``WIDEN_BASE + WIDEN_RATE * sqrt(n)`` choices of best prior, so a small budget checks the few
moves the evaluation likes against the replies to them instead of trying every move once."""
DEADLINE_EVERY = 8
"""Iterations between two reads of the clock."""
PLAYOUT_CAP = 200
"""The most decisions a playout makes (a game's ``plays_on`` ends it long before)."""


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How long one decision may think: ``iterations`` at most, and stop at ``deadline`` (a time
    on ``clock``) if that comes first. At least one iteration always runs."""

    iterations: int = 400
    deadline: float | None = None
    clock: Callable[[], float] = time.monotonic

    @staticmethod
    def within(
        seconds: float, iterations: int = 1_000_000, clock: Callable[[], float] = time.monotonic
    ) -> SearchBudget:
        """A budget of ``seconds`` from now (and at most ``iterations``)."""
        return SearchBudget(iterations=iterations, deadline=clock() + seconds, clock=clock)


class _Edge:
    """One seat's choice at a node: visits, summed value, how often it was available, its prior."""

    __slots__ = ("available", "choice", "prior", "total", "visits")

    def __init__(self, choice: Choice, prior: float) -> None:
        self.choice = choice
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.available = 0


class _Node:
    __slots__ = ("children", "edges", "visits")

    def __init__(self) -> None:
        self.visits: dict[int, int] = {}
        self.edges: dict[int, dict[str, _Edge]] = {}
        self.children: dict[tuple[str, ...], _Node] = {}


def choice_key(choice: Choice) -> str:
    """A choice as a string, the tree's key for it (an engine builds equal choices alike)."""
    return repr(choice)


@dataclass(slots=True)
class SearchResult:
    """The pick, with what the search did: iterations run and each root choice's visits (and, for
    the whole-turn search, each root choice's mean value over its rollouts)."""

    choice: Choice
    iterations: int
    visits: dict[str, int]
    values: dict[str, float] = field(default_factory=dict)


def search(
    engine: GameEngine[Any],
    hooks: SearchHooks[Any],
    seat: int,
    decision: Decision,
    choices: Sequence[Choice],
    sample_state: Callable[[random.Random], Any],
    rng: random.Random,
    budget: SearchBudget,
) -> SearchResult:
    """The most visited of ``choices`` (those the game finds worth trying) after searching within
    ``budget``; ``sample_state`` draws a full state consistent with what ``seat`` may see (the only
    states the search looks at)."""
    allowed = {choice_key(c): c for c in hooks.worth_trying(decision, list(choices)) or choices}
    if len(allowed) == 1:
        only = next(iter(allowed.values()))
        return SearchResult(only, 0, {})
    root = _Node()
    run = _Iteration(engine, hooks, seat, allowed, rng)
    run.root_priors(root, decision, sample_state)
    done = 0
    while done < max(1, budget.iterations):
        if (
            done
            and budget.deadline is not None
            and done % DEADLINE_EVERY == 0
            and budget.clock() >= budget.deadline
        ):
            break
        run.once(root, sample_state(rng))
        done += 1
    edges = root.edges.get(seat, {})
    visits = {key: edge.visits for key, edge in edges.items() if key in allowed}
    if not visits:
        return SearchResult(next(iter(allowed.values())), done, {})
    order = list(allowed)
    best = max(
        visits,
        key=lambda k: (
            visits[k],
            edges[k].total / max(1, edges[k].visits) + edges[k].prior * 1e-6,
            -order.index(k),
        ),
    )
    return SearchResult(allowed[best], done, visits)


class _Iteration:
    """One walk down the tree with one sampled state, and the backup of its value."""

    def __init__(
        self,
        engine: GameEngine[Any],
        hooks: SearchHooks[Any],
        seat: int,
        allowed: Mapping[str, Choice],
        rng: random.Random,
    ) -> None:
        self.engine = engine
        self.hooks = hooks
        self.seat = seat
        self.allowed = allowed
        self.rng = rng
        self.scale = hooks.value_scale
        self.first: Any = None
        self.baseline: dict[int, float] = {}

    def root_priors(
        self, root: _Node, decision: Decision, sample_state: Callable[[random.Random], Any]
    ) -> None:
        """The root's edges, each with its prior averaged over the game's ``samples`` sampled
        states: the greedy level's judgement of every choice, as well informed as greedy's own
        (one sample's prior can bury the best move below the progressive widening)."""
        samples = max(1, self.hooks.samples)
        sums: dict[str, float] = dict.fromkeys(self.allowed, 0.0)
        for _ in range(samples):
            state = sample_state(self.rng)
            if self.first is None:
                self.first = self.hooks.copy(state)
            for key, choice in self.allowed.items():
                sums[key] += self._prior(state, decision, self.seat, choice)
        edges = root.edges.setdefault(self.seat, {})
        for key, choice in self.allowed.items():
            edges[key] = _Edge(choice, sums[key] / samples)

    def once(self, root: _Node, state: Any) -> None:
        if self.first is None:
            self.first = self.hooks.copy(state)
        engine = self.engine
        node = root
        path: list[list[tuple[int, _Edge]]] = []
        values: Callable[[int], float]
        while True:
            decision = engine.decision(state)
            if decision is None:
                values = self._final_values(state).__getitem__
                break
            picks = self._select(node, state, decision, node is root)
            if picks is None:  # no choice of the root seat here (a determinization the seat rules out)
                values = self._leaf_values(state)
                break
            path.append(picks)
            engine.apply(state, {s: edge.choice for s, edge in picks})
            key = (*(choice_key(edge.choice) for _, edge in picks), self.hooks.observed(state))
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                values = self._leaf_values(state)
                break
            node = child
        for picks in path:
            for s, edge in picks:
                edge.visits += 1
                edge.total += values(s)

    def _select(
        self, node: _Node, state: Any, decision: Decision, at_root: bool
    ) -> list[tuple[int, _Edge]] | None:
        picks: list[tuple[int, _Edge]] = []
        for s in decision.seats:
            listed = self.engine.legal_choices(state, s)
            if at_root and s == self.seat:
                listed = [c for c in listed if choice_key(c) in self.allowed]
                if not listed:
                    return None
            elif len(listed) > 1:
                listed = self.hooks.worth_trying(decision, listed) or listed
            edges = node.edges.setdefault(s, {})
            seen = node.visits.get(s, 0)
            node.visits[s] = seen + 1
            available: list[_Edge] = []
            for choice in listed:
                key = choice_key(choice)
                edge = edges.get(key)
                if edge is None:
                    edge = edges[key] = _Edge(choice, self._prior(state, decision, s, choice))
                edge.available += 1
                available.append(edge)
            wide = WIDEN_BASE + int(WIDEN_RATE * math.sqrt(seen))
            if len(available) > wide:
                available = sorted(available, key=_by_prior)[:wide]
            picks.append((s, self._best(available)))
        return picks

    @staticmethod
    def _best(available: list[_Edge]) -> _Edge:
        if len(available) == 1:
            return available[0]
        best, best_score = available[0], -math.inf
        for edge in available:
            n = edge.visits + PRIOR_VISITS
            mean = (edge.total + edge.prior * PRIOR_VISITS) / n
            score = mean + EXPLORATION * math.sqrt(math.log(edge.available + 1) / n)
            if score > best_score:
                best, best_score = edge, score
        return best

    def _value(self, state: Any, seat: int) -> float:
        """The seat's evaluation of ``state`` against its evaluation of the first sample (so values
        keep their spread however far ahead or behind the seat is), squashed into [0, 1]."""
        if seat not in self.baseline:
            self.baseline[seat] = self.hooks.evaluate(self.first, seat)
        return self._squash(self.hooks.evaluate(state, seat) - self.baseline[seat])

    def _prior(self, state: Any, decision: Decision, seat: int, choice: Choice) -> float:
        """The seat's value after ``choice`` on this sampled state (others deciding at once
        pick at random), as the greedy level would judge it."""
        trial = self._after(state, decision, seat, choice)
        if self.engine.decision(trial) is None:
            return self._final_values(trial)[seat]
        return self._value(trial, seat)

    def _after(self, state: Any, decision: Decision, seat: int, choice: Choice) -> Any:
        return after(self.engine, self.hooks, state, decision, seat, choice, self.rng)

    def _squash(self, lead: float) -> float:
        x = lead / self.scale
        if x < -30:
            return 0.0
        if x > 30:
            return 1.0
        return 1.0 / (1.0 + math.exp(-x))

    def _leaf_values(self, state: Any) -> Callable[[int], float]:
        """Each seat's value of ``state``, evaluated once for the seats that ask (after playing it
        on while the game's ``plays_on`` asks for it)."""
        self._play_on(state)
        if self.engine.decision(state) is None:
            return self._final_values(state).__getitem__
        known: dict[int, float] = {}

        def value(seat: int) -> float:
            if seat not in known:
                known[seat] = self._value(state, seat)
            return known[seat]

        return value

    def _play_on(self, state: Any) -> None:
        """Every deciding seat picks by the one-step policy (the greedy level's, on this one
        sampled state) while the game says its evaluation cannot yet judge ``state``."""
        engine, hooks = self.engine, self.hooks
        for _ in range(PLAYOUT_CAP):
            decision = engine.decision(state)
            if decision is None or not hooks.plays_on(state, decision):
                return
            engine.apply(
                state, {s: one_step(engine, hooks, state, decision, s, self.rng) for s in decision.seats}
            )

    def _final_values(self, state: Any) -> list[float]:
        """Half the seat's share of the win, half its evaluation (the margin still counts)."""
        outcome = self.engine.outcome(state)
        assert outcome is not None
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        return [
            0.5 * (share if s in outcome.winners else 0.0) + 0.5 * self._value(state, s)
            for s in range(len(outcome.scores))
        ]


def _by_prior(edge: _Edge) -> float:
    return -edge.prior


def after(
    engine: GameEngine[Any],
    hooks: SearchHooks[Any],
    state: Any,
    decision: Decision,
    seat: int,
    choice: Choice,
    rng: random.Random,
) -> Any:
    """A copy of ``state`` once ``seat`` made ``choice`` and the others deciding at once picked
    at random."""
    trial = hooks.copy(state)
    joint = {seat: choice}
    for other in decision.seats:
        if other != seat:
            joint[other] = rng.choice(engine.legal_choices(trial, other))
    engine.apply(trial, joint)
    return trial


def one_step(
    engine: GameEngine[Any],
    hooks: SearchHooks[Any],
    state: Any,
    decision: Decision,
    seat: int,
    rng: random.Random,
) -> Choice:
    """The choice of ``seat`` whose state after it the seat evaluates best, on this one state
    (others deciding at once pick at random; at most the game's ``max_candidates`` are tried)."""
    legal = engine.legal_choices(state, seat)
    if len(legal) == 1:
        return legal[0]
    candidates = hooks.worth_trying(decision, legal) or legal
    if len(candidates) > hooks.max_candidates:
        candidates = rng.sample(candidates, hooks.max_candidates)
    best, best_value = candidates[0], -math.inf
    for choice in candidates:
        value = hooks.evaluate(after(engine, hooks, state, decision, seat, choice, rng), seat)
        if value > best_value:
            best, best_value = choice, value
    return best
