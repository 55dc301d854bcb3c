"""``python -m api simulate`` plays the duel test game with bots and reports abnormal ends."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from api.entrypoints.simulate import main, parse_options, view_bytes
from domain.engine import Outcome
from domain.manifest import HostedGame
from domain.registry import EngineRegistry
from tests.support.duel_game import DuelEngine, DuelState


def forbid_round_two(state: DuelState) -> list[str]:
    """An invariant of the duel game that breaks once the second round starts."""
    return ["round 2 is forbidden"] if state.round == 2 else []


class SilentSeatDuel(DuelEngine):
    """Asks seat 1 to bank although it has nothing to choose from."""

    def legal_choices(self, state: DuelState, seat: int) -> list[dict[str, Any]]:
        return [] if state.phase == "bank" else super().legal_choices(state, seat)


class EndlessDuel(DuelEngine):
    """Never ends: banking starts the same round again."""

    def apply(self, state: DuelState, choices: Mapping[int, dict[str, Any]]) -> list[Any]:
        if state.phase == "bank":
            return []
        return super().apply(state, choices)


class CrashingDuel(DuelEngine):
    def apply(self, state: DuelState, choices: Mapping[int, dict[str, Any]]) -> list[Any]:
        raise KeyError("boom")


class OutcomelessDuel(DuelEngine):
    def outcome(self, state: DuelState) -> None:
        return None


class SelfReportedAbnormalDuel(DuelEngine):
    """A game whose own rules ended it abnormally (as Keythedral's round cap does)."""

    def outcome(self, state: DuelState) -> Outcome | None:
        outcome = super().outcome(state)
        if outcome is None:
            return None
        return Outcome(outcome.scores, outcome.winners, {"abnormal_end": True})


def run(
    capsys: pytest.CaptureFixture[str], game: DuelEngine | HostedGame[DuelState], *args: str
) -> tuple[int, str, str]:
    code = main(["--game", "duel", "--no-progress", *args], EngineRegistry([game]))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_duel_games_end_normally_and_the_summary_reports_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, DuelEngine(), "--players", "3", "--games", "40", "--bots", "random,greedy")
    assert code == 0
    assert "duel: 40 games, 3 players, bots random, greedy, random" in out
    assert "games/s" in out and "decisions/s" in out
    assert "length     mean 4.0, min 4, max 4 decisions" in out
    assert "per level" in out and "greedy  1 seat(s)" in out
    assert "abnormal   none (40/40 games ended normally)" in out


