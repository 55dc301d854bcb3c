"""What an Im Schutze der Burg decision reveals: the sealed character picks and Damsel bids
opened (``reveal``) and a winter card drawn (``winter_card``). Every decision of the resolution
(Trader, Bricklayer, Stonemason, building and its payment, helpers, Worker III, Firewood) shows
only what the seat chose, so it can be taken back until the next reveal."""

from __future__ import annotations

from domain.engine import RevealingEvents

TAKEBACKS = RevealingEvents(frozenset({"reveal", "winter_card"}))
