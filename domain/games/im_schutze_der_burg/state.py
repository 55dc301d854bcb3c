"""The mutable game state and its exact JSON round trip."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from domain.engine import Choice, Decision

# Phases of the round machine.
ROUND_START = "round_start"
PICK = "pick"
FIREWOOD = "firewood"
DAMSEL = "damsel"
REVEAL = "reveal"
EQUIP = "equip"
RESOLVE = "resolve"
OVER = "over"

NOBODY = -1
BOARD = -2  # builder of a pre-built building (Market, Forge)
NO_BUILDING = -1  # in ``act_building``: no building chosen
GUEST_HOUSE = -1  # in ``round_tiles``: the winter Guest House


@dataclass(slots=True)
class State:
    """All of a game. Lists of ints throughout; seats are indices."""

    n: int
    winter: bool
    rounds: int
    round: int
    start: int
    track: int
    bank: int
    supply: list[int]  # carts (sand..stone) and rider (silver): the general stock
    tower: list[int]
    forge: int
    thalers: list[int]
    res: list[list[int]]
    vp: list[int]
    helpers: list[int]  # personal supply
    hand: list[int]  # bitmask of cards in hand
    posts: list[int]  # owner of the helper on each cart / the rider, or NOBODY
    posts_new: list[bool]  # placed this round (cannot be displaced)
    built: list[int]  # per tile: builder seat, NOBODY, or BOARD
    spaces: list[int]  # per castle helper space: owner or NOBODY
    guests: list[int]  # guests on the winter Guest House, per seat
    winter_deck: list[str]
    winter_seen: list[str]
    guest_house: bool
    phase: str = ROUND_START
    picks: list[list[int]] = field(default_factory=list)  # secret until revealed
    revealed: bool = False
    round_flags: list[str] = field(default_factory=list)  # winter effects of this round
    workers: list[list[int]] = field(default_factory=list)  # [seat, card, s, w, c, st, ag]
    queue: list[list[int]] = field(default_factory=list)  # [seat, card] in resolution order
    qi: int = 0
    sub: int = 0
    cursor: int = 0  # index used by equip / firewood loops
    act_built: int = 0
    act_placed: int = 0
    act_bought: list[int] = field(default_factory=list)  # worker entries bought from
    act_building: int = NO_BUILDING  # building type chosen, its payment still to choose
    act_fixed: list[int] = field(default_factory=list)  # pieces per kind fixed (-1 free), or []
    # Per seat: tiles (or GUEST_HOUSE) that got one of its helpers this round.
    round_tiles: list[list[int]] = field(default_factory=list)
    round_builds: list[int] = field(default_factory=list)  # builder seat per building
    pending: str = ""
    pending_seats: list[int] = field(default_factory=list)
    over: bool = False
    # Transient, never dumped: legal choices computed by the round machine.
    cache: dict[int, list[Choice]] | None = None
    memo: Decision | None = None  # the current decision, built once


_FIELDS = tuple(f for f in State.__slots__ if f not in ("cache", "memo"))
_DEFAULTED = frozenset(
    f.name for f in fields(State) if f.default is not MISSING or f.default_factory is not MISSING
)


def dump_state(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _FIELDS:
        value = getattr(state, name)
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        out[name] = value
    return out


def load_state(data: Mapping[str, Any]) -> State:
    """Rebuild a state; a field added after a game was stored starts at its default."""
    kwargs: dict[str, Any] = {}
    for name in _FIELDS:
        if name not in data and name in _DEFAULTED:
            continue
        value = data[name]
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        kwargs[name] = value
    return State(**kwargs)


def copy_state(state: State) -> State:
    """An independent copy, as ``load_state(dump_state(state))`` gives, without the dict between.

    Field by field, written out: the search copies a state for every choice it tries, and a loop
    over the fields with ``getattr``/``setattr`` cost it a quarter of its time. Lists of lists are
    copied two deep; every other list holds ints, bools or strings. The copy test fails on a
    field left out here (its round trip reads every field)."""
    new = State.__new__(State)
    new.n = state.n
    new.winter = state.winter
    new.rounds = state.rounds
    new.round = state.round
    new.start = state.start
    new.track = state.track
    new.bank = state.bank
    new.supply = state.supply[:]
    new.tower = state.tower[:]
    new.forge = state.forge
    new.thalers = state.thalers[:]
    new.res = [v[:] for v in state.res]
    new.vp = state.vp[:]
    new.helpers = state.helpers[:]
    new.hand = state.hand[:]
    new.posts = state.posts[:]
    new.posts_new = state.posts_new[:]
    new.built = state.built[:]
    new.spaces = state.spaces[:]
    new.guests = state.guests[:]
    new.winter_deck = state.winter_deck[:]
    new.winter_seen = state.winter_seen[:]
    new.guest_house = state.guest_house
    new.phase = state.phase
    new.picks = [v[:] for v in state.picks]
    new.revealed = state.revealed
    new.round_flags = state.round_flags[:]
    new.workers = [v[:] for v in state.workers]
    new.queue = [v[:] for v in state.queue]
    new.qi = state.qi
    new.sub = state.sub
    new.cursor = state.cursor
    new.act_built = state.act_built
    new.act_placed = state.act_placed
    new.act_bought = state.act_bought[:]
    new.act_building = state.act_building
    new.act_fixed = state.act_fixed[:]
    new.round_tiles = [v[:] for v in state.round_tiles]
    new.round_builds = state.round_builds[:]
    new.pending = state.pending
    new.pending_seats = state.pending_seats[:]
    new.over = state.over
    new.cache = None
    new.memo = None
    return new
