"""Why a followed match stopped moving: an event late, an event lost, or nothing due (a harness or
server bug about who decides next). Pure decision logic of ``bench/matches.py``'s stall report.

A stall is a mover that saw no new state within the client's timeout. The facts that tell the
cases apart are gathered per seat when it happens: what the server committed (the seat's stored
history), what the seat's client had received then and after a grace period, which decision the
server asks of the seat now, and which offers (decision versions) reached the client, by an event's
``next`` or by a submit's answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatFacts:
    seat: int
    stored: Sequence[int]
    """The seqs the server committed, as the seat's history (``/events``) lists them."""
    received_at_stall: Sequence[int]
    received_after_grace: Sequence[int]
    asked_version: int | None
    """The game version of the decision the server asks of this seat now (None: not asked)."""
    offered: Mapping[int, str]
    """The offers the client received: game version → where it came from."""
    in_flight_s: float | None = None
    """How long the seat's submit had been in progress at the stall (None: none was)."""
    subscription_ended: str | None = None
    """Why the seat's subscription ended before the game did (None: it was open)."""


def verdict(seats: Sequence[SeatFacts]) -> tuple[str, str]:
    """(kind, explanation): ``ended`` (a subscription ended early: the server's error, or a closed
    socket), ``lost`` or ``late`` (delivery), ``slow`` (a submit still in progress),
    ``harness`` (the client had the offer and did not answer it), ``server`` (a seat is asked but
    no offer reached it, or nobody is asked while the match still had moves to play)."""
    for facts in seats:
        if facts.subscription_ended is not None:
            return "ended", f"seat {facts.seat}'s subscription ended early: {facts.subscription_ended}"
    for facts in seats:
        missing = sorted(set(facts.stored) - set(facts.received_after_grace))
        if missing:
            return "lost", (
                f"seat {facts.seat} never received committed seqs {_span(missing)} "
                f"(not within the grace period either)"
            )
    for facts in seats:
        if facts.in_flight_s is not None:
            return "slow", f"seat {facts.seat}'s submit had waited {facts.in_flight_s:.1f} s for its answer"
    for facts in seats:
        late = sorted(set(facts.stored) - set(facts.received_at_stall))
        if late:
            return "late", f"seat {facts.seat} received committed seqs {_span(late)} only after the timeout"
    asked = [facts for facts in seats if facts.asked_version is not None]
    for facts in asked:
        version = facts.asked_version
        assert version is not None
        if version in facts.offered:
            return "harness", (
                f"seat {facts.seat} had the offer at version {version} ({facts.offered[version]}) "
                f"and did not answer it"
            )
    if asked:
        facts = asked[0]
        return "server", (
            f"seat {facts.seat} is asked at version {facts.asked_version}, but no event and no "
            f"answer carried that offer to it"
        )
    return "server", "every committed event was delivered and the server asks no seat to decide"


def _span(seqs: Sequence[int]) -> str:
    shown = ", ".join(map(str, seqs[:10]))
    return f"[{shown}{', …' if len(seqs) > 10 else ''}] ({len(seqs)})"
