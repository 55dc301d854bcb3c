"""Exact payments, silver as a joker, the Forge and the cheapest-first marker."""

from __future__ import annotations

from datetime import UTC, datetime

from domain.engine import find_listed_choice
from domain.games.im_schutze_der_burg.building import PAYMENTS_LISTED_MAX
from domain.games.im_schutze_der_burg.payments import payments
from domain.games.im_schutze_der_burg.state import State
from domain.model.match import Match

from .support import E, act, build_choice, kind, new_game, pick, set_res


def test_payment_is_exact_with_at_least_three_kinds() -> None:
    assert payments(8, [3, 2, 1, 1, 0]) == [(2, 1, 1, 0, 0), (1, 1, 0, 1, 0)]
    assert payments(8, [8, 4, 0, 0, 0]) == []  # only two kinds
    assert payments(10, [1, 1, 0, 1, 0]) == []  # 8 < 10, never overpay with 1+4+5...


def test_silver_is_a_joker_for_value_and_kind() -> None:
    # 1 sand + 2 silver as wood and stone = 8; 1 sand + 1 wood + silver as stone = 8; ...
    assert payments(8, [1, 1, 0, 0, 2]) == [
        (1, 0, 0, 0, 2),
        (1, 1, 0, 0, 1),
        (0, 1, 0, 0, 2),
        (1, 1, 0, 0, 2),
    ]
    assert payments(8, [0, 0, 0, 0, 2]) == []  # two silvers make two kinds at most


def test_silver_spent_goes_to_the_forge_not_back_to_the_rider() -> None:
    s = new_game(4)
    set_res(s, 0, sand=1, silver=2)
    rider = s.supply[4]
    pick(s, p0="stonemason", p1="messenger", p2="messenger", p3="messenger")
    act(s, build_choice("house", sand=1, silver=2), "build")
    assert s.forge == 2 and s.supply[4] == rider and s.res[0] == [0, 0, 0, 0, 0]
    assert s.vp[0] == 6


def test_build_offers_buildings_then_payments_with_the_cheapest_first_and_named_in_data() -> None:
    """Seed: "Pendant la phase de construction tous les bâtiments, qui n'ont pas encore été
    construit et qui sont construisibles avec les resources disponibles sont affichés en vert.
    Il suffit de cliquer sur un bâtiment. [...] Un choix de matière première est déjà
    présélectionné de manière que les matières premières les moins chères soient utilisées en
    premier."

    3 sand, 2 wood, 2 clay, 1 stone, 1 silver: every unbuilt type with an exact payment is one
    choice; after the house, its payments are listed with the cheapest (2 sand + 1 wood +
    1 clay = 8, no silver) first and named in the decision's data, without any marker in it.
    """
    s = new_game(4)
    set_res(s, 0, sand=3, wood=2, clay=2, stone=1, silver=1)
    pick(s, p0="stonemason", p1="messenger", p2="messenger", p3="messenger")
    assert kind(s) == "build"
    choices = E.legal_choices(s, 0)
    assert choices[-1] == {"action": "done"}
    assert {"action": "build", "building": "house", "earns": {"vp": 6}} in choices
    assert len(choices) == 1 + len({c["building"] for c in choices[:-1]})
    act(s, {"action": "build", "building": "house", "earns": {"vp": 6}}, "build")
    d = E.decision(s)
    assert d is not None and d.kind == "build_payment" and d.seats == (0,)
    payments_listed = E.legal_choices(s, 0)
    cheapest = {"action": "pay", "sand": 2, "wood": 1, "clay": 1, "stone": 0, "silver": 0}
    assert payments_listed[0] == cheapest and d.data["cheapest"] == cheapest
    assert d.data["building"] == "house" and d.data["earns"] == {"vp": 6}
    assert payments_listed[-1] == {"action": "back"}
    assert len(payments_listed) - 1 == len(payments(8, [3, 2, 2, 1, 1])) == d.data["payments"]
    assert all("cheapest" not in c for c in payments_listed)
    assert find_listed_choice(payments_listed, dict(cheapest)) is not None  # posted as listed
    # Identical tiles are one choice per payment; two buildings are paid separately.
    act(s, cheapest, "build_payment")
    assert s.res[0] == [1, 1, 1, 1, 1] and s.vp[0] == 6
    act(s, build_choice("small_gate", sand=1, wood=1, clay=1, stone=1), "build")
    assert s.vp[0] == 6 + 6 and s.res[0] == [0, 0, 0, 0, 1]
    # Two buildings is the limit: helper placement follows (market fee 6 > 3 thalers: none).
    assert s.round == 2


def test_the_match_accepts_the_cheapest_payment_posted_exactly_as_listed() -> None:
    """Issue 11: "the cheapest payment is refused if posted without [the marker]". The match's
    own guard (every listed choice posted back verbatim) accepts the first payment as listed."""
    match = Match(
        id="g",
        engine=E,
        options={"winter": False},
        seed="cheapest",
        seed_commitment="c",
        host_token_hash="h",
        created_at=datetime(2026, 11, 23, tzinfo=UTC),
    )
    for seat in range(4):
        match.join(f"p{seat}", f"t{seat}")
    match.start()
    s = match.state
    start = s.start
    set_res(s, start, sand=3, wood=2, clay=2, stone=1)
    cards = {start: "stonemason", **{(start + i) % 4: "messenger" for i in (1, 2, 3)}}
    for seat, card in cards.items():
        match.submit(seat, {"card": card})
    decision, choices = match.choices_for(start)
    assert decision is not None and decision.kind == "build"
    house = next(c for c in choices if c.get("building") == "house")
    match.submit(start, house)
    decision, choices = match.choices_for(start)
    assert decision is not None and decision.kind == "build_payment"
    assert choices[0] == decision.data["cheapest"]
    result = match.submit(start, {"action": "pay", "sand": 2, "wood": 1, "clay": 1, "stone": 0, "silver": 0})
    assert result.status == "applied" and s.vp[start] == 6


