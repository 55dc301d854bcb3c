"""Law cards: the windows in which they may be played, their parameters, and their effects.

Secrecy first: nothing public may depend on who holds which card. A window is a simultaneous
decision put to every seat that, on public information alone (its number of cards, the cards
not yet seen played, the board), might hold a card playable in it; each such seat plays one
or passes, and a seat holding nothing playable is asked all the same (its only choice is to
pass). A window no seat could use on public information is skipped. When several seats play
in the same window the first of them in the window's order plays and the others' choices
lapse unseen; the window then opens again once the card has resolved, until every asked seat
passes. Every card played first opens a Veto window (L10) for the other seats.

A window is a frame ``{"t": "win", "w": kind, "ref": seat, "skip": seat, ...}``: its order is
clockwise from ``ref``; ``skip`` (or -1) is a seat left out because it is about to decide
anyway (the next player of phase 3, whose own turn offers the same cards).
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.engine import JSON, Choice, Event
from domain.games.keythedral import board, effects, market
from domain.games.keythedral.data import (
    COLOUR_INDEX,
    COLOURS,
    CRAFTS,
    FIELD_INDEX,
    FIELD_TYPES,
    RESOURCES,
    TILE_INDEX,
    TILES,
    YELLOW,
    law_id,
)
from domain.games.keythedral.flow import ask_all, frame_type, push
from domain.games.keythedral.state import Frame, Pending, State

ANY_TIME = frozenset({3, 4, 7, 11, 13, 17})
START_CARDS = {
    1: frozenset({20, 1, 9, 12}) | ANY_TIME,
    2: frozenset({20, 18, 19, 8, 14, 12}) | ANY_TIME,
    3: frozenset({20, 12}) | ANY_TIME,
    4: frozenset({20}) | ANY_TIME,
    5: frozenset({20}) | ANY_TIME,
}
WINDOW_CARDS = {
    # after a work-order marker, before its workers go: Renumbering, and what may be played
    # "before or during" phase 1 or 2 or "before" phase 3
    "marker": frozenset({6, 9, 8, 14, 12}) | ANY_TIME,
    "purchase": frozenset({2, 3, 13}) | ANY_TIME,
    "turn": ANY_TIME,
    "auction": ANY_TIME,
    "veto": frozenset({10}),
}
OWN_ACTION_CARDS = frozenset({5, 15, 16})
"""Played as part of one's own purchase (L05), Trader visit (L15) or craft purchase (L16)."""
PASS: Choice = {"action": "pass"}
VETO = 10
ALL_CARDS = frozenset(range(1, 21))


def window_cards(win: Frame) -> frozenset[int]:
    if win["w"] == "start":
        return START_CARDS[win["p"]]
    return WINDOW_CARDS[win["w"]]


def open_window(st: State, kind: str, ref: int, skip: int = -1, **ctx: object) -> None:
    """Push a law window; its step decides, on public information only, whether anyone is asked."""
    push(st, {"t": "win", "w": kind, "ref": ref, "skip": skip, **ctx})


def unseen_cards(st: State) -> frozenset[int]:
    """Cards that, for all anyone can tell, may be in some hand: not seen played, not lying under
    a tile, not face up on a new-law space."""
    seen = set(st.discard)
    for inc, dec in st.mods.values():
        if inc:
            seen.add(2)
        if dec:
            seen.add(3)
    if st.law_cards_face_up:
        seen.update(st.spaces)
    return ALL_CARDS - seen


def may_hold(st: State, seat: int, cards: frozenset[int]) -> bool:
    """Whether, on public information, ``seat`` might hold one of ``cards``: it holds some card
    (their number is public) and one of them has not been seen played."""
    return bool(st.hands[seat]) and not cards.isdisjoint(unseen_cards(st))


def could_play(st: State, seat: int, card: int, win: Frame) -> bool:
    """Whether a seat holding ``card`` could play it in ``win``, judged on public information:
    Craft Dealer asks for one of its cubes, of which only the number is public."""
    if card == 7:
        return sum(st.cubes[seat]) > 0 and any(st.store[c] for c in CRAFTS)
    return bool(card_options(st, seat, card, win))


def window_order(st: State, win: Frame) -> list[int]:
    return [s for s in st.turn_order(win["ref"]) if s != win["skip"]]


SEAT_FREE = frozenset({1, 3, 11, 12, 18, 19, 20})
"""Cards whose playability does not depend on the seat holding them."""


