"""When law cards may be played: the windows of the redesigned timing, worked by hand.

"Cette carte peut être jouée n'importe quand" (L03, L04, L07, L11, L13, L17): every moment a
window exists, which includes between work-order markers, around the harvest, on other players'
phase-3 turns, in the auction and after taking a law card in phase 3.
"""

from __future__ import annotations

from domain.games.keythedral import ENGINE
from domain.games.keythedral.state import State
from tests.unit.keythedral.support import (
    COTTAGES,
    PASS,
    act,
    asked,
    cubes,
    deal_law,
    decision,
    give,
    kinds,
    law,
    pass_window,
    phase,
    run,
    scenario,
    tile,
)


def play(card: str, **params: object) -> dict[str, object]:
    return {"action": "play", "card": card, **params}


def board(players: int = 2) -> State:
    st = scenario(players, COTTAGES)
    st.rows[0] = [tile("T04-1"), tile("T04-3")]
    st.pools[0] = [t for t in range(6) if t not in st.rows[0]]
    return st


def test_l17_collapses_an_opponents_house_after_its_number_is_chosen_before_it_sends_workers() -> None:
    """L17: "Cette carte peut être jouée n'importe quand. Le chantier installé pour transformer
    un cottage en maison s'écroule. Changez une tuile maison en tuile cottage." The moment that
    matters: seat 0 chooses number 1, where seat 1 has a house, and collapses it before that
    house sends its two workers."""
    st = board()
    st.house[1][0] = True  # seat 1's house 1 at (0,2): quarry (1,1) and farm (-1,1)
    deal_law(st, 0, "L17")
    run(st, phase(1))
    act(st, 0, {"number": 1})
    assert asked(st) == ((0,), "law_window")
    assert ENGINE.decision(st).data == {"window": "marker"}  # type: ignore[union-attr]
    assert ENGINE.legal_choices(st, 0) == [PASS, play("L17", target_seat=1, number=1)]
    events = act(st, 0, play("L17", target_seat=1, number=1))
    assert [e.data for e in events if e.type == "law_played"] == [
        {"seat": 0, "card": "L17", "target_seat": 1, "number": 1}
    ]
    assert not st.house[1][0]
    act(st, 0, {"fields": [[3, 1]]})  # seat 0's cottage 1 at (2,0) sends its worker first
    act(st, 1, {"fields": [[1, 1]]})  # a cottage now: one worker, not two
    assert [cell for cell, s in st.workers.items() if s == 1] == [(1, 1)]


def test_l11_removes_a_fence_between_work_order_markers() -> None:
    """L11: "Cette carte peut être jouée n'importe quand. Une barrière est déclarée dangereuse
    et doit être démontée." Seat 1 removes the fence that shuts its cottage 2 out of the farm
    once number 2 is chosen, before the workers go."""
    st = board()
    st.fences[(-2, 0, -1, 1)] = 0
    st.fences_left[0] = 2
    deal_law(st, 1, "L11")
    run(st, phase(1))
    act(st, 0, {"number": 2})
    assert asked(st) == ((1,), "law_window")
    act(st, 1, play("L11", gx=-2, gy=0, fx=-1, fy=1))
    assert st.fences == {}
    act(st, 0, {"fields": [[1, -1]]})  # seat 0's cottage 2 at (0,-2) goes first: the lake
    assert {"fields": [[-1, 1]]} in ENGINE.legal_choices(st, 1)  # the farm is open again


def test_an_any_time_card_is_played_on_another_players_phase_three_turn() -> None:
    """Reference L-3: "'At any time' includes other players' turns." After seat 0 builds a
    fence, seat 2 removes it with L11 before seat 1's turn; seat 1, who is about to act and may
    play from his own menu, is not asked in that window."""
    st = board(3)
    give(st, 0, brown=1)
    give(st, 1, red=1)
    deal_law(st, 1, "L04")
    deal_law(st, 2, "L11")
    run(st, phase(3))
    act(st, 0, {"action": "fence"})
    act(st, 0, {"fence": "build", "gx": 0, "gy": 2, "fx": 1, "fy": 1})
    assert asked(st) == ((2,), "law_window")
    events = act(st, 2, play("L11", gx=0, gy=2, fx=1, fy=1))
    assert [e.data["seat"] for e in events if e.type == "law_played"] == [2]
    assert asked(st) == ((1,), "law_window")  # the Veto window: seat 1 holds a card
    pass_window(st)
    assert st.fences == {}
    assert decision(st) == (1, "action")


