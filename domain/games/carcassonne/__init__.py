"""Carcassonne (current edition) with the Abbey & Mayor expansion as a game option.

Rules decisions where the reference is silent or open (reference section 5 followed throughout):

- Start tile BA/RCr at (0, 0), city north; seat 0 starts; the pile holds the other 71 (+12) tiles.
- Every rotation of a legal position is its own choice, even when two rotations look alike.
- Unplaceable drawn tiles are discarded publicly and the next one drawn; if that empties the
  pile, the tiles are over (abbey round, then final scoring).
- The figure decision is skipped when "none" is the only choice; a wagon with no eligible
  target goes home without a decision.
- The abbey is offered (instead of drawing) only while the player holds it and a hole exists;
  its choice carries no rotation (rotation is irrelevant).
- End-of-game abbey round (option, default mandatory): one clockwise pass starting after the
  seat that placed the last land tile; each placement is a full mini-turn (figure, scoring,
  barn scorings, wagon moves). "optional" adds a "pass" choice. When the round is mandatory
  and exactly one hole is left, the abbey goes there without a question.
- A wagon waiting to move stays on its scored feature until moved or taken back; all wagons of
  a scoring are queued clockwise from the active seat, winners or not (Q8); none move at the
  final scoring (Q9). Classic wagon rule: targets are the segments linked to the scored feature
  (tile links and abbey sides).
- Barn placement scoring (3/city) and connection scoring (1/city) do not change with the
  farm-scoring version; v1/v2 only change the final farmer scoring. Barn owners score 4/city,
  each owner once per field.
- Tiny-city option applies to completed 2-tile cities only (2 tiles + pennants instead of double).
- Ties: every tied seat wins (the rulebook has no tie-breaker).
- Take-backs (issue 30; takebacks.py): laying a tile or the abbey, placing a figure and moving
  a wagon can be taken back until the next tile is drawn (or drawn and discarded), which is the
  only thing a decision reveals; a turn's last decision draws the next tile, so it is final.
"""

from domain.games.carcassonne.catalog import CATALOG
from domain.games.carcassonne.engine import META, CarcassonneEngine
from domain.games.carcassonne.takebacks import TAKEBACKS
from domain.manifest import HostedGame

ENGINE = CarcassonneEngine()

GAME = HostedGame(
    engine=ENGINE,
    catalog=CATALOG,
    search=ENGINE.search_hooks,
    check_invariants=ENGINE.check_invariants,
    copy_state=ENGINE.copy_state,
    takebacks=TAKEBACKS,
)

__all__ = ["ENGINE", "GAME", "META", "CarcassonneEngine"]
