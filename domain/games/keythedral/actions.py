"""The frames of phase 3: the round of actions (P3-1 to P3-5) and the purchase of building tiles.

The top-level menu (``choices.turn_choices``) groups the actions (one entry for "build a fence",
one for "trade"...) and asks for the details next, so that a choice list stays short and every
action keeps an even chance under random play; the building tiles are listed one by one.
"""

from __future__ import annotations

from domain.engine import JSON, Choice, Event
from domain.games.keythedral import choices, effects, laws, market
from domain.games.keythedral.data import (
    COLOURS,
    CRAFT_DISCOUNT,
    CRAFT_PRICE,
    LAW_PRICE,
    TILE_INDEX,
    TILES,
    TRADER_PRICE,
)
from domain.games.keythedral.flow import ask, ask_held, frame_type, push
from domain.games.keythedral.state import Frame, Pending, State


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
    return ask_held(seat, "action", choices.turn_choices(st, seat), laws.may_hold(st, seat, MENU_CARDS))


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


def _play_own(st: State, seat: int, card: int, events: list[Event], **data: JSON) -> None:
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
        payments = market.payment_choices(st, seat, tile, 5 in st.hands[seat])
        if fr["raised"]:
            payments.append({"action": "decline"})
        if not payments:
            st.stack.pop()
            events.append(Event("purchase_stopped", {"seat": seat, "tile": TILES[tile].id}))
            return None
        return ask_held(
            seat, "pay_tile", payments, laws.may_hold(st, seat, SUBSTITUTION), tile=TILES[tile].id
        )
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
    return ask(fr["seat"], "choose_house", choices.house_choices(st, fr["seat"]))


def _house_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    effects.build_house(st, seat, int(choice["number"]), events)


frame_type("house", _house_step, _house_answer)


def _fence_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    return ask(fr["seat"], "fence", choices.fence_choices(st, fr["seat"]))


def _fence_answer(st: State, fr: Frame, seat: int, choice: Choice, events: list[Event]) -> None:
    st.stack.pop()
    slot = (int(choice["gx"]), int(choice["gy"]), int(choice["fx"]), int(choice["fy"]))
    if choice["fence"] == "remove":
        effects.remove_fence(st, seat, slot, events)
        laws.replace_off_board(st)
        return
    fenced_out = effects.build_fence(st, seat, slot, events)
    if fenced_out is not None:
        owner, number = fenced_out
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
    return ask_held(
        seat, "keytown", choices.keytown_choices(st, seat), laws.may_hold(st, seat, KEYTOWN_CARDS)
    )


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
        effects.procure_law(st, seat, int(choice["space"]), events)
        push(st, {"t": "pay", "seat": seat, "n": LAW_PRICE, "to": -1, "paid": [0] * 8})


frame_type("keytown", _keytown_step, _keytown_answer)
