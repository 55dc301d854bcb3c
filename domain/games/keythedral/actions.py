"""Phase 3: the round of actions (P3-1 to P3-5) and the purchase of building tiles.

The top-level menu groups the actions (one entry for "build a fence", one for "trade"...) and
asks for the details next, so that a choice list stays short and every action keeps an even
chance under random play; the building tiles are listed one by one.
"""

from __future__ import annotations

from domain.engine import Choice, Event
from domain.games.keythedral import board, laws, market
from domain.games.keythedral.core import ask, ask_held, frame_type, push
from domain.games.keythedral.data import (
    BLACK,
    BROWN,
    COLOURS,
    CRAFT_DISCOUNT,
    CRAFT_PRICE,
    CRAFTS,
    LAW_PRICE,
    PURPLE,
    RED,
    RESOURCES,
    TILE_INDEX,
    TILES,
    TRADER_PRICE,
    WHITE,
    YELLOW,
)
from domain.games.keythedral.state import Frame, Pending, State

PASS: Choice = {"action": "pass"}
HOUSE: Choice = {"action": "house"}
FENCE: Choice = {"action": "fence"}
KEYTOWN: Choice = {"action": "keytown"}
BUY: tuple[Choice, ...] = tuple({"action": "buy", "tile": t.id} for t in TILES)


def turn_choices(st: State, seat: int) -> list[Choice]:
    """Phase 3 (P3-1): pass, a tile (one entry per tile), a house, a fence (build or remove),
    Keytown (a craftsman, the Trader or the Law Master), or a law card playable at any time.
    Details are asked next: the short menu gives passing and buying a fair share of random
    play, which keeps random games from draining every cube at Keytown round after round."""
    have = st.cubes[seat]
    hand = st.hands[seat]
    out: list[Choice] = [PASS]
    rows = st.rows
    for row in rows:
        if row:
            packed = market.pack(have)
            mods = st.mods
            substitution = 5 in hand
            for tile in row:
                if tile in mods:
                    if market.can_buy(st, seat, tile):
                        out.append(BUY[tile])
                elif market.packed_affords(packed, tile) or (substitution and market.can_buy(st, seat, tile)):
                    out.append(BUY[tile])
            break
    if have[BLACK] and have[BROWN] and st.fx.restriction in (-1, seat):
        houses = st.house[seat]
        for i, pos in enumerate(st.cottage_pos[seat]):
            if pos is not None and not houses[i]:
                out.append(HOUSE)
                break
    if (have[BROWN] and st.fences_left[seat] and board.has_free_fence_slot(st)) or (
        have[RED] >= 2 and st.fences
    ):
        out.append(FENCE)
    if _can_visit_keytown(st, seat):
        out.append(KEYTOWN)
    if hand:
        out.extend(laws.plays(st, seat, None, laws.ANY_TIME))
    return out


def _can_visit_keytown(st: State, seat: int) -> bool:
    total = sum(st.cubes[seat])
    if total >= LAW_PRICE and any(st.spaces):
        return True
    store = st.store
    if total >= TRADER_PRICE and (store[0] or store[1] or store[2] or store[3] or store[4]):
        return True
    hand = st.hands[seat]
    if 15 in hand or 16 in hand:
        return bool(keytown_choices(st, seat))
    craftsmen = st.craftsmen
    return (
        (total >= CRAFT_PRICE[WHITE] and craftsmen[0] + store[WHITE] > 0)
        or (total >= CRAFT_PRICE[PURPLE] and craftsmen[1] + store[PURPLE] > 0)
        or (total >= CRAFT_PRICE[YELLOW] and craftsmen[2] + store[YELLOW] > 0)
    )


CRAFT_VISITS: dict[tuple[int, bool], Choice] = {
    (c, discount): {"visit": "craftsman", "colour": COLOURS[c], **({"card": "L16"} if discount else {})}
    for c in CRAFTS
    for discount in (False, True)
}
TRADER: Choice = {"visit": "trader"}
GOOD_DEAL: Choice = {"visit": "trader", "card": "L15"}
LAW_MASTER: tuple[Choice, ...] = tuple({"visit": "law_master", "space": i} for i in range(8))


def keytown_choices(st: State, seat: int) -> list[Choice]:
    """Keytown: a craftsman (A4), the Trader (A5) or the Law Master (A6)."""
    total = sum(st.cubes[seat])
    hand = st.hands[seat]
    out: list[Choice] = [CRAFT_VISITS[c, False] for c in craft_colours(st, total, False)]
    if 16 in hand:
        out.extend(CRAFT_VISITS[c, True] for c in craft_colours(st, total, True))
    store = st.store
    if store[0] or store[1] or store[2] or store[3] or store[4]:
        if total >= TRADER_PRICE:
            out.append(TRADER)
        if 15 in hand and any(st.cubes[seat][c] for c in RESOURCES):
            out.append(GOOD_DEAL)  # the Trader takes "un cube ressource" (L15), never a craft cube
    if total >= LAW_PRICE:
        out.extend(LAW_MASTER[i] for i, card in enumerate(st.spaces) if card)
    return out