def test_a_player_who_took_a_law_card_in_phase_three_may_still_play_one() -> None:
    """P3-2, seed: "le joueur ne peut plus faire d'action durant la phase trois du tour (sauf
    pour jouer une carte loi selon les instructions de cette carte)". Seat 0 procures L04 and
    plays it in the window before seat 1's turn."""
    st = board()
    st.spaces[0] = law("L04")
    st.deck.remove(law("L04"))
    give(st, 0, red=1)
    give(st, 1, red=2)
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})  # one cube: the Law Master is the only visit
    assert st.out[0] and st.hands[0] == [law("L04")]
    assert asked(st) == ((0,), "law_window")
    act(st, 0, play("L04", number=2))
    assert st.house[0][1]
    act(st, 1, {"action": "pass"})  # seat 0 is out: seat 1's pass ends phase 3
    assert st.phase > 3


def test_a_law_window_follows_the_bids_before_they_are_settled() -> None:
    """The auction is a moment like any other: once the bids are in, seat 1 plays L04."""
    st = board()
    give(st, 0, black=1)
    give(st, 1, black=1)
    deal_law(st, 1, "L04")
    run(st, phase(5))
    assert st.start == 1  # B is seat 1; A (seat 0) bids first
    act(st, 0, {"bid": 1})
    act(st, 1, {"bid": 1})  # B matches
    assert asked(st) == ((1,), "law_window")
    assert ENGINE.decision(st).data == {"window": "auction"}  # type: ignore[union-attr]
    act(st, 1, play("L04", number=1))
    assert st.house[1][0]
    assert decision(st) == (1, "choose_start") and st.cubes[0] == cubes(black=2)


def test_around_the_harvest_phase_two_cards_and_any_time_cards_share_the_start_window() -> None:
    """L14 "Jouez cette carte avant ou pendant la phase 2" and L17 "n'importe quand", both at the
    start of phase 2, before the cubes are taken."""
    st = board()
    st.workers = {(1, 1): 0, (-1, 1): 1}
    st.house[1][1] = True
    deal_law(st, 0, "L14")
    deal_law(st, 1, "L17")
    run(st, {"t": "phase", "p": 2, "s": 0})
    assert asked(st) == ((0, 1), "law_window")
    assert ENGINE.legal_choices(st, 0) == [PASS, play("L14", x=1, y=1)]
    assert ENGINE.legal_choices(st, 1) == [PASS, play("L17", target_seat=1, number=2)]
    events = ENGINE.apply(st, {0: play("L14", x=1, y=1), 1: play("L17", target_seat=1, number=2)})
    # both played: the first in order from the start player (seat 0) plays, seat 1's lapses
    assert [e.data["card"] for e in events if e.type == "law_played"] == ["L14"]
    assert law("L17") in st.hands[1]
    pass_window(st)  # Veto window: seat 1 holds a card
    assert asked(st) == ((1,), "law_window")  # the start window again, for seat 1 only now
    pass_window(st)
    assert st.cubes[0] == cubes(black=2) and st.cubes[1] == cubes(green=1)


def test_l15_good_deal_takes_a_resource_cube_never_a_craft_cube() -> None:
    """L15: "Le marchand accepte un cube ressource (au lieu de deux) et en échange donne deux
    cubes ressource de n'importe quel type au lieu d'un." The card says a resource cube, so a
    seat holding only craft cubes cannot make the deal, and one holding both pays a resource."""
    st = board()
    give(st, 0, white=2)
    deal_law(st, 0, "L15")
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})
    assert {"visit": "trader", "card": "L15"} not in ENGINE.legal_choices(st, 0)
    st = board()
    give(st, 0, white=1, black=1)
    deal_law(st, 0, "L15")
    run(st, phase(3))
    act(st, 0, {"action": "keytown"})
    events = act(st, 0, {"visit": "trader", "card": "L15"})
    paid = next(e.data for e in events if e.type == "cubes_paid")
    assert paid["cubes"] == {"black": 1}
    act(st, 0, {"colour": "red"})
    act(st, 0, {"colour": "red"})
    assert st.cubes[0] == cubes(white=1, red=2)


def test_the_veto_names_the_player_whose_card_it_cancels() -> None:
    st = board()
    give(st, 0, red=1)
    deal_law(st, 0, "L04")
    deal_law(st, 1, "L10")
    run(st, phase(3))
    act(st, 0, play("L04", number=1))
    events = act(st, 1, play("L10"))
    assert [e.data for e in events if e.type == "law_vetoed"] == [{"seat": 1, "card": "L04", "played_by": 0}]
    assert "law_played" in kinds(events)
