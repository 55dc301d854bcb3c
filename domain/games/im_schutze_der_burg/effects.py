"""Card effects and winter effects: the state changes, each with its public event."""

from __future__ import annotations

from typing import Any

from domain.engine import JSON, Choice, Event
from domain.games.im_schutze_der_burg.data import (
    ALL_CARDS_MASK,
    BRICKLAYER,
    BRICKLAYER_PER_PIECE,
    BUILDING_TYPES,
    CARD_INDEX,
    CARDS,
    KIND_INDEX,
    KINDS,
    MASTER_BUILDER_VP,
    MESSENGER_THALERS,
    SILVER,
    SPACE_INDEX,
    SPACES,
    STONEMASON,
    STONEMASON_PRICE,
    TILE_OF_SPACE,
    TRIBUTE,
    WINTER_BY_ID,
    YIELD,
)
from domain.games.im_schutze_der_burg.state import DAMSEL, FIREWOOD, GUEST_HOUSE, NO_BUILDING, NOBODY, State


def reset_action(st: State) -> None:
    st.act_built = 0
    st.act_placed = 0
    st.act_bought = []
    st.act_building = NO_BUILDING
    st.act_fixed = []


def _pay_out(st: State, seat: int, amount: int) -> int:
    """Pay up to ``amount`` thalers from the bank; the bank never goes negative."""
    paid = amount if amount <= st.bank else st.bank
    st.bank -= paid
    st.thalers[seat] += paid
    return paid


def messenger(st: State, events: list[Event], seat: int) -> None:
    amount = MESSENGER_THALERS
    if "messenger_thalers" in st.round_flags:
        amount = WINTER_BY_ID["snowed_in"].params["thalers"]
    paid = _pay_out(st, seat, amount)
    events.append(Event("messenger", {"seat": seat, "thalers": paid}))


# ----------------------------------------------------------------------------- trader


def trader(st: State, events: list[Event], seat: int, choice: Choice) -> None:
    action = choice["action"]
    if action == "pass":
        events.append(Event("trader_passed", {"seat": seat}))
        return
    k = KIND_INDEX[choice["post"]]
    data: dict[str, Any] = {"seat": seat, "post": choice["post"]}
    if action == "displace":
        victim = st.posts[k]
        st.helpers[victim] += 1
        data["displaced"] = victim
    st.posts[k] = seat
    st.posts_new[k] = True
    st.helpers[seat] -= 1
    events.append(Event("trader_placed", data))


def production(st: State, events: list[Event]) -> None:
    """Every helper on a cart or the rider yields to its owner, who pays 1 of each as tribute."""
    if "no_production" in st.round_flags:
        events.append(Event("production", {"frozen": True, "yields": []}))
        return
    yields: list[JSON] = []
    for k in range(5):
        owner = st.posts[k]
        if owner == NOBODY:
            continue
        got = YIELD[k] if YIELD[k] <= st.supply[k] else st.supply[k]
        st.supply[k] -= got
        tribute = TRIBUTE if got >= TRIBUTE else got
        st.res[owner][k] += got - tribute
        st.tower[k] += tribute
        yields.append({"seat": owner, "resource": KINDS[k], "received": got, "tribute": tribute})
    events.append(Event("production", {"frozen": False, "yields": yields}))


# ----------------------------------------------------------------------------- building


def take_from_tower(st: State, events: list[Event], seat: int, choice: Choice) -> None:
    if choice["action"] == "skip":
        events.append(Event("watchtower_skipped", {"seat": seat}))
        return
    k = KIND_INDEX[choice["resource"]]
    got = st.tower[k]
    st.tower[k] = 0
    st.res[seat][k] += got
    events.append(Event("watchtower_taken", {"seat": seat, "resource": KINDS[k], "count": got}))


def build(st: State, events: list[Event], seat: int, card: int, building: int, choice: Choice) -> None:
    """Erect one tile of type ``building`` with the pieces of a ``pay`` choice."""
    btype = BUILDING_TYPES[building]
    tile = next(t for t in btype.tiles if st.built[t] == NOBODY)
    pay = tuple(int(choice[kind]) for kind in KINDS)
    held = st.res[seat]
    for k in range(4):
        held[k] -= pay[k]
        st.supply[k] += pay[k]
    held[SILVER] -= pay[SILVER]
    st.forge += pay[SILVER]
    st.built[tile] = seat
    st.round_builds.append(seat)
    st.act_built += 1
    data: dict[str, Any] = {
        "seat": seat,
        "card": CARDS[card].id,
        "building": btype.id,
        "tile": tile,
        "paid": dict(zip(KINDS, pay, strict=True)),
    }
    if card == BRICKLAYER:
        data["thalers"] = _pay_out(st, seat, sum(pay) * BRICKLAYER_PER_PIECE)
    else:
        points = btype.vp if card == STONEMASON else btype.vp // 2
        st.vp[seat] += points
        data["vp"] = points
    events.append(Event("built", data))