def test_json_summary_counts_decisions_and_splits_tied_wins(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, DuelEngine(), "--players", "2", "--games", "30", "--options", "rounds=3", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert data["games"] == data["finished"] == 30
    assert data["decisions"] == 30 * 6
    assert data["length"] == {"mean": 6.0, "min": 6, "max": 6}
    assert sum(data["win_rate_per_seat"]) == pytest.approx(1.0)
    assert data["win_rate_per_level"]["random"]["wins"] == pytest.approx(30.0)
    assert data["options"] == {"rounds": 3, "bank_allowed": True}
    assert all(score["min"] >= 10 for score in data["scores"])


def test_summary_reports_the_largest_choice_list_and_view(capsys: pytest.CaptureFixture[str]) -> None:
    """A duel seat first holds cards 1, 2 and 3: three choices of kind play_card at most."""
    code, out, _ = run(capsys, DuelEngine(), "--players", "2", "--games", "5", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["largest"]["choices"] == 3 and data["largest"]["choices_kind"] == "play_card"
    state, _ = DuelEngine().setup(2, {"rounds": 3, "bank_allowed": True}, random.Random(1))
    assert data["largest"]["view_bytes"] >= view_bytes(DuelEngine(), state, 0) > 0
    code, out, _ = run(capsys, DuelEngine(), "--players", "2", "--games", "5")
    size = data["largest"]["view_bytes"]
    assert f"largest    3 choices in one list (play_card), view {size:,} bytes" in out


def test_view_bytes_are_compact_utf8_json() -> None:
    class Accented(DuelEngine):
        def view(self, state: DuelState, viewer: int | None) -> dict[str, Any]:
            return {"name": "Château", "n": [1, 2]}

    state, _ = DuelEngine().setup(2, {"rounds": 3, "bank_allowed": True}, random.Random(1))
    assert view_bytes(Accented(), state, None) == len('{"name":"Château","n":[1,2]}'.encode())


def test_the_same_seed_replays_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--players", "3", "--games", "20", "--seed", "s", "--bots", "greedy,random", "--json")
    first = json.loads(run(capsys, DuelEngine(), *args)[1])
    second = json.loads(run(capsys, DuelEngine(), *args)[1])
    for data in (first, second):
        del data["seconds"], data["games_per_second"], data["decisions_per_second"]
    assert first == second


def test_options_accept_json_objects_and_name_value_pairs() -> None:
    assert parse_options(['{"rounds": 1}', "bank_allowed=false", "name=plain"]) == {
        "rounds": 1,
        "bank_allowed": False,
        "name": "plain",
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--game", "chess", "--players", "2"), "unknown game type 'chess'; known: duel"),
        (("--game", "duel", "--players", "2", "--options", "speed=3"), "unknown option(s) for duel: speed"),
        (("--game", "duel", "--players", "2", "--options", "rounds=7"), "option 'rounds' must be one of"),
        (("--game", "duel", "--players", "2", "--options", "{oops"), "not a JSON object"),
        (("--game", "duel", "--players", "5"), "duel takes 2-3 players"),
        (("--game", "duel", "--players", "2", "--bots", "random,genius"), "unknown bot level(s) genius"),
    ],
)
def test_usage_errors_exit_with_2_and_say_why(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    assert main([*args, "--no-progress"], EngineRegistry([DuelEngine()])) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("game", "reason"),
    [
        (
            HostedGame(DuelEngine(), check_invariants=forbid_round_two),
            "invariant broken after bank: round 2 is forbidden",
        ),
        (SilentSeatDuel(), "seat 0 is asked (bank) but has no legal choice"),
        (EndlessDuel(), "no end after 50 decisions (safety cap)"),
        (CrashingDuel(), "KeyError: 'boom'"),
        (OutcomelessDuel(), "the game is over but has no outcome"),
    ],
    ids=["invariant", "no-legal-choice", "cap", "exception", "no-outcome"],
)
def test_abnormal_ends_are_reported_and_fail_the_run(
    capsys: pytest.CaptureFixture[str], game: DuelEngine | HostedGame[DuelState], reason: str
) -> None:
    code, out, _ = run(capsys, game, "--players", "2", "--games", "3", "--max-decisions", "50")
    assert code == 1
    assert "abnormal   3 of 3 games (0 stalled at the rules' safety cap" in out
    assert "game 0 (seed 'simulate-0', after" in out
    assert reason in out


def test_a_game_stalled_at_its_rules_safety_cap_is_reported_but_does_not_fail_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, SelfReportedAbnormalDuel(), "--players", "2", "--games", "3")
    assert code == 0
    assert "abnormal   3 of 3 games (3 stalled at the rules' safety cap" in out
    assert "stalled: the game reached its rules' safety cap" in out


def test_the_keythedral_two_player_command_of_issue_19_ends_every_game_normally(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``./run simulate --game keythedral --players 2 --games 50``: random games that reached the
    old 40-round cap end by the last tile (the longest of these 50 takes 56 rounds)."""
    code = main(["--game", "keythedral", "--players", "2", "--games", "50", "--no-progress", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["abnormal"] == [] and report["finished"] == 50
    assert code == 0


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--game", "duel", "--players", "2", "--games", "5"], EngineRegistry([DuelEngine()]))
    captured = capsys.readouterr()
    assert code == 0
    assert "5/5" in captured.err
    assert "game/s" in captured.err and "game/s" not in captured.out