def craft_colours(st: State, total: int, discount: bool) -> list[int]:
    """Craft cubes a seat holding ``total`` cubes can buy now: at the craftsman or in the store,
    and affordable (A4); with Craftsman's Discount (L16) only glass and gold, two cubes cheaper."""
    out: list[int] = []
    for i, c in enumerate(CRAFTS):
        if st.craftsmen[i] + st.store[c] == 0:
            continue
        if discount:
            if c in (PURPLE, YELLOW) and total >= CRAFT_PRICE[c] - CRAFT_DISCOUNT:
                out.append(c)
        elif total >= CRAFT_PRICE[c]:
            out.append(c)
    return out


def _next_turn(st: State) -> None:
    for i in range(1, st.players + 1):
        seat = (st.cur + i) % st.players
        if not st.out[seat]:
            st.cur = seat
            return


MENU_CARDS = laws.ANY_TIME | {5, 15, 16}
"""Cards that change a phase-3 menu: those playable from it, and Substitution, Good Deal and
Craftsman's Discount, which open purchases and visits otherwise out of reach."""


def _turn_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    if fr["s"] == 1:
        fr["s"] = 0
        if st.taken:
            st.taken = False
            st.streak = 0
            _next_turn(st)
            if st.out.count(False):
                # before the next turn, the others may play what may be played at any time
                laws.open_window(st, "turn", st.cur, skip=st.cur)
                return None
    active = st.out.count(False)
    if active == 0 or st.streak >= active:
        st.stack.pop()
        events.append(Event("actions_ended", {}))
        return None
    seat = st.cur
    return ask_held(seat, "action", turn_choices(st, seat), laws.may_hold(st, seat, MENU_CARDS))


def _turn_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    action = choice["action"]
    if action == "pass":
        st.streak += 1
        events.append(Event("passed", {"seat": seat}))
        _next_turn(st)
        return
    fr["s"] = 1
    st.taken = False
    if action == "play":
        laws.play(st, seat, choice, events)
        return
    if action == "buy":
        tile = TILE_INDEX[choice["tile"]]
        events.append(Event("purchase_declared", {"seat": seat, "tile": choice["tile"]}))
        push(
            st,
            {
                "t": "buy",
                "seat": seat,
                "tile": tile,
                "s": 0,
                "stopped": False,
                "raised": False,
                "vetoed": False,
                "price": None,
                "card": 5,
            },
        )
        return
    st.taken = True
    push(st, {"t": action, "seat": seat})


frame_type("turn", _turn_step, _turn_answer)


def _play_own(st: State, seat: int, card: int, events: list[Event], **data: object) -> None:
    """A card played as part of one's own action: the action happens unless it is vetoed."""
    st.hands[seat].remove(card)
    st.discard.append(card)
    events.append(laws.played_event(seat, card, data))
    laws.open_veto(st, seat, card)


# -- A1: buying a building tile ----------------------------------------------------------------
SUBSTITUTION = frozenset({5})
KEYTOWN_CARDS = frozenset({15, 16})


def _buy_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    seat = fr["seat"]
    tile = fr["tile"]
    if fr["s"] == 0:
        fr["s"] = 1  # clockwise from the buyer's left, the buyer last
        laws.open_window(st, "purchase", (seat + 1) % st.players, buyer=seat, tile=tile)
        return None
    if fr["s"] == 1:
        if fr["stopped"]:
            st.stack.pop()
            events.append(Event("purchase_stopped", {"seat": seat, "tile": TILES[tile].id}))
            return None
        choices = market.payment_choices(st, seat, tile, 5 in st.hands[seat])
        if fr["raised"]:
            choices.append({"action": "decline"})
        if not choices:
            st.stack.pop()
            events.append(Event("purchase_stopped", {"seat": seat, "tile": TILES[tile].id}))
            return None
        return ask_held(seat, "pay_tile", choices, laws.may_hold(st, seat, SUBSTITUTION), tile=TILES[tile].id)
    st.stack.pop()
    if not fr["vetoed"]:
        st.taken = True
        market.complete_purchase(st, seat, tile, fr["price"], events)
    return None


def _buy_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    if choice["action"] == "decline":
        st.stack.pop()
        events.append(Event("purchase_stopped", {"seat": seat, "tile": TILES[fr["tile"]].id}))
        return
    fr["price"] = market.cube_list(choice["cubes"])
    fr["s"] = 2
    if choice.get("substitution"):
        _play_own(st, seat, 5, events, cubes=choice["cubes"])


frame_type("buy", _buy_step, _buy_answer)


# -- actions carried out by their own frames ---------------------------------------------------
def _house_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    seat = fr["seat"]
    return ask(
        seat,
        "choose_house",
        [
            {"number": i + 1}
            for i, pos in enumerate(st.cottage_pos[seat])
            if pos is not None and not st.house[seat][i]
        ],
    )


