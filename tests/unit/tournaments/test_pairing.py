"""Tournament pairing and standings, pure: Swiss without repeats (pairs, byes, tables of three),
round-robin, elimination brackets with byes, the Dutch system's first rounds worked by hand."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from domain.tournaments.model import Bye, Entrant, Format, History, Pairing, PairingImpossible, Seating, Table
from domain.tournaments.pairing import finished_after, pair_round, planned_rounds, standings
from domain.tournaments.scoring import place_points
from domain.tournaments.seats import table_sizes

PAIRS = Seating(2, 2)


def field(count: int) -> list[Entrant]:
    """Entrants p01 (best rated) … pNN."""
    return [Entrant(f"p{i:02d}", 2400 - 50 * i) for i in range(1, count + 1)]


def record(history: History, pairing: Pairing, ranks: list[tuple[int, ...]]) -> History:
    tables = tuple(Table(pairing.round, t, r) for t, r in zip(pairing.tables, ranks, strict=True))
    byes = tuple(Bye(pairing.round, p) for p in pairing.byes)
    return History(history.tables + tables, history.byes + byes)


def play(
    fmt: Format, entrants: list[Entrant], seating: Seating, rounds: int, seed: int
) -> tuple[History, list[Pairing]]:
    """Every round paired and played with shuffled places (ties now and then)."""
    rng = random.Random(seed)
    history = History()
    pairings: list[Pairing] = []
    planned = planned_rounds(fmt, len(entrants), seating, rounds)
    for round_no in range(1, planned + 1):
        pairing = pair_round(fmt, entrants, history, round_no, seating)
        pairings.append(pairing)
        ranks = []
        for table in pairing.tables:
            places = list(range(1, len(table) + 1))
            rng.shuffle(places)
            if rng.random() < 0.1:
                places = [1 if p <= 2 else p for p in places]
            ranks.append(tuple(places))
        history = record(history, pairing, ranks)
        if finished_after(fmt, entrants, history, round_no, planned, seating):
            break
    return history, pairings


def winners(pairing: Pairing, *won: str) -> list[tuple[int, ...]]:
    return [tuple(1 if p in won else 2 for p in t) for t in pairing.tables]


def meetings(history: History) -> Counter[frozenset[str]]:
    return Counter(frozenset(p) for t in history.tables for p in combinations(t.players, 2))


@pytest.mark.parametrize("seed", range(8))
def test_swiss_of_twelve_plays_seven_rounds_without_a_repeat(seed: int) -> None:
    entrants = field(12)
    history, pairings = play(Format.SWISS, entrants, PAIRS, 7, seed)
    assert len(pairings) == 7
    assert all(len(p.tables) == 6 and not p.byes for p in pairings)
    assert max(meetings(history).values()) == 1
    firsts = Counter(t.players[0] for t in history.tables)
    assert all(abs(2 * firsts[e.id] - 7) <= 1 for e in entrants), firsts


@pytest.mark.parametrize("seed", range(8))
def test_swiss_of_nine_gives_a_bye_each_round_to_someone_new_without_a_repeat(seed: int) -> None:
    entrants = field(9)
    history, pairings = play(Format.SWISS, entrants, PAIRS, 7, seed)
    assert [len(p.byes) for p in pairings] == [1] * 7
    byes = [p.byes[0] for p in pairings]
    assert len(set(byes)) == 7
    assert byes[0] == "p09"
    assert max(meetings(history).values()) == 1
    firsts = Counter(t.players[0] for t in history.tables)
    seats = Counter(p for t in history.tables for p in t.players)
    assert all(abs(2 * firsts[p] - seats[p]) <= 2 for p in seats)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    entrants = field(5)
    history = History(
        tables=(Table(1, ("p01", "p03"), (1, 2)), Table(1, ("p04", "p02"), (2, 1))),
        byes=(Bye(1, "p05"),),
    )
    # points: p01 1, p02 1, p05 1 (bye), p03 0, p04 0: p04 is last and has had no bye; the
    # three on 1 point: S1 = p01, S2 = p02 p05, so p05 floats down to p03
    pairing = pair_round(Format.SWISS, entrants, history, 2, PAIRS)
    assert pairing.byes == ("p04",)
    assert sorted(map(sorted, pairing.tables)) == [["p01", "p02"], ["p03", "p05"]]


@pytest.mark.parametrize("seed", range(5))
def test_three_player_tables_of_nine_meet_no_one_twice_in_four_rounds(seed: int) -> None:
    tables_of_three = Seating(3, 3)
    for fmt in (Format.SWISS, Format.ROUND_ROBIN):
        history, pairings = play(fmt, field(9), tables_of_three, 4, seed)
        assert len(pairings) == 4
        assert all(len(p.tables) == 3 and all(len(t) == 3 for t in p.tables) for p in pairings)
        met = meetings(history)
        assert max(met.values()) == 1
        if fmt is Format.ROUND_ROBIN:
            assert len(met) == 36  # every pair of the nine, once


def test_three_player_tables_of_ten_leave_one_bye() -> None:
    pairing = pair_round(Format.SWISS, field(10), History(), 1, Seating(3, 3))
    assert [len(t) for t in pairing.tables] == [3, 3, 3]
    assert pairing.byes == ("p10",)
    # round 1: the field split in thirds, a player from each at every table
    assert [sorted(t) for t in pairing.tables] == [
        ["p01", "p04", "p07"],
        ["p02", "p05", "p08"],
        ["p03", "p06", "p09"],
    ]


def test_points_by_finishing_place_share_tied_places() -> None:
    def points(ranks: tuple[int, ...]) -> list[str]:
        return [str(p) for p in place_points(ranks)]

    assert points((1, 2, 3)) == ["1", "1/2", "0"]
    assert points((1, 1, 3)) == ["3/4", "3/4", "0"]
    assert points((1, 2, 2)) == ["1", "1/4", "1/4"]
    assert points((2, 1, 4, 3)) == ["2/3", "1", "0", "1/3"]
    assert points((1, 1)) == ["1/2", "1/2"]


def test_table_sizes_fill_full_tables_and_never_go_below_the_fewest_seats() -> None:
    assert table_sizes(9, PAIRS) == ([2, 2, 2, 2], 1)
    assert table_sizes(7, Seating(2, 4)) == ([4, 3], 0)
    assert table_sizes(10, Seating(3, 4)) == ([4, 3, 3], 0)
    assert table_sizes(11, Seating(3, 3)) == ([3, 3, 3], 2)
    with pytest.raises(PairingImpossible):
        table_sizes(2, Seating(3, 5))


def test_dutch_system_rounds_one_to_three_worked_by_hand() -> None:
    """FIDE Handbook C.04.3 (Dutch system), eight players by rating, p01 has white on board 1:
    round 1 pairs S1 = 1-4 with S2 = 5-8 in order, colours alternating by board; round 2 pairs
    each score group the same way; in round 3 the colours follow the preferences: the stronger
    (absolute: same colour twice) wins, between equal ones the higher ranked player's."""
    entrants = field(8)
    first = pair_round(Format.SWISS, entrants, History(), 1, PAIRS)
    assert first.tables == (("p01", "p05"), ("p06", "p02"), ("p03", "p07"), ("p08", "p04"))
    # the higher rated player wins every game of round 1
    history = record(History(), first, [(1, 2), (2, 1), (1, 2), (2, 1)])
    second = pair_round(Format.SWISS, entrants, history, 2, PAIRS)
    # 1 point: p01 p02 p03 p04 (1-3, 2-4); 0 points: p05 p06 p07 p08 (5-7, 6-8).
    # p01 and p03 both had white: both want black, the higher ranked p01 gets it; p02 and p04
    # both had black, p02 gets white; p05 and p07 had black, p05 white; p06 and p08 had white,
    # p08 gets white.
    assert second.tables == (("p03", "p01"), ("p02", "p04"), ("p05", "p07"), ("p08", "p06"))
    # round 2: p01, p02, p05 and p06 win
    history = record(history, second, [(2, 1), (1, 2), (1, 2), (2, 1)])
    third = pair_round(Format.SWISS, entrants, history, 3, PAIRS)
    # 2 points: p01 p02; 1 point: p03 p04 p05 p06 (3-5, 4-6); 0: p07 p08.
    # p01 WB wants white, p02 BW wants black; p03 WW (absolute) wants black against p05 BW:
    # p05 white; p04 BB (absolute) wants white against p06 WB: p04 white; p07 BB against p08 WW.
    assert third.tables == (("p01", "p02"), ("p05", "p03"), ("p04", "p06"), ("p07", "p08"))