def asked_seats(st: State, win: Frame) -> list[int]:
    """The seats a window is put to, on public information only (never the hands' contents)."""
    holders = [s for s in window_order(st, win) if st.hands[s]]
    if not holders:
        return []
    cards = window_cards(win) & unseen_cards(st)
    if any(card_options(st, holders[0], c, win) for c in cards & SEAT_FREE):
        return holders
    rest = cards - SEAT_FREE
    return [s for s in holders if any(could_play(st, s, c, win) for c in rest)]


def card_options(st: State, seat: int, card: int, win: Frame | None) -> list[dict[str, JSON]]:
    """The parameter sets with which ``seat`` may play ``card`` now (empty if it cannot)."""
    w = win["w"] if win is not None else "turn"
    fx = st.fx
    if card == 1:
        return [{}] if fx.work_order < 0 else []
    if card == 2:
        return [{}] if win is not None and w == "purchase" and seat != win["buyer"] else []
    if card == 3:
        if w == "purchase":
            assert win is not None
            tiles = [win["tile"]]
        else:
            tiles = market.face_up_tiles(st)
        return [
            {"tile": TILES[t].id}
            for t in tiles
            if any(n and c != YELLOW for c, n in enumerate(TILES[t].cost))
            and sum(TILES[t].cost) + st.mods.get(t, [0, 0])[0] - st.mods.get(t, [0, 0])[1] > 1
        ]
    if card == 4:
        return [
            {"number": i + 1}
            for i, pos in enumerate(st.cottage_pos[seat])
            if pos is not None and not st.house[seat][i]
        ]
    if card == 6:
        if fx.renumber[seat] is not None or w != "marker":
            return []
        return [
            {"number": i + 1}
            for i, pos in enumerate(st.cottage_pos[seat])
            if pos is not None and (i + 1) not in st.markers
        ]
    if card == 7:
        have = st.cubes[seat]
        return [
            {"take": COLOURS[t], "give": COLOURS[g]}
            for t in CRAFTS
            if st.store[t] > 0
            for g in RESOURCES
            if have[g] > 0
        ]
    if card == 8:
        kinds = sorted({st.fields[f] for f, s in st.workers.items() if s == seat})
        return [{"field": FIELD_TYPES[k]} for k in kinds] if fx.harvest_choice[seat] < 0 else []
    if card == 9:
        return [{}] if seat not in fx.right_of_way else []
    if card == 10:
        return [{}] if win is not None and w == "veto" and seat != win["by"] else []
    if card == 11:
        return [{"gx": s[0], "gy": s[1], "fx": s[2], "fy": s[3]} for s in sorted(st.fences)]
    if card == 12:
        return [{}] if fx.restriction < 0 else []
    if card == 13:
        if w == "purchase":
            assert win is not None
            if seat == win["buyer"]:
                return []
            tiles = [win["tile"]]
        else:
            tiles = market.face_up_tiles(st)
        return [{"tile": TILES[t].id} for t in tiles if st.pools[TILES[t].row]]
    if card == 14:
        if fx.hard_worker[seat] is not None:
            return []
        return [{"x": f[0], "y": f[1]} for f in sorted(st.workers) if st.workers[f] == seat]
    if card == 17:
        return [
            {"target_seat": s, "number": i + 1}
            for s in range(st.players)
            for i, pos in enumerate(st.cottage_pos[s])
            if pos is not None and st.house[s][i]
        ]
    if card in (18, 19):
        taken = fx.bumper if card == 18 else fx.blight
        return [{"field": name} for name in FIELD_TYPES] if taken < 0 else []
    if card == 20:
        return [{"target_seat": s} for s in range(st.players) if s != st.start]
    return []


def plays(st: State, seat: int, win: Frame | None, cards: frozenset[int]) -> list[Choice]:
    out: list[Choice] = []
    for card in sorted(st.hands[seat]):
        if card in cards:
            for params in card_options(st, seat, card, win):
                out.append({"action": "play", "card": law_id(card), **params})
    return out


def played_event(seat: int, card: int, params: Mapping[str, JSON]) -> Event:
    """``seat`` is who played the card; a card aimed at a player names him as ``target_seat``."""
    return Event("law_played", {"seat": seat, "card": law_id(card), **params})


def play(st: State, seat: int, choice: Choice, events: list[Event], **ctx: object) -> None:
    """Play a card: reveal it, then open a Veto window above its pending effect."""
    card = int(choice["card"][1:])
    st.hands[seat].remove(card)
    st.discard.append(card)
    params = {k: v for k, v in choice.items() if k not in ("action", "card")}
    events.append(played_event(seat, card, params))
    push(st, {"t": "eff", "seat": seat, "card": card, "args": params, "vetoed": False, **ctx})
    open_veto(st, seat, card)