def _house_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    number = int(choice["number"])
    st.pay_to_store(seat, BLACK)
    st.pay_to_store(seat, BROWN)
    st.house[seat][number - 1] = True
    events.append(Event("house_built", {"seat": seat, "number": number}))


frame_type("house", _house_step, _house_answer)


def _fence_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Build one of your fences (A3a, 1 brown) or remove any fence (A3b, 2 red)."""
    seat = fr["seat"]
    choices: list[Choice] = []
    if st.cubes[seat][BROWN] and st.fences_left[seat]:
        choices = [
            {"fence": "build", "gx": s[0], "gy": s[1], "fx": s[2], "fy": s[3]}
            for s in board.free_fence_slots(st)
        ]
    if st.cubes[seat][RED] >= 2:
        choices.extend(
            {"fence": "remove", "gx": s[0], "gy": s[1], "fx": s[2], "fy": s[3]} for s in sorted(st.fences)
        )
    return ask(seat, "fence", choices)


def _fence_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    slot = (int(choice["gx"]), int(choice["gy"]), int(choice["fx"]), int(choice["fy"]))
    place = {"gx": slot[0], "gy": slot[1], "fx": slot[2], "fy": slot[3]}
    if choice["fence"] == "remove":
        st.pay_to_store(seat, RED, 2)
        del st.fences[slot]
        events.append(Event("fence_removed", {"seat": seat, **place}))
        laws.replace_off_board(st)
        return
    st.pay_to_store(seat, BROWN)
    st.fences[slot] = seat
    st.fences_left[seat] -= 1
    events.append(Event("fence_built", {"seat": seat, **place}))
    gap = (slot[0], slot[1])
    if board.is_enclosed(st, gap):
        owner, number = st.gap_occ[gap]
        board.lift_cottage(st, owner, number)
        st.off_board.append([owner, number])
        events.append(
            Event("cottage_fenced_out", {"seat": owner, "number": number, "x": gap[0], "y": gap[1]})
        )
        push(st, {"t": "replace", "seat": owner, "number": number})


frame_type("fence", _fence_step, _fence_answer)


def _deal_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Good Deal (L15): one resource cube to the Trader, two resource cubes back."""
    st.stack.pop()
    if not fr["vetoed"]:
        st.taken = True
        push(st, {"t": "take", "seat": fr["seat"], "n": 2})
        push(st, {"t": "pay", "seat": fr["seat"], "n": 1, "to": -1, "paid": [0] * 8, "resources": True})
    return None


frame_type("deal", _deal_step)


def _discount_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    """Craftsman's Discount (L16): the goldsmith or glassmaker takes two cubes fewer."""
    st.stack.pop()
    if not fr["vetoed"]:
        st.taken = True
        c = fr["c"]
        push(st, {"t": "gain", "seat": fr["seat"], "c": c})
        push(
            st,
            {"t": "pay", "seat": fr["seat"], "n": CRAFT_PRICE[c] - CRAFT_DISCOUNT, "to": -1, "paid": [0] * 8},
        )
    return None


frame_type("disc", _discount_step)


def _keytown_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    seat = fr["seat"]
    return ask_held(seat, "keytown", keytown_choices(st, seat), laws.may_hold(st, seat, KEYTOWN_CARDS))


def _keytown_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    visit = choice["visit"]
    if visit == "craftsman":
        c = COLOURS.index(choice["colour"])
        if "card" in choice:
            st.taken = False
            push(st, {"t": "disc", "seat": seat, "c": c, "card": 16, "vetoed": False})
            _play_own(st, seat, 16, events, colour=choice["colour"])
            return
        push(st, {"t": "gain", "seat": seat, "c": c})
        push(st, {"t": "pay", "seat": seat, "n": CRAFT_PRICE[c], "to": -1, "paid": [0] * 8})
    elif visit == "trader":
        if "card" in choice:
            st.taken = False
            push(st, {"t": "deal", "seat": seat, "card": 15, "vetoed": False})
            _play_own(st, seat, 15, events)
            return
        events.append(Event("trader_visited", {"seat": seat}))
        push(st, {"t": "take", "seat": seat, "n": 1})
        push(st, {"t": "pay", "seat": seat, "n": TRADER_PRICE, "to": -1, "paid": [0] * 8})
    else:
        _procure_law(st, seat, int(choice["space"]), events)


frame_type("keytown", _keytown_step, _keytown_answer)


def _procure_law(st: State, seat: int, space: int, events: list[Event]) -> None:
    """Procure a law card (A6): the seat is done with phase 3 (P3-2)."""
    card = st.spaces[space]
    st.spaces[space] = 0
    st.hands[seat].append(card)
    st.out[seat] = True
    events.append(
        Event("law_procured", {"seat": seat, "space": space}, private={seat: {"card": f"L{card:02d}"}})
    )
    push(st, {"t": "pay", "seat": seat, "n": LAW_PRICE, "to": -1, "paid": [0] * 8})