def test_swiss_transposes_the_bottom_half_to_avoid_a_repeat() -> None:
    """Dutch system: when S1's first player has met S2's first, it takes S2's next (a
    transposition), not a player of S1 (an exchange)."""
    entrants = field(4)
    history = History(tables=(Table(1, ("p01", "p03"), (1, 1)), Table(1, ("p02", "p04"), (1, 1))))
    pairing = pair_round(Format.SWISS, entrants, history, 2, PAIRS)
    assert [sorted(t) for t in pairing.tables] == [["p01", "p04"], ["p02", "p03"]]


def test_standings_break_ties_by_buchholz_then_sonneborn_berger_then_rating() -> None:
    entrants = [Entrant("a", 1500), Entrant("b", 1400), Entrant("c", 1600), Entrant("d", 1300)]
    history = History(
        tables=(
            Table(1, ("a", "b"), (1, 2)),
            Table(1, ("c", "d"), (1, 2)),
            Table(2, ("a", "c"), (1, 1)),
            Table(2, ("b", "d"), (1, 2)),
        )
    )
    rows = standings(Format.SWISS, entrants, history)
    # points a 1½, c 1½, b 1, d 0; Buchholz a = b 1 + c 1½ = 2½, c = d 0 + a 1½ = 1½
    assert [(r.player, r.points, r.buchholz) for r in rows] == [
        ("a", Fraction(3, 2), Fraction(5, 2)),
        ("c", Fraction(3, 2), Fraction(3, 2)),
        ("b", Fraction(1), Fraction(3, 2)),
        ("d", Fraction(0), Fraction(5, 2)),
    ]
    # Sonneborn-Berger: a = 1 x b's 1 + 1/2 x c's 3/2 = 7/4; b = 1 x d's 0 = 0
    assert rows[0].sonneborn_berger == Fraction(7, 4) and rows[2].sonneborn_berger == 0
    # equal on every score: the higher rating ranks first
    level = History(tables=(Table(1, ("a", "b"), (1, 1)), Table(1, ("c", "d"), (1, 1))))
    assert [r.player for r in standings(Format.SWISS, entrants, level)] == ["c", "a", "b", "d"]
    assert [r.rank for r in standings(Format.SWISS, entrants, level)] == [1, 2, 3, 4]


