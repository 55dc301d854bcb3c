"""The hooks a game provides so the bots can search: a field of its ``HostedGame``."""

from __future__ import annotations

import random
from typing import Protocol

from domain.engine import Choice, Decision, S


class SearchHooks(Protocol[S]):
    """What a game offers the search bots (a field of its ``HostedGame``). ``determinize`` and
    ``evaluate`` must respect hidden information; a game's hooks subclass this protocol to inherit
    the search's defaults for the rest."""

    samples: int = 3
    """Sampled states per decision (greedy)."""
    max_candidates: int = 48
    """Choices tried per decision (greedy: a random sample of them when there are more)."""
    value_scale: float = 5.0
    """A lead, in the unit of ``evaluate``, that makes a seat about three times as likely to win as
    to lose (strong: the search turns leads into values in [0, 1] with it)."""
    turn_rollouts: int = 0
    """0: the strong level searches the tree (``domain.bots.search``). More: it searches the seat's
    whole turn instead (``domain.bots.turn_search``), playing the best end of each of its
    ``turn_candidates`` best first moves on through the other seats' turns on this many sampled
    states."""
    turn_candidates: int = 4
    """The first moves whose best end of the turn the whole-turn search plays on (those whose best
    end the evaluation judges best)."""

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with what ``seat`` can see; hidden parts resampled with ``rng``."""
        ...

    def evaluate(self, state: S, seat: int) -> float:
        """How good ``state`` is for ``seat`` (higher is better), from a determinized state."""
        ...

    def copy(self, state: S) -> S:
        """An independent copy of a (determinized) state, for the search to play on."""
        ...

    def observed(self, state: S) -> str:
        """What every seat has seen of chance in ``state`` that the search should tell apart (a
        drawn tile shown to the table, say): the strong search keys a node by the choices that
        led to it and this, so the next seat's choices are judged for the tile it really holds.
        Default: nothing (chance outcomes share the node)."""
        return ""

    def plays_on(self, state: S, decision: Decision) -> bool:
        """Whether the strong search plays a new leaf on (every deciding seat by the one-step
        greedy policy) before judging it: a game whose evaluation misreads states in the middle of
        a sequence says so until the sequence is over. Default: judge every leaf as it stands."""
        return False

    def worth_trying(self, decision: Decision, choices: list[Choice]) -> list[Choice]:
        """The choices the search considers: all of them, unless a game leaves some out (a
        choice that only steps back, say, which a one-step search could repeat for ever)."""
        return choices
