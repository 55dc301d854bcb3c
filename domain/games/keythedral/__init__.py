"""Keythedral (Pro Ludo edition), per the rules reference ``shared/rules/keythedral.md``.

Rules decisions taken where the reference is silent or open (its §5 decisions are followed):
- Board: the reference's parity lattice; seat 0 is the first start player; 2 players put the
  quarry at (1,1) and the forest at (-1,-1) (Q14). Building-tile costs, law titles and static
  tables live in ``data/*.json``; the round cap (Q12) is 40 rounds, reported as an abnormal end.
- Placement is compulsory (Q1; option ``optional_placement``); a house with two or more legal
  fields places two workers. New-law cards are face down (Q3; option ``law_cards_face_up``).
- Law-card windows are asked one seat at a time, never simultaneously. A window asks, in its
  order, each seat holding a card playable in it; a seat that plays is asked again until it
  declines. Windows: the start of each phase (start player first; L20 always; L01/L09 in phase 1;
  L08/L14/L18/L19 in phase 2; L12 at the starts of phases 1-3; and the "any time" cards L03, L04,
  L07, L11, L13, L17); after each work-order marker (L06, L09; from the marker's placer); after a
  declared purchase (L02 by others, L03 by anyone, L13 by others, on that tile; clockwise from the
  buyer's left, the buyer last); after every card played (L10 by the others, from the player's
  left). In phase 3 a player may also play "any time" cards on his own turn without using his
  action; L05, L15 and L16 are played as part of his own purchase, trade or craft purchase.
- The seats of a window decision show that a seat holds some card playable in it (never which).
- A vetoed card is discarded without effect; if it was part of the player's own action (L05,
  L15, L16) that action is not taken and he chooses again, like a player stopped by L02 or L13.
- L02 raises the tile the buyer declared: he then pays the raised price or declines (keeps his
  action); L02/L03 stay under the tile until it is bought; L13 discards them (Q7). L03 in the
  purchase window lowers that tile; elsewhere any face-up tile.
- L07 takes craft cubes from the store only (Q5); L12 blocks only action A2 (Q6); L17 may hit any
  player's house; L04 only one's own cottage. Doubling cards multiply (bumper x hard worker = 4);
  L19 beats L08 and L18 on its field type.
- Payments "of any colour" (crafts, Trader, law card, bids) may use craft cubes (Q4): up to four
  cubes are chosen as one set, a larger payment (a bid) colour by colour. Transactions are made in
  the open, so events name the colours; holdings stay behind the screen in views.
- Phase 3 menu: pass, a tile (one entry each), a house, a fence (build or remove), Keytown (a
  craftsman, the Trader, the Law Master), or an "any time" law card; details are asked next. The
  grouping keeps random play from draining every cube at Keytown each round, so random games end
  by the last tile (about 20 rounds in 4 players, against 37 with a flat menu). A decision with a
  single legal choice (including "pass" for a seat that can do nothing else) is applied at once.
- Bids: a bidder must hold the cubes (Q10); B may only pass or match the high bid; the winner
  pays at once, player to player. The tie-break is the sum of building-tile values, then shared.
"""

from domain.games.keythedral.engine import ENGINE, KeythedralEngine

__all__ = ["ENGINE", "KeythedralEngine"]