def test_round_robin_of_pairs_meets_everyone_once_with_the_odd_one_out_resting() -> None:
    for count in (6, 5):
        history, pairings = play(Format.ROUND_ROBIN, field(count), PAIRS, 0, 1)
        assert len(pairings) == 5
        met = meetings(history)
        assert len(met) == count * (count - 1) // 2 and max(met.values()) == 1
        byes = [b.player for b in history.byes]
        assert sorted(byes) == ([] if count == 6 else [e.id for e in field(5)])


def test_elimination_gives_the_best_seeds_the_byes_and_best_meets_worst() -> None:
    entrants = field(6)
    first = pair_round(Format.SINGLE_ELIMINATION, entrants, History(), 1, PAIRS)
    assert first.byes == ("p01", "p02")
    assert [sorted(t) for t in first.tables] == [["p03", "p06"], ["p04", "p05"]]
    assert planned_rounds(Format.SINGLE_ELIMINATION, 6, PAIRS, 0) == 3
    # p06 and p04 win: round 2 re-seeds p01 p02 p04 p06 (best against worst)
    history = record(
        History(), first, [tuple(1 if p in ("p06", "p04") else 2 for p in t) for t in first.tables]
    )
    second = pair_round(Format.SINGLE_ELIMINATION, entrants, history, 2, PAIRS)
    assert not second.byes
    assert [sorted(t) for t in second.tables] == [["p01", "p06"], ["p02", "p04"]]
    history = record(
        history, second, [tuple(1 if p in ("p06", "p02") else 2 for p in t) for t in second.tables]
    )
    final = pair_round(Format.SINGLE_ELIMINATION, entrants, history, 3, PAIRS)
    assert [sorted(t) for t in final.tables] == [["p02", "p06"]]
    history = record(history, final, winners(final, "p06"))
    assert finished_after(Format.SINGLE_ELIMINATION, entrants, history, 3, 3, PAIRS)
    rows = standings(Format.SINGLE_ELIMINATION, entrants, history)
    assert [r.player for r in rows[:4]] == ["p06", "p02", "p01", "p04"]
    assert [r.reached for r in rows] == [3, 3, 2, 2, 1, 1]
    assert [r.eliminated for r in rows] == [False, True, True, True, True, True]


