"""The winter option: when cards come up, their reveal order, and each placeholder card."""

from __future__ import annotations

import random

from domain.games.im_schutze_der_burg import ENGINE
from domain.games.im_schutze_der_burg.data import winter_rounds
from domain.games.im_schutze_der_burg.state import State
from tests.support.json_values import untyped

from .support import E, act, build_choice, kind, new_game, pick, set_res, set_thalers


def _winter_round(card: str, players: int = 4) -> State:
    """A game at the picks of round 2 (a winter round) with ``card`` on top of the deck."""
    s = new_game(players, winter=True)
    if players == 2:
        pick(s, p0=("messenger", "trader"), p1=("messenger", "trader"))
        act(s, {"action": "pass"}, "trader")
        act(s, {"action": "pass"}, "trader")
    else:
        pick(s, **{f"p{i}": "messenger" for i in range(players)})
    assert s.round == 2
    s.hand = [(1 << 8) - 1] * players  # every card available again, for short scenarios
    s.winter_deck.remove(card)
    s.winter_deck.insert(0, card)
    return s


def test_winter_option_is_listed_as_unverified_bool() -> None:
    (spec,) = ENGINE.meta.options
    assert (spec.name, spec.kind, spec.default, spec.verified) == ("winter", "bool", False, False)
    assert (ENGINE.meta.min_players, ENGINE.meta.max_players) == (2, 4)


def test_winter_cards_come_up_in_the_marked_rounds_counted_from_the_end() -> None:
    assert winter_rounds(12) == (2, 4, 7, 9)
    assert winter_rounds(15) == (2, 3, 5, 7, 10, 12)
    s, _ = E.setup(4, {"winter": True}, random.Random(0))
    assert sorted(s.winter_deck) == sorted(
        ["guest_house", "damsel", "frost", "snowed_in", "firewood", "winter_market"]
    )


def test_winter_card_is_revealed_just_before_the_character_cards() -> None:
    s = _winter_round("winter_market")
    events = pick(s, p0="messenger", p1="trader", p2="messenger", p3="messenger")
    types = [e.type for e in events]
    assert types.index("winter_card") == types.index("reveal") - 2  # winter_market paid
    assert types[:2] == ["winter_card", "winter_market"]
    assert s.winter_seen == ["winter_market"]


def test_winter_market_pays_two_thalers_each_in_player_order_while_the_bank_lasts() -> None:
    s = _winter_round("winter_market")
    set_thalers(s, 0, s.thalers[0] + s.bank - 3)  # 3 thalers left in the bank
    before = list(s.thalers)
    events = pick(s, p0="messenger", p1="messenger", p2="messenger", p3="messenger")
    gift = next(e for e in events if e.type == "winter_market")
    assert gift.data["paid"] == {"1": 2, "2": 1, "3": 0, "0": 0}
    gains = [a - b for a, b in zip(s.thalers, before, strict=True)]
    assert gains == [0, 2, 1 + 1, 0]  # the bank ran dry; seat 2 starts round 3


def test_frost_stops_production_but_traders_still_place() -> None:
    s = _winter_round("frost")
    pick(s, p0="messenger", p1="trader", p2="messenger", p3="messenger")
    act(s, {"action": "place", "post": "sand"}, "trader")
    assert s.posts[0] == 1 and s.res[1][0] == 1 and s.tower[0] == 1


def test_snowed_in_roads_pay_messengers_four_thalers() -> None:
    s = _winter_round("snowed_in")
    before = list(s.thalers)
    pick(s, p0="messenger", p1="messenger", p2="messenger", p3="messenger")
    assert [a - b for a, b in zip(s.thalers, before, strict=True)] == [4, 4, 4 + 1, 4]


def test_firewood_asks_only_players_who_can_do_both() -> None:
    s = _winter_round("firewood")
    set_thalers(s, 2, 1)  # wood only: returns wood automatically
    set_res(s, 3, sand=1)  # no wood: pays 2 thalers automatically
    set_res(s, 0)  # neither wood nor 2 thalers: not affected
    set_thalers(s, 0, 1)
    events = pick(s, p0="trader", p1="trader", p2="trader", p3="trader")
    assert "reveal" not in [e.type for e in events]  # still sealed while seat 1 decides
    assert kind(s) == "firewood"
    before = list(s.thalers)
    assert E.legal_choices(s, 1) == [{"pay": "wood"}, {"pay": "thalers"}]
    view = E.view(s, 2)
    assert "picks" not in view and view["my_picks"] == ["trader"]
    events = act(s, {"pay": "thalers"})
    assert [e.type for e in events][:4] == ["firewood", "firewood", "firewood", "reveal"]
    assert s.res[2][1] == 0 and s.res[1][1] == 1
    assert s.thalers[3] == before[3] - 2 and s.thalers[1] == before[1] - 2
    assert s.thalers[0] == 1


def test_damsel_single_highest_bidder_pays_and_scores_six() -> None:
    s = _winter_round("damsel")
    set_thalers(s, 3, 0)
    pick(s, p0="trader", p1="trader", p2="trader", p3="trader")
    assert kind(s) == "damsel_bid"
    d = E.decision(s)
    assert d is not None and d.simultaneous and d.seats == (0, 1, 2)
    before = list(s.thalers)
    events = E.apply(s, {0: {"bid": 2}, 1: {"bid": 5}, 2: {"bid": 1}})
    assert events[0].type == "reveal" and events[0].data["what"] == "bids"
    assert [e.type for e in events][1:3] == ["damsel", "reveal"]
    assert s.vp[1] == 6 and s.thalers[1] == before[1] - 5


def test_damsel_tie_for_highest_bid_means_nobody_pays_or_scores() -> None:
    s = _winter_round("damsel")
    pick(s, p0="trader", p1="trader", p2="trader", p3="trader")
    before = list(s.thalers)
    E.apply(s, {0: {"bid": 3}, 1: {"bid": 3}, 2: {"bid": 1}, 3: {"bid": 0}})
    assert s.vp == [0, 0, 0, 0] and s.thalers == before


def test_guest_house_takes_a_guest_for_three_thalers_worth_five_points() -> None:
    s = _winter_round("guest_house")
    set_res(s, 2, sand=1, wood=1, stone=1)
    set_thalers(s, 2, 9)
    pick(s, p0="trader", p1="trader", p2="stonemason", p3="trader")
    for _ in range(3):
        act(s, {"action": "pass"}, "trader")
    act(s, build_choice("house", sand=1, wood=1, stone=1), "build")
    act(s, {"action": "place", "space": "guest_house", "from": "supply"}, "place_helpers")
    choices = E.legal_choices(s, 2)
    assert all(c.get("space") != "guest_house" for c in choices)
    act(s, {"action": "place", "space": "market.0", "from": "supply"}, "place_helpers")
    assert s.guests[2] == 1 and s.helpers[2] == 4
    assert s.thalers[2] == 9 - 3 - 6 + 1  # + the coin for starting round 3
    s.over = True
    outcome = E.outcome(s)
    assert outcome is not None
    assert untyped(outcome.details)["players"][2]["end_vp"] == {"market": 0, "guest_house": 5}
    assert untyped(outcome.details)["targets"]["castle_helpers"] == 1  # the guest is not in the castle