def open_veto(st: State, seat: int, card: int) -> None:
    if card != VETO:
        open_window(st, "veto", (seat + 1) % st.players, skip=seat, by=seat)


# -- the window frame ------------------------------------------------------------------------
def _window_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    if fr["w"] == "purchase" and st.stack[-2].get("stopped"):
        st.stack.pop()
        return None
    seats = asked_seats(st, fr)
    if not seats:
        st.stack.pop()
        return None
    cards = window_cards(fr)
    return ask_all("law_window", {s: [PASS, *plays(st, s, fr, cards)] for s in seats}, window=fr["w"])


def _window_answer(st: State, fr: Frame, choices: Mapping[int, Choice], events: list[Event]) -> None:
    """The first seat in the window's order that plays a card plays it; the others' choices
    lapse unseen (the window opens again after the card, so they may play then)."""
    for seat in window_order(st, fr):
        choice = choices.get(seat)
        if choice is None or choice["action"] != "play":
            continue
        if fr["w"] == "veto":
            st.hands[seat].remove(VETO)
            st.discard.append(VETO)
            st.stack.pop()
            st.stack[-1]["vetoed"] = True
            events.append(played_event(seat, VETO, {}))
            events.append(
                Event(
                    "law_vetoed",
                    {"seat": seat, "card": law_id(st.stack[-1]["card"]), "played_by": st.stack[-1]["seat"]},
                )
            )
            return
        play(st, seat, choice, events)
        return
    st.stack.pop()


frame_type("win", _window_step, joint=_window_answer)


# -- effects -------------------------------------------------------------------------------
def _find(st: State, kind: str) -> Frame | None:
    for fr in reversed(st.stack):
        if fr["t"] == kind:
            return fr
    return None


def _effect_step(st: State, fr: Frame, events: list[Event]) -> Pending | None:
    st.stack.pop()
    if not fr["vetoed"]:
        resolve(st, fr["seat"], fr["card"], fr["args"], events)
    return None


frame_type("eff", _effect_step)


def resolve(st: State, seat: int, card: int, a: dict[str, object], events: list[Event]) -> None:
    fx = st.fx
    if card == 1:
        fx.work_order = seat
    elif card in (2, 3):
        tile = TILE_INDEX[str(a["tile"])] if "tile" in a else -1
        buy = _find(st, "buy")
        if card == 2:
            assert buy is not None
            tile = buy["tile"]
            buy["raised"] = True
        st.discard.remove(card)
        st.mods.setdefault(tile, [0, 0])[card - 2] += 1
    elif card == 4:
        st.house[seat][int(str(a["number"])) - 1] = True
    elif card == 6:
        fx.renumber[seat] = [int(str(a["number"])), len(st.markers)]
    elif card == 7:
        take, give = COLOUR_INDEX[str(a["take"])], COLOUR_INDEX[str(a["give"])]
        st.take_from_store(seat, take)
        st.pay_to_store(seat, give)
    elif card == 8:
        fx.harvest_choice[seat] = FIELD_INDEX[str(a["field"])]
    elif card == 9:
        fx.right_of_way.append(seat)
    elif card == 11:
        slot = (int(str(a["gx"])), int(str(a["gy"])), int(str(a["fx"])), int(str(a["fy"])))
        del st.fences[slot]
        events.append(Event("fence_removed", {"gx": slot[0], "gy": slot[1], "fx": slot[2], "fy": slot[3]}))
        replace_off_board(st)
    elif card == 12:
        fx.restriction = seat
    elif card == 13:
        tile = TILE_INDEX[str(a["tile"])]
        market.swap_tile(st, tile, events)
        buy = _find(st, "buy")
        if buy is not None and buy["tile"] == tile:
            buy["stopped"] = True
    elif card == 14:
        fx.hard_worker[seat] = [int(str(a["x"])), int(str(a["y"]))]
    elif card == 17:
        st.house[int(str(a["target_seat"]))][int(str(a["number"])) - 1] = False
    elif card == 18:
        fx.bumper = FIELD_INDEX[str(a["field"])]
    elif card == 19:
        fx.blight = FIELD_INDEX[str(a["field"])]
    elif card == 20:
        effects.name_start_player(st, seat, int(str(a["target_seat"])), events)


def replace_off_board(st: State) -> None:
    """Fenced-out cottages waiting for a spot get one as soon as a spot exists."""
    if st.off_board and board.replacement_gaps(st):
        for seat, number in reversed(st.off_board):
            push(st, {"t": "replace", "seat": seat, "number": number})
