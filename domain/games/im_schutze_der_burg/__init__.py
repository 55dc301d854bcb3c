"""Im Schutze der Burg (A Castle for All Seasons), Inka & Markus Brand, eggertspiele 2008.

Rules decisions where the reference is silent or open (reconstructed numbers live in data/):

- First start player drawn at random from the setup rng; the marker passes clockwise.
- The round track pays the start player 1 thaler per round (the highest coin), never more.
- A seat whose pick is forced (only one legal card or pair) is not asked: its pick is filled
  in automatically; the pick decision lists only the seats with a real choice, and the
  reveal event still shows every seat's cards.
- The winter card is drawn after the secret picks and announced just before the reveal;
  Damsel bids and Firewood choices are taken then, with the picks still sealed.
- Trader: a free cart must be used first; only when all four carts are occupied may he take the
  rider or displace another player's helper not placed this round (never his own). Displaced
  helpers go back to their owner. Production after the last Trader of the round.
- Production and equipping take from the stock and deliver less if it runs short; tribute is
  1 piece of each kind actually received. Bank payouts stop when the bank is empty.
- Bricklayer: taking from the watchtower is optional. Taler reward: 1 per piece spent,
  silver included.
- Building is two decisions, as on the original site (click a building, then adjust a
  preselected payment): the building type (identical tiles are interchangeable), saying what it
  earns, then the physical pieces spent; silver assignments spending the same pieces are one
  payment. The cheapest payment (fewest silver, then most sand, wood, clay) is listed first and
  named in the decision's data; it is not marked inside the choice. Too many payments (a hoard)
  are narrowed kind by kind first; "back" returns to the buildings (see building.py).
- Helpers: at most 1 of a seat's helpers per building per round (player aid S7; with 2 players
  this spans both of the round's cards, and the Guest House counts as a building), 2 per action;
  from the personal supply or one's own cart/rider helper. Identical spaces of one building are
  offered once (first free one).
- Stonemason: at most 1 piece from each Worker card revealed this round (rules 2.4.4.1a; with 2
  players one piece from each of the opponent's two Worker cards, 2.14: "the Stonemason rule
  applies per card"), never a card's last piece, 1 thaler to the card's owner; never from his
  own card.
- Worker III: the owner picks its two extra pieces at equipping (before the Stonemasons);
  only distinct outcomes given the stock are offered.
- Master Builder: all played cards (this round's included) return to hand; 5 VP per building
  erected this round by other seats. It cannot be chosen with all 8 cards in hand.
- Same cards resolve from the start player clockwise; a seat's two Workers (2 players) in
  card-number order.
- End scoring: the Market and Palace conversions are made automatically (rules reference Q18).
  The Market converts all of its owner's thalers (rules 2.11, "All his talers are converted"):
  one helper gives 1 VP per 2 and an odd thaler is converted for nothing, so no thaler of a
  Market owner counts for the tie-break (2.10). The Palace converts whole pieces up to its
  limit; silver converts first at value 5 and counts 5 for the tie-break value. Tie-breaks:
  thalers left, then resource value; still tied = shared win.
- Winter: the six reconstructed cards of data/winter.json; winter tiles equal summer values;
  Guest House guests are not "in the castle" (ignored by Keep and Tavern); its guest counts
  as that action's one helper on the Guest House. Damsel bids are a second sealed decision
  (seats with thalers); its reveal event carries "what": "bids".
- The engine's own last event is "game_ended" (round, all_built); the platform adds
  "game_over" with the scores.
- Take-backs (issue 30; takebacks.py): the resolution's decisions (Trader, Bricklayer,
  Stonemason, building and payment, helpers, Worker III, Firewood) can be taken back until the
  next reveal: the picks or Damsel bids opened, or a winter card drawn. Sealed picks are never
  taken back (a seat may replace its sealed choice until the last one seals).
"""

from domain.games.im_schutze_der_burg.catalog import CATALOG
from domain.games.im_schutze_der_burg.engine import META, SchutzeDerBurgEngine
from domain.games.im_schutze_der_burg.takebacks import TAKEBACKS
from domain.manifest import HostedGame

ENGINE = SchutzeDerBurgEngine()

GAME = HostedGame(
    engine=ENGINE,
    catalog=CATALOG,
    search=ENGINE.search_hooks,
    check_invariants=ENGINE.check_invariants,
    takebacks=TAKEBACKS,
)

__all__ = ["ENGINE", "GAME", "META", "SchutzeDerBurgEngine"]