def test_each_building_choice_says_what_it_earns_for_the_card_that_builds() -> None:
    """Seed: the Bricklayer "reçoit pour chaque élément de ressource un thaler de la banque. Il
    ne reçoit que des thalers et aucun point de victoire"; the Stonemason "un nombre de points
    de victoire qui correspond à la valeur du bâtiment"; Workers "ne reçoivent que la moitié du
    nombre de point de victoire".

    A Small Tower is printed 8 VP: the Stonemason earns 8, a Worker 4, the Bricklayer a thaler
    per piece spent.
    """
    s = new_game(2)
    set_res(s, 0, sand=3, wood=3, clay=3, stone=3)
    set_res(s, 1, sand=3, wood=3, clay=3, stone=3)
    pick(s, p0=("bricklayer", "stonemason"), p1=("worker_1", "messenger"))
    act(s, {"action": "skip"}, "watchtower")
    earned = {c["building"]: c["earns"] for c in E.legal_choices(s, 0) if c["action"] == "build"}
    assert earned["small_tower"] == {"thalers_per_piece": 1}
    act(s, {"action": "done"}, "build")
    assert kind(s) == "stonemason_buy"
    act(s, {"action": "done"}, "stonemason_buy")
    earned = {c["building"]: c["earns"] for c in E.legal_choices(s, 0) if c["action"] == "build"}
    assert earned["small_tower"] == {"vp": 8} and earned["palace"] == {"vp": 18}
    act(s, {"action": "done"}, "build")
    earned = {c["building"]: c["earns"] for c in E.legal_choices(s, 1) if c["action"] == "build"}
    assert earned["small_tower"] == {"vp": 4} and earned["house"] == {"vp": 3}


def test_back_returns_to_the_buildings_with_nothing_spent() -> None:
    s = new_game(4)
    set_res(s, 0, sand=3, wood=2, clay=2, stone=1)
    pick(s, p0="stonemason", p1="messenger", p2="messenger", p3="messenger")
    before = E.legal_choices(s, 0)
    act(s, {"action": "build", "building": "small_gate", "earns": {"vp": 6}}, "build")
    events = act(s, {"action": "back"}, "build_payment")
    assert [(e.type, e.data) for e in events] == [
        ("building_unchosen", {"seat": 0, "building": "small_gate"})
    ]
    assert kind(s) == "build" and E.legal_choices(s, 0) == before
    assert s.res[0] == [3, 2, 2, 1, 0] and s.act_built == 0


def _walk(s: State, seat: int, found: list[tuple[int, ...]], longest: list[int]) -> None:
    """Every payment reachable from a ``build_payment`` step, through every ``fix``."""
    legal = E.legal_choices(s, seat)
    longest[0] = max(longest[0], len(legal))
    data = E.decision(s).data  # type: ignore[union-attr]
    assert legal[0]["action"] == "pay" and data["cheapest"] == legal[0]
    for choice in legal:
        if choice["action"] == "pay":
            found.append(tuple(choice[k] for k in ("sand", "wood", "clay", "stone", "silver")))
        elif choice["action"] == "fix":
            branch = E.load(E.dump(s))
            E.apply(branch, {seat: choice})
            _walk(branch, seat, found, longest)


def test_a_hoard_narrows_the_payment_kind_by_kind_and_every_payment_stays_reachable() -> None:
    """Issue 11: a hoard listed 17,533 choices (1.8 MB) in one decision. With 12 sand, 10 wood,
    8 clay, 8 stone and 8 silver the Palace (value 30) alone has thousands of exact payments:
    the payment step first fixes the silver (then stone, clay, wood) until at most
    PAYMENTS_LISTED_MAX remain, and every payment is still reachable."""
    s = new_game(4)
    set_res(s, 0, sand=12, wood=10, clay=8, stone=8, silver=8)
    pick(s, p0="stonemason", p1="messenger", p2="messenger", p3="messenger")
    buildings = E.legal_choices(s, 0)
    assert len(buildings) == 11  # the 10 types of tiles (Market and Forge stand) and done
    act(s, {"action": "build", "building": "palace", "earns": {"vp": 18}}, "build")
    first = E.legal_choices(s, 0)
    assert [c["action"] for c in first[1:-1]] == ["fix"] * 9
    assert [c["count"] for c in first[1:-1]] == list(range(9))
    assert {c["resource"] for c in first[1:-1]} == {"silver"}
    found: list[tuple[int, ...]] = []
    longest = [0]
    _walk(s, 0, found, longest)
    every = payments(30, [12, 10, 8, 8, 8])
    assert len(every) > 1000
    assert sorted(set(found)) == sorted(every)
    assert longest[0] <= PAYMENTS_LISTED_MAX + 2
    # No silver, then the most sand (12), then the most wood: 12 + 2 * 7 + 4 = 30.
    assert first[0] == {"action": "pay", "sand": 12, "wood": 7, "clay": 1, "stone": 0, "silver": 0}
