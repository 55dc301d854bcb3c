"""What a Carcassonne decision reveals: a tile drawn from the pile (or drawn and discarded as
unplaceable). Laying a tile or the abbey, placing a figure and moving a wagon show only what the
seat chose, so within a turn each of them can be taken back until the next tile is drawn."""

from __future__ import annotations

from domain.engine import RevealingEvents

TAKEBACKS = RevealingEvents(frozenset({"tile_drawn", "tile_discarded"}))