def place_helper(st: State, events: list[Event], seat: int, choice: Choice) -> None:
    src = choice["from"]
    if src == "supply":
        st.helpers[seat] -= 1
    else:
        k = KIND_INDEX[src]
        st.posts[k] = NOBODY
        st.posts_new[k] = False
    space = choice["space"]
    if not st.round_tiles:  # a game stored before the per-round limit was tracked
        st.round_tiles = [[] for _ in range(st.n)]
    if space == "guest_house":
        fee = WINTER_BY_ID["guest_house"].params["fee"]
        st.guests[seat] += 1
        st.round_tiles[seat].append(GUEST_HOUSE)
    else:
        index = SPACE_INDEX[space]
        fee = SPACES[index].fee
        st.spaces[index] = seat
        st.round_tiles[seat].append(TILE_OF_SPACE[index])
    st.thalers[seat] -= fee
    st.bank += fee
    st.act_placed += 1
    events.append(Event("helper_placed", {"seat": seat, "space": space, "from": src, "fee": fee}))


def buy(st: State, events: list[Event], seat: int, choice: Choice) -> None:
    owner = choice["seat"]
    card = CARD_INDEX[choice["card"]]
    k = KIND_INDEX[choice["resource"]]
    index = next(i for i, e in enumerate(st.workers) if e[0] == owner and e[1] == card)
    st.workers[index][2 + k] -= 1
    st.res[seat][k] += 1
    st.thalers[seat] -= STONEMASON_PRICE
    st.thalers[owner] += STONEMASON_PRICE
    st.act_bought.append(index)
    events.append(
        Event(
            "stonemason_bought",
            {"seat": seat, "from": owner, "card": choice["card"], "resource": KINDS[k]},
        )
    )


# ----------------------------------------------------------------------------- workers


def equip_worker(st: State, events: list[Event], index: int, chosen: list[int]) -> None:
    """Put a revealed Worker card's pieces on it from the stock (fewer if the stock is short)."""
    entry = st.workers[index]
    fixed = CARDS[entry[1]].fixed
    for k in range(5):
        want = fixed[k]
        got = want if want <= st.supply[k] else st.supply[k]
        st.supply[k] -= got
        entry[2 + k] += got
    for k in range(5):
        if chosen[k]:
            st.supply[k] -= chosen[k]
            entry[2 + k] += chosen[k]
    events.append(
        Event(
            "worker_equipped",
            {
                "seat": entry[0],
                "card": CARDS[entry[1]].id,
                "pieces": dict(zip(KINDS, entry[2:], strict=True)),
            },
        )
    )


def collect_worker(st: State, events: list[Event], seat: int, card: int) -> None:
    entry = next(e for e in st.workers if e[0] == seat and e[1] == card)
    held = st.res[seat]
    for k in range(5):
        held[k] += entry[2 + k]
        entry[2 + k] = 0
    events.append(Event("worker_collected", {"seat": seat, "card": CARDS[card].id}))


def master_builder(st: State, events: list[Event], seat: int) -> None:
    """All played cards return to hand; 5 VP per building erected this round by others."""
    st.hand[seat] = ALL_CARDS_MASK
    others = sum(1 for builder in st.round_builds if builder != seat)
    points = others * MASTER_BUILDER_VP
    st.vp[seat] += points
    events.append(Event("master_builder", {"seat": seat, "buildings": others, "vp": points}))


# ----------------------------------------------------------------------------- winter


def winter_effect(st: State, events: list[Event], card_id: str) -> None:
    card = WINTER_BY_ID[card_id]
    effect = card.effect
    if effect == "guest_house":
        st.guest_house = True
    elif effect in ("no_production", "messenger_thalers"):
        st.round_flags.append(effect)
    elif effect == "bank_gift":
        paid = []
        for i in range(st.n):
            seat = (st.start + i) % st.n
            paid.append(_pay_out(st, seat, card.params["thalers"]))
        events.append(
            Event("winter_market", {"paid": {str((st.start + i) % st.n): p for i, p in enumerate(paid)}})
        )
    elif effect == "firewood":
        st.phase = FIREWOOD
        st.cursor = 0
    elif effect == "damsel":
        st.phase = DAMSEL


def firewood(st: State, events: list[Event], seat: int, pay: str) -> None:
    params = WINTER_BY_ID["firewood"].params
    if pay == "wood":
        st.res[seat][1] -= params["wood"]
        st.supply[1] += params["wood"]
    else:
        st.thalers[seat] -= params["thalers"]
        st.bank += params["thalers"]
    events.append(Event("firewood", {"seat": seat, "paid": pay}))


def damsel(st: State, events: list[Event], bids: dict[int, int]) -> None:
    top = max(bids.values())
    leaders = [seat for seat, bid in bids.items() if bid == top]
    winner = leaders[0] if len(leaders) == 1 else None
    points = 0
    if winner is not None:
        points = WINTER_BY_ID["damsel"].params["vp"]
        st.thalers[winner] -= top
        st.bank += top
        st.vp[winner] += points
    events.append(
        Event(
            "damsel",
            {
                "bids": {str(seat): bids[seat] for seat in sorted(bids)},
                "winner": winner,
                "vp": points,
            },
        )
    )
