"""A seat's pending decision as clients read it: in ``GET …/choices``, a submit's answer, and
the offer attached to a live event."""

from __future__ import annotations

from domain.engine import Decision
from domain.model.match import DescribedDecision, Match, MatchStatus, Offer


def next_decision(match: Match, seat: int) -> Offer | None:
    """What ``seat`` must decide now, as ``GET …/choices`` would answer it; None when it has nothing
    to decide (not asked, already sealed, or the game is over)."""
    if match.status is not MatchStatus.IN_PROGRESS:
        return None
    decision, choices = match.choices_for(seat)
    if decision is None or not choices or seat in match.sealed:
        return None
    return {
        "game_type": match.game_type,
        "version": match.version,
        "decision_version": match.decision_version_for(seat),
        "decision": describe_decision(decision, match, seat),
        "choices": choices,
    }


def describe_decision(decision: Decision, match: Match, seat: int | None) -> DescribedDecision:
    """The public description of a decision: who decides, and (only) who has already sealed."""
    return {
        "kind": decision.kind,
        "prompt": decision.prompt,
        "seats": list(decision.seats),
        "simultaneous": decision.simultaneous,
        "sealed": sorted(match.sealed) if decision.simultaneous else [],
        "your_sealed_choice": match.sealed.get(seat) if seat is not None else None,
        "decision_version": match.decision_version_for(seat),
        "data": dict(decision.data),
    }
