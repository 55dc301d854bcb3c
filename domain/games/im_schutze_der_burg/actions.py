"""Card effects and winter effects: the state changes, each with its public event."""

from __future__ import annotations

from typing import Any

from domain.engine import Event

from .data import (
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
from .state import DAMSEL, FIREWOOD, NOBODY, State

Choice = dict[str, Any]
GUEST = -1  # marker in round_tiles for the winter Guest House


def reset_action(s: State) -> None:
    s.act_built = 0
    s.act_placed = 0
    s.act_bought = []
    s.act_building = -1
    s.act_fixed = []


def _pay_out(s: State, seat: int, amount: int) -> int:
    """Pay up to ``amount`` thalers from the bank; the bank never goes negative."""
    paid = amount if amount <= s.bank else s.bank
    s.bank -= paid
    s.thalers[seat] += paid
    return paid


def messenger(s: State, ev: list[Event], seat: int) -> None:
    amount = MESSENGER_THALERS
    if "messenger_thalers" in s.round_flags:
        amount = WINTER_BY_ID["snowed_in"].params["thalers"]
    paid = _pay_out(s, seat, amount)
    ev.append(Event("messenger", {"seat": seat, "thalers": paid}))


# ----------------------------------------------------------------------------- trader


def trader(s: State, ev: list[Event], seat: int, choice: Choice) -> None:
    action = choice["action"]
    if action == "pass":
        ev.append(Event("trader_passed", {"seat": seat}))
        return
    k = KIND_INDEX[choice["post"]]
    data: dict[str, Any] = {"seat": seat, "post": choice["post"]}
    if action == "displace":
        victim = s.posts[k]
        s.helpers[victim] += 1
        data["displaced"] = victim
    s.posts[k] = seat
    s.posts_new[k] = True
    s.helpers[seat] -= 1
    ev.append(Event("trader_placed", data))


def production(s: State, ev: list[Event]) -> None:
    """Every helper on a cart or the rider yields to its owner, who pays 1 of each as tribute."""
    if "no_production" in s.round_flags:
        ev.append(Event("production", {"frozen": True, "yields": []}))
        return
    yields = []
    for k in range(5):
        owner = s.posts[k]
        if owner == NOBODY:
            continue
        got = YIELD[k] if YIELD[k] <= s.supply[k] else s.supply[k]
        s.supply[k] -= got
        tribute = TRIBUTE if got >= TRIBUTE else got
        s.res[owner][k] += got - tribute
        s.tower[k] += tribute
        yields.append({"seat": owner, "resource": KINDS[k], "received": got, "tribute": tribute})
    ev.append(Event("production", {"frozen": False, "yields": yields}))


# ----------------------------------------------------------------------------- building


def take_from_tower(s: State, ev: list[Event], seat: int, choice: Choice) -> None:
    if choice["action"] == "skip":
        ev.append(Event("watchtower_skipped", {"seat": seat}))
        return
    k = KIND_INDEX[choice["resource"]]
    got = s.tower[k]
    s.tower[k] = 0
    s.res[seat][k] += got
    ev.append(Event("watchtower_taken", {"seat": seat, "resource": KINDS[k], "count": got}))


def build(s: State, ev: list[Event], seat: int, card: int, building: int, choice: Choice) -> None:
    """Erect one tile of type ``building`` with the pieces of a ``pay`` choice."""
    btype = BUILDING_TYPES[building]
    tile = next(t for t in btype.tiles if s.built[t] == NOBODY)
    pay = tuple(int(choice[kind]) for kind in KINDS)
    held = s.res[seat]
    for k in range(4):
        held[k] -= pay[k]
        s.supply[k] += pay[k]
    held[SILVER] -= pay[SILVER]
    s.forge += pay[SILVER]
    s.built[tile] = seat
    s.round_builds.append(seat)
    s.act_built += 1
    data: dict[str, Any] = {
        "seat": seat,
        "card": CARDS[card].id,
        "building": btype.id,
        "tile": tile,
        "paid": dict(zip(KINDS, pay, strict=True)),
    }
    if card == BRICKLAYER:
        data["thalers"] = _pay_out(s, seat, sum(pay) * BRICKLAYER_PER_PIECE)
    else:
        points = btype.vp if card == STONEMASON else btype.vp // 2
        s.vp[seat] += points
        data["vp"] = points
    ev.append(Event("built", data))


def place_helper(s: State, ev: list[Event], seat: int, choice: Choice) -> None:
    src = choice["from"]
    if src == "supply":
        s.helpers[seat] -= 1
    else:
        k = KIND_INDEX[src]
        s.posts[k] = NOBODY
        s.posts_new[k] = False
    space = choice["space"]
    if not s.round_tiles:  # a game stored before the per-round limit was tracked
        s.round_tiles = [[] for _ in range(s.n)]
    if space == "guest_house":
        fee = WINTER_BY_ID["guest_house"].params["fee"]
        s.guests[seat] += 1
        s.round_tiles[seat].append(GUEST)
    else:
        index = SPACE_INDEX[space]
        fee = SPACES[index].fee
        s.spaces[index] = seat
        s.round_tiles[seat].append(TILE_OF_SPACE[index])
    s.thalers[seat] -= fee
    s.bank += fee
    s.act_placed += 1
    ev.append(Event("helper_placed", {"seat": seat, "space": space, "from": src, "fee": fee}))


def buy(s: State, ev: list[Event], seat: int, choice: Choice) -> None:
    owner = choice["seat"]
    card = CARD_INDEX[choice["card"]]
    k = KIND_INDEX[choice["resource"]]
    index = next(i for i, e in enumerate(s.workers) if e[0] == owner and e[1] == card)
    s.workers[index][2 + k] -= 1
    s.res[seat][k] += 1
    s.thalers[seat] -= STONEMASON_PRICE
    s.thalers[owner] += STONEMASON_PRICE
    s.act_bought.append(index)
    ev.append(
        Event(
            "stonemason_bought",
            {"seat": seat, "from": owner, "card": choice["card"], "resource": KINDS[k]},
        )
    )


# ----------------------------------------------------------------------------- workers


def equip_worker(s: State, ev: list[Event], index: int, chosen: list[int]) -> None:
    """Put a revealed Worker card's pieces on it from the stock (fewer if the stock is short)."""
    entry = s.workers[index]
    fixed = CARDS[entry[1]].fixed
    for k in range(5):
        want = fixed[k]
        got = want if want <= s.supply[k] else s.supply[k]
        s.supply[k] -= got
        entry[2 + k] += got
    for k in range(5):
        if chosen[k]:
            s.supply[k] -= chosen[k]
            entry[2 + k] += chosen[k]
    ev.append(
        Event(
            "worker_equipped",
            {
                "seat": entry[0],
                "card": CARDS[entry[1]].id,
                "pieces": dict(zip(KINDS, entry[2:], strict=True)),
            },
        )
    )


def collect_worker(s: State, ev: list[Event], seat: int, card: int) -> None:
    entry = next(e for e in s.workers if e[0] == seat and e[1] == card)
    held = s.res[seat]
    for k in range(5):
        held[k] += entry[2 + k]
        entry[2 + k] = 0
    ev.append(Event("worker_collected", {"seat": seat, "card": CARDS[card].id}))


def master_builder(s: State, ev: list[Event], seat: int) -> None:
    """All played cards return to hand; 5 VP per building erected this round by others."""
    s.hand[seat] = ALL_CARDS_MASK
    others = sum(1 for builder in s.round_builds if builder != seat)
    points = others * MASTER_BUILDER_VP
    s.vp[seat] += points
    ev.append(Event("master_builder", {"seat": seat, "buildings": others, "vp": points}))


# ----------------------------------------------------------------------------- winter


def winter_effect(s: State, ev: list[Event], card_id: str) -> None:
    card = WINTER_BY_ID[card_id]
    effect = card.effect
    if effect == "guest_house":
        s.guest_house = True
    elif effect in ("no_production", "messenger_thalers"):
        s.round_flags.append(effect)
    elif effect == "bank_gift":
        paid = []
        for i in range(s.n):
            seat = (s.start + i) % s.n
            paid.append(_pay_out(s, seat, card.params["thalers"]))
        ev.append(Event("winter_market", {"paid": {str((s.start + i) % s.n): p for i, p in enumerate(paid)}}))
    elif effect == "firewood":
        s.phase = FIREWOOD
        s.cursor = 0
    elif effect == "damsel":
        s.phase = DAMSEL


def firewood(s: State, ev: list[Event], seat: int, pay: str) -> None:
    params = WINTER_BY_ID["firewood"].params
    if pay == "wood":
        s.res[seat][1] -= params["wood"]
        s.supply[1] += params["wood"]
    else:
        s.thalers[seat] -= params["thalers"]
        s.bank += params["thalers"]
    ev.append(Event("firewood", {"seat": seat, "paid": pay}))


def damsel(s: State, ev: list[Event], bids: dict[int, int]) -> None:
    top = max(bids.values())
    leaders = [seat for seat, bid in bids.items() if bid == top]
    winner = leaders[0] if len(leaders) == 1 else None
    points = 0
    if winner is not None:
        points = WINTER_BY_ID["damsel"].params["vp"]
        s.thalers[winner] -= top
        s.bank += top
        s.vp[winner] += points
    ev.append(
        Event(
            "damsel",
            {
                "bids": {str(seat): bids[seat] for seat in sorted(bids)},
                "winner": winner,
                "vp": points,
            },
        )
    )
