"""The engine object: the GameEngine interface over the state, the round machine and scoring."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.engine import JSON, Decision, Event, GameMeta, OptionSpec, Outcome, reveal_event
from domain.errors import InvalidOptions

from . import actions, building, flow
from .bot import BurgSearchHooks
from .choices import worker_options
from .data import (
    ALL_CARDS_MASK,
    BUILDING_INDEX,
    BUILDING_TYPES,
    CARDS,
    FORGE_START,
    KIND_INDEX,
    PLAYER_COUNTS,
    RESOURCE_TOTAL,
    SPACES,
    START_RESOURCES,
    START_THALERS,
    THALERS_TOTAL,
    TILE_TYPE,
    TOWER_START,
    WINTER_CARDS,
)
from .invariants import check_invariants
from .scoring import outcome as final_outcome
from .state import BOARD, NOBODY, RESOLVE, REVEAL, State, dump_state, load_state
from .view import view_state

Choice = dict[str, Any]

_PROMPTS = {
    "pick_cards": "Choose your character card(s) for this round",
    "damsel_bid": "Damsel: bid thalers in secret",
    "firewood": "Firewood: return 1 wood or pay 2 thalers",
    "worker_resources": "Worker III: choose the two extra resources for the card",
    "trader": "Trader: place a helper on a cart or the rider, or pass",
    "watchtower": "Bricklayer: take all pieces of one kind from the watchtower",
    "stonemason_buy": "Stonemason: buy a piece from a Worker card, or finish",
    "build": "Choose a building to erect (then its payment), or finish building",
    "build_payment": "Pay the building exactly (cheapest payment first), or go back",
    "place_helpers": "Place a helper in the castle, or finish",
}

META = GameMeta(
    slug="im-schutze-der-burg",
    name="Im Schutze der Burg",
    min_players=2,
    max_players=4,
    description=(
        "Inka & Markus Brand's castle-building game (eggertspiele 2008): choose character "
        "cards in secret, gather resources, build the castle and place helpers that score "
        "at the end."
    ),
    options=(
        OptionSpec(
            name="winter",
            kind="bool",
            default=False,
            verified=False,
            description=(
                "The Castle in Winter: winter cards come up in marked rounds. The card texts "
                "are reconstructed placeholders, not the published ones."
            ),
        ),
    ),
)


class SchutzeDerBurgEngine:
    """Im Schutze der Burg (A Castle for All Seasons)."""

    meta: GameMeta = META
    search_hooks: BurgSearchHooks = BurgSearchHooks()

    def setup(
        self, players: int, options: Mapping[str, JSON], rng: random.Random
    ) -> tuple[State, list[Event]]:
        if players not in PLAYER_COUNTS:
            raise InvalidOptions(f"Im Schutze der Burg needs 2 to 4 players, got {players}")
        count = PLAYER_COUNTS[players]
        winter = bool(options.get("winter", False))
        deck = [card.id for card in WINTER_CARDS]
        if winter:
            rng.shuffle(deck)
        start = rng.randrange(players)
        supply = [RESOURCE_TOTAL[k] - TOWER_START[k] - players * START_RESOURCES[k] for k in range(5)]
        supply[4] -= FORGE_START
        s = State(
            n=players,
            winter=winter,
            rounds=count.rounds,
            round=1,
            start=start,
            track=count.rounds,
            bank=THALERS_TOTAL - count.rounds - players * START_THALERS,
            supply=supply,
            tower=list(TOWER_START),
            forge=FORGE_START,
            thalers=[START_THALERS] * players,
            res=[list(START_RESOURCES) for _ in range(players)],
            vp=[0] * players,
            helpers=[count.helpers] * players,
            hand=[ALL_CARDS_MASK] * players,
            posts=[NOBODY] * 5,
            posts_new=[False] * 5,
            built=[BOARD if _prebuilt(t) else NOBODY for t in range(len(TILE_TYPE))],
            spaces=[NOBODY] * len(SPACES),
            guests=[0] * players,
            winter_deck=deck if winter else [],
            winter_seen=[],
            guest_house=False,
        )
        events = [
            Event(
                "game_setup",
                {"players": players, "rounds": count.rounds, "winter": winter, "start": start},
            )
        ]
        flow.advance(s, events)
        return s, events

    def decision(self, state: State) -> Decision | None:
        if state.over:
            return None
        memo = state.memo
        if memo is not None:
            assert isinstance(memo, Decision)
            return memo
        kind = state.pending
        data: dict[str, JSON] = {"round": state.round}
        if kind == "pick_cards":
            data["cards_to_choose"] = PLAYER_COUNTS[state.n].picks
        if state.phase == RESOLVE:
            card = state.queue[state.qi][1]
            data["card"] = CARDS[card].id
            data["built"] = state.act_built
            data["placed"] = state.act_placed
            if kind == "build_payment":
                seat = state.pending_seats[0]
                first = self.legal_choices(state, seat)[0]
                data.update(building.payment_data(state, seat, card, first))
        memo = Decision(
            seats=tuple(state.pending_seats),
            kind=kind,
            prompt=_PROMPTS[kind],
            simultaneous=kind in ("pick_cards", "damsel_bid"),
            data=data,
        )
        state.memo = memo
        return memo

    def legal_choices(self, state: State, seat: int) -> list[Choice]:
        if state.over or seat not in state.pending_seats:
            return []
        if state.cache is None:
            pending, seats = state.pending, state.pending_seats
            flow.advance(state, [])
            assert state.pending == pending and state.pending_seats == seats
        assert state.cache is not None
        return list(state.cache.get(seat, []))

    def apply(self, state: State, choices: Mapping[int, Choice]) -> list[Event]:
        ev: list[Event] = []
        kind = state.pending
        if kind == "pick_cards":
            chosen = flow.forced_picks(state)
            chosen.update(choices)
            flow.after_picks(state, ev, chosen)
        elif kind == "damsel_bid":
            bids = {seat: 0 for seat in range(state.n)}
            bids.update({seat: int(c["bid"]) for seat, c in choices.items()})
            ev.append(reveal_event({seat: {"bid": b} for seat, b in bids.items()}, what="bids"))
            actions.damsel(state, ev, bids)
            state.phase = REVEAL
        else:
            seat = state.pending_seats[0]
            self._apply_turn(state, ev, kind, seat, choices[seat])
        flow.advance(state, ev)
        return ev

    def _apply_turn(self, s: State, ev: list[Event], kind: str, seat: int, choice: Choice) -> None:
        action = choice.get("action")
        if kind == "build":
            if action == "done":
                flow.finish_build(s, ev)
            else:
                building.choose_building(s, BUILDING_INDEX[choice["building"]])
                ev.append(Event("building_chosen", {"seat": seat, "building": choice["building"]}))
        elif kind == "build_payment":
            chosen = BUILDING_TYPES[s.act_building].id
            if action == "pay":
                flow.pay_for_building(s, ev, seat, choice)
            elif action == "fix":
                building.fix_count(s, KIND_INDEX[choice["resource"]], int(choice["count"]))
                narrowed = {"resource": choice["resource"], "count": choice["count"]}
                ev.append(Event("payment_narrowed", {"seat": seat, "building": chosen, **narrowed}))
            else:
                building.clear_building(s)
                ev.append(Event("building_unchosen", {"seat": seat, "building": chosen}))
        elif kind == "place_helpers":
            if action == "done":
                flow.next_item(s, ev)
            else:
                actions.place_helper(s, ev, seat, choice)
        elif kind == "stonemason_buy":
            if action == "done":
                s.sub = 1
            else:
                actions.buy(s, ev, seat, choice)
        elif kind == "watchtower":
            actions.take_from_tower(s, ev, seat, choice)
            s.sub = 1
        elif kind == "trader":
            actions.trader(s, ev, seat, choice)
            flow.next_item(s, ev)
        elif kind == "worker_resources":
            card = s.workers[s.cursor][1]
            got = next(g for req, g in worker_options(s, card) if req == choice["resources"])
            actions.equip_worker(s, ev, s.cursor, got)
            s.cursor += 1
        elif kind == "firewood":
            actions.firewood(s, ev, seat, choice["pay"])
            s.cursor += 1

    def view(self, state: State, viewer: int | None) -> dict[str, JSON]:
        return view_state(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return final_outcome(state)

    def dump(self, state: State) -> dict[str, JSON]:
        return dump_state(state)

    def load(self, data: Mapping[str, JSON]) -> State:
        return load_state(data)

    def check_invariants(self, state: State) -> list[str]:
        """Broken invariants (conservation, no negatives, board and cards), empty when sound."""
        return check_invariants(state)


def _prebuilt(tile: int) -> bool:
    return BUILDING_TYPES[TILE_TYPE[tile]].prebuilt
