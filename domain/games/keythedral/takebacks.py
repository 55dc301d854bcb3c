"""What a Keythedral decision reveals: a field tile laid from the stack (the next one shows in
the following decision), a law card taken (its holder sees it) or played, building tiles turned
face up or swapped at random (L13), and new-law spaces refilled from the deck when the workers
come back. A law window in which every asked seat passed opens nothing (the choices lapse unseen)
but counts as every asked seat's decision, so taking back the action before it asks them."""

from __future__ import annotations

from collections.abc import Sequence

from domain.engine import Decision, Event

REVEALING = frozenset(
    {"field_laid", "law_procured", "law_played", "law_vetoed", "row_revealed", "tile_swapped"}
)


class KeythedralTakeBacks:
    def revealed(self, decision: Decision, events: Sequence[Event]) -> bool:
        return any(
            event.type in REVEALING or (event.type == "workers_retrieved" and event.data.get("spaces"))
            for event in events
        )


TAKEBACKS = KeythedralTakeBacks()