def test_elimination_brackets_with_byes_for_pairs_and_tables_of_three() -> None:
    five = pair_round(Format.SINGLE_ELIMINATION, field(5), History(), 1, PAIRS)
    assert five.byes == ("p01", "p02", "p03") and [sorted(t) for t in five.tables] == [["p04", "p05"]]
    # seven at tables of three: three go on after round 1, p01 rests, six play at two tables,
    # dealt there and back (2 3 | 5 4 | 6 7)
    seven = pair_round(Format.SINGLE_ELIMINATION, field(7), History(), 1, Seating(2, 3))
    assert seven.byes == ("p01",)
    assert [sorted(t) for t in seven.tables] == [["p02", "p05", "p06"], ["p03", "p04", "p07"]]
    assert planned_rounds(Format.SINGLE_ELIMINATION, 7, Seating(2, 3), 0) == 2
    # eight at tables of three: five must go, two full tables and one of two
    eight = pair_round(Format.SINGLE_ELIMINATION, field(8), History(), 1, Seating(2, 3))
    assert not eight.byes and sorted(len(t) for t in eight.tables) == [2, 3, 3]
    with pytest.raises(PairingImpossible):
        pair_round(Format.SINGLE_ELIMINATION, field(8), History(), 1, Seating(3, 3))


@pytest.mark.parametrize(("count", "size"), [(16, 2), (13, 4), (9, 3), (11, 2)])
def test_elimination_crowns_one_winner_in_the_planned_rounds(count: int, size: int) -> None:
    seating = Seating(2, size)
    history, pairings = play(Format.SINGLE_ELIMINATION, field(count), seating, 0, 3)
    assert len(pairings) == planned_rounds(Format.SINGLE_ELIMINATION, count, seating, 0)
    assert len(pairings[-1].tables) == 1 and not pairings[-1].byes
    rows = standings(Format.SINGLE_ELIMINATION, field(count), history)
    assert [r.eliminated for r in rows].count(False) == 1 and rows[0].eliminated is False


def test_a_withdrawn_player_is_paired_no_more_and_keeps_its_results() -> None:
    entrants = field(4)
    first = pair_round(Format.SWISS, entrants, History(), 1, PAIRS)
    history = record(History(), first, [(1, 2), (1, 2)])
    gone = [Entrant(e.id, e.rating, withdrawn=e.id == "p01") for e in entrants]
    second = pair_round(Format.SWISS, gone, history, 2, PAIRS)
    assert "p01" not in {p for t in second.tables for p in t} | set(second.byes)
    assert len(second.byes) == 1
    row = next(r for r in standings(Format.SWISS, gone, history) if r.player == "p01")
    assert row.withdrawn and row.points == 1
