"""Keythedral (Pro Ludo edition), per the rules reference ``shared/rules/keythedral.md``.

Rules decisions taken where the reference is silent or open (its §5 decisions are followed):
- Board: the reference's parity lattice; 2 players put the quarry at (1,1) and the forest at
  (-1,-1) (Q14). The first player (S-7, "le joueur le plus jeune choisit") is the option
  ``first_player``: random by default, drawn from the game's seeded randomness, or a seat.
  Building-tile costs, law texts and static tables live in ``data/*.json``; the round cap (Q12:
  the rules have no end for a game where nobody buys) is 200 rounds, a safety net reported as an
  abnormal ("stalled") end: the rulebook's games last 7 to 9 rounds, and random 2-player games up
  to 87 (450 measured with the cap lifted), so no valid game is cut by it.
- Placement is compulsory (Q1; option ``optional_placement``); a house with two or more legal
  fields places two workers. New-law cards are face down (Q3; option ``law_cards_face_up``).
  The value-4 tiles turn face up only once every field and cottage is laid (S-10).
- Law cards are secret, so nothing public depends on who holds which card. Law windows are
  simultaneous decisions put to every seat that, on public information alone (its number of
  cards, the cards not yet seen played, the board), might hold a card playable then; a seat
  holding nothing playable is asked all the same and passes. A window nobody could use on public
  information is skipped (no seat holds a card; or, say, L10 has been seen played, so no Veto
  windows). If several seats play in one window, the first clockwise from the window's first
  seat plays and the others' choices lapse unseen; after the card the window opens again until
  every asked seat passes. Windows ("n'importe quand" means at every one of them): the start of
  each phase (L20; L01/L09 in phase 1; L08/L14/L18/L19 in phase 2; L12 in phases 1-3); after each
  work-order marker, before its workers go (L06, L09, L08, L14, L12); after each declared
  purchase (L02 and L13 by the others, L03 by anyone, on that tile); after each phase-3 action
  other than a pass, before the next turn (everyone but the next player, whose own menu offers
  the same cards), so also right after taking a law card; once the bids of the auction are in;
  and after every card played, before it takes effect (L10 by the others). Cards marked "any
  time" (L03, L04, L07, L11, L13, L17) join every window; in phase 3 a player may also play them
  on his own turn without using his action; L05, L15 and L16 are played as part of his own
  purchase, Trader visit or craft purchase. The harvest and the placing of the workers of one
  number are single steps, with windows before and after. A decision whose choices a hidden
  card could widen (the phase-3 menu, the Keytown visit, the tile payment) is asked even with a
  single choice when its seat might hold such a card.
- A vetoed card is discarded without effect; if it was part of the player's own action (L05,
  L15, L16) that action is not taken and he chooses again, like a player stopped by L02 or L13.
- L02 raises the tile the buyer declared: he then pays the raised price or declines (keeps his
  action); L02/L03 stay under the tile until it is bought; L13 discards them (Q7). L03 in the
  purchase window lowers that tile; elsewhere any face-up tile.
- L07 takes craft cubes from the store only (Q5); L12 blocks only action A2 (Q6); L17 may hit any
  player's house; L04 only one's own cottage. L15 takes "un cube ressource": one resource cube,
  never a craft cube. ``law_played`` names who played the card (``seat``) and, for L17 and L20,
  the player it aims at (``target_seat``). Doubling cards multiply (bumper x hard worker = 4);
  L19 beats L08 and L18 on its field type.
- Payments "of any colour" (crafts, Trader, law card, bids) may use craft cubes (Q4): up to four
  cubes are chosen as one set, a larger payment (a bid) colour by colour. Transactions are made in
  the open, so events name the colours; holdings stay behind the screen in views. Bought tiles go
  behind the buyer's screen too: views show others only how many tiles each bought; the end of
  the game shows every tile and total (the purchase itself is seen, as at a table).
- Phase 3 menu: pass, a tile (one entry each), a house, a fence (build or remove), Keytown (a
  craftsman, the Trader, the Law Master), or an "any time" law card; details are asked next. The
  grouping keeps random play from draining every cube at Keytown each round, so random games end
  by the last tile (about 20 rounds in 4 players, against 37 with a flat menu). A decision with a
  single legal choice (including "pass" for a seat that can do nothing else) is applied at once.
- Bids: a bidder must hold the cubes (Q10); B may only pass or match the high bid; the winner
  pays at once, player to player. The tie-break is the sum of building-tile values, then shared.
- Take-backs (issue 30; takebacks.py): a decision can be taken back until a field tile is laid
  from the stack, a law card is taken, played or vetoed, tiles are turned face up or swapped, or
  the new-law spaces are refilled. A law window every asked seat passed opens nothing, but those
  seats decided: taking back the action before it asks them to accept.
"""

from domain.games.keythedral.catalog import CATALOG
from domain.games.keythedral.engine import ENGINE, KeythedralEngine
from domain.games.keythedral.takebacks import TAKEBACKS
from domain.manifest import HostedGame

GAME = HostedGame(
    engine=ENGINE,
    catalog=CATALOG,
    search=ENGINE.search_hooks,
    check_invariants=ENGINE.check_invariants,
    takebacks=TAKEBACKS,
)

__all__ = ["ENGINE", "GAME", "KeythedralEngine"]
