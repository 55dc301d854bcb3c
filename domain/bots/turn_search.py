"""The ``strong`` level for a game that asks for it (``SearchHooks.turn_rollouts``): a search of
the seat's whole turn, each of its best ends played on through the other seats' turns.

A determinized Monte Carlo search one turn deep. On one state sampled from what the seat may know
(the game's ``determinize``), every way of finishing the seat's turn is tried (every choice of
every decision the seat makes in a row: in Carcassonne a placement, then a figure, then a wagon's
move), each judged by the greedy level's evaluation. The best end of each of the game's
``turn_candidates`` best first moves is then played on, round after round: each round samples a
new state from what the seat may know at that end (the tiles still face down, shuffled again),
gives every candidate the same sample (so they are compared on the same luck), and lets every seat
play the one-step greedy policy until the others' turns are over and the seat is to decide
again; the evaluation judges what is left. The pick is the candidate
with the best mean over the rounds: the move whose turn leaves the others the least to gain from
the tiles they may draw.

Why a game asks for it instead of the tree (``domain.bots.search``): in Carcassonne the tree's
visits at the level's budget sort the seat's own placements and figures and hardly reach the
replies (each drawn tile opens its own node), so it plays as the exact best of its own turn does
(bench/README.md: 74.25 % against greedy over 200 deals, the tree 75.0 %) for fifty times the
CPU; the replies played on for a few sampled tiles are what raise it.

The budget counts rollouts (one candidate played on for one sample): at most ``iterations`` and
``turn_candidates * turn_rollouts`` of them, and the search stops at ``deadline`` if that comes
first, answering the best candidate over the rounds finished (the best end of turn as judged if
none was). With the iterations alone the pick depends on the seat's information and the
generator only, so a game of bots replays exactly from its revealed seed and salt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.bots.hooks import SearchHooks
from domain.bots.search import PLAYOUT_CAP, SearchBudget, SearchResult, after, choice_key, one_step
from domain.engine import Choice, Decision, GameEngine


@dataclass(slots=True)
class _End:
    """One way to finish the seat's turn: the root choice it starts with, the state it leaves (and
    the seat's choice still to make there when that choice draws on chance, so that each rollout
    draws again) and the evaluation's judgement of it; then the rollouts' values summed."""

    key: str
    state: Any
    judged: float
    then: Choice | None = None
    total: float = 0.0
    rounds: int = 0


def search_turns(
    engine: GameEngine[Any],
    hooks: SearchHooks[Any],
    seat: int,
    decision: Decision,
    choices: Sequence[Choice],
    sample_state: Callable[[random.Random], Any],
    rng: random.Random,
    budget: SearchBudget,
) -> SearchResult:
    """The root choice of ``choices`` that starts the best end of the seat's turn once the others'
    turns are played on (see the module); ``visits`` and ``values``: each candidate first move's
    rollouts and their mean value."""
    allowed = {choice_key(c): c for c in hooks.worth_trying(decision, list(choices)) or choices}
    if len(allowed) == 1:
        return SearchResult(next(iter(allowed.values())), 0, {})
    ends: list[_End] = []
    _finish_turn(engine, hooks, seat, sample_state(rng), decision, list(allowed.values()), None, ends, rng)
    candidates = _candidates(ends, max(1, hooks.turn_candidates))
    cap = min(max(1, budget.iterations), len(candidates) * hooks.turn_rollouts)
    done = 0
    while done + len(candidates) <= cap and not _past(budget):
        seed = rng.getrandbits(64)
        for end in candidates:
            end.total += _rollout(engine, hooks, seat, end, random.Random(seed))
            end.rounds += 1
        done += len(candidates)
    best = max(candidates, key=_mean)
    visits = {end.key: end.rounds for end in candidates}
    values = {end.key: _mean(end) for end in candidates}
    return SearchResult(allowed[best.key], done, visits, values)


def _candidates(ends: list[_End], count: int) -> list[_End]:
    """The best-judged end of each root choice, for the ``count`` root choices whose best end is
    judged best (equal judgements in the choices' order): as many different first moves as can be
    played on, not one placement with each of its figures."""
    best: dict[str, _End] = {}
    for end in sorted(ends, key=lambda end: -end.judged):
        best.setdefault(end.key, end)
    return list(best.values())[:count]


def _mean(end: _End) -> float:
    """The candidate's mean over its rollouts (its judgement before any)."""
    return end.total / end.rounds if end.rounds else end.judged


def _past(budget: SearchBudget) -> bool:
    return budget.deadline is not None and budget.clock() >= budget.deadline


def _finish_turn(
    engine: GameEngine[Any],
    hooks: SearchHooks[Any],
    seat: int,
    state: Any,
    decision: Decision,
    choices: list[Choice],
    key: str | None,
    ends: list[_End],
    rng: random.Random,
) -> None:
    """Every way the seat may go on from ``state`` with ``choices`` while it alone decides, each
    end judged (``key``: the root choice that led here, None at the root). A choice after which
    chance shows something new (a tile drawn) ends the enumeration before it: the outcome sampled
    is one of many, and each rollout makes the choice again."""
    before = hooks.observed(state)
    for choice in choices:
        root = choice_key(choice) if key is None else key
        trial = after(engine, hooks, state, decision, seat, choice, rng)
        shown = hooks.observed(trial)
        if shown and shown != before:
            ends.append(_End(root, state, hooks.evaluate(trial, seat), then=choice))
            continue
        following = engine.decision(trial)
        if following is None or tuple(following.seats) != (seat,):
            ends.append(_End(root, trial, hooks.evaluate(trial, seat)))
            continue
        legal = engine.legal_choices(trial, seat)
        _finish_turn(engine, hooks, seat, trial, following, legal, root, ends, rng)


def _rollout(
    engine: GameEngine[Any], hooks: SearchHooks[Any], seat: int, end: _End, rng: random.Random
) -> float:
    """The seat's evaluation once ``end``, resampled from what the seat may know there (and its
    choice left to make, made), is played on by the one-step greedy policy of every seat until
    another seat has decided and the seat is to decide again (or the game is over)."""
    state = hooks.determinize(end.state, seat, rng)
    if end.then is not None:
        decision = engine.decision(state)
        assert decision is not None
        state = after(engine, hooks, state, decision, seat, end.then, rng)
    others_moved = False
    for _ in range(PLAYOUT_CAP):
        decision = engine.decision(state)
        if decision is None or (others_moved and seat in decision.seats):
            break
        others_moved = others_moved or any(s != seat for s in decision.seats)
        engine.apply(state, {s: one_step(engine, hooks, state, decision, s, rng) for s in decision.seats})
    return hooks.evaluate(state, seat)
