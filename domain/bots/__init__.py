"""Bots: seats the service plays itself, through the same guards as a human.

A bot only ever sees what its seat could see: its own view, the decision and its legal choices,
and (for the search bot) states sampled by the game's ``determinize`` hook, which resamples
everything hidden from that seat. Levels: ``random`` (uniform among legal choices), ``greedy``
(short Monte Carlo search over sampled states, scored by the game's evaluation) and ``strong``
(information-set Monte Carlo tree search over the same samples, ``domain.bots.search``; for a game
whose hooks ask for it, Carcassonne, a determinized search of the seat's whole turn whose best ends
are played on through the others' turns, ``domain.bots.turn_search``).
"""

from __future__ import annotations

from domain.bots.policies import BOT_LEVELS, BotContext, choose, context_for, validate_level

__all__ = ["BOT_LEVELS", "BotContext", "choose", "context_for", "validate_level"]
