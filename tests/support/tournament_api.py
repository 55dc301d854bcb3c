"""Tournaments over the HTTP API: players who register, wait for each round, take their seat
tokens with their player token and play their games with seeded random legal choices (the
"bots" of the test), spread over one or several instances; and the standings worked out by hand
from the games' own results, to compare with the server's."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import cycle
from typing import Any

import httpx

from tests.support.http import auth
from tests.support.waiting import eventually


@dataclass
class Tourney:
    clients: Sequence[httpx.Client]
    """One client per instance; requests take turns among them."""
    tournament_id: str = ""
    host_token: str = ""
    players: dict[str, str] = field(default_factory=dict)
    """Player id -> player token."""
    results: dict[str, list[int]] = field(default_factory=dict)
    """Game id -> ranks per seat, from the game's own final view."""

    def __post_init__(self) -> None:
        self._turns = cycle(self.clients)

    def use(self, clients: Sequence[httpx.Client]) -> None:
        """Talk to other instances from now on (a restarted server)."""
        self.clients = clients
        self._turns = cycle(clients)

    def http(self) -> httpx.Client:
        return next(self._turns)

    def create(self, **body: Any) -> dict[str, Any]:
        created = self.http().post("/v1/tournaments", json=body)
        assert created.status_code == 201, created.text
        answer: dict[str, Any] = created.json()
        self.tournament_id = answer["tournament"]["id"]
        self.host_token = answer["host_token"]
        return answer

    def register(self, names: Sequence[str]) -> None:
        for name in names:
            made = self.http().post("/v1/players", json={"name": name})
            assert made.status_code == 201, made.text
            player = made.json()
            self.players[player["id"]] = player["token"]
            joined = self.http().post(
                f"/v1/tournaments/{self.tournament_id}/registrations", json={}, headers=auth(player["token"])
            )
            assert joined.status_code == 200, joined.text

    def start(self) -> None:
        started = self.http().post(
            f"/v1/tournaments/{self.tournament_id}/start", headers=auth(self.host_token)
        )
        assert started.status_code == 200, started.text

    def tournament(self) -> dict[str, Any]:
        body: dict[str, Any] = self.http().get(f"/v1/tournaments/{self.tournament_id}").json()
        return body

    def rounds(self) -> list[dict[str, Any]]:
        body: list[dict[str, Any]] = self.http().get(f"/v1/tournaments/{self.tournament_id}/rounds").json()
        return body

    def standings(self) -> list[dict[str, Any]]:
        body: list[dict[str, Any]] = self.http().get(f"/v1/tournaments/{self.tournament_id}/standings").json()
        return body

    def wait_for_round(self, number: int, timeout: float = 60.0) -> dict[str, Any]:
        def paired() -> dict[str, Any] | None:
            rounds = self.rounds()
            return rounds[number - 1] if len(rounds) >= number else None

        return eventually(paired, timeout, f"round {number} paired")

    def play_round(self, number: int, seed: int) -> None:
        for table in self.wait_for_round(number)["tables"]:
            self.play_game(table["game_id"], [s["player_id"] for s in table["seats"]], seed)

    def play_game(self, game_id: str, players: list[str], seed: int) -> None:
        chooser = random.Random(f"{seed}:{game_id}")
        tokens = []
        for seat, player in enumerate(players):
            taken = self.http().post(
                f"/v1/players/me/games/{game_id}/seats/{seat}/token", headers=auth(self.players[player])
            )
            assert taken.status_code == 200, taken.text
            tokens.append(taken.json()["token"])
        for _ in range(5000):
            http = self.http()
            state = http.get(f"/v1/games/{game_id}").json()
            if state["status"] != "in_progress":
                break
            decision = state["decision"]
            for seat in decision["seats"]:
                if seat in decision["sealed"]:
                    continue
                pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(tokens[seat])).json()
                body = {"choice": chooser.choice(pending["choices"]), "version": pending["version"]}
                answer = http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(tokens[seat]))
                assert answer.status_code == 200, answer.text
        final = self.http().get(f"/v1/games/{game_id}").json()
        assert final["status"] == "finished", final["status"]
        self.results[game_id] = ranks_of(final["result"], len(players))


def ranks_of(result: dict[str, Any], seats: int) -> list[int]:
    """Rank per seat from a finished game's result: winners first, then by score (ties share)."""
    scores = result["scores"]
    winners = set(result["winners"])
    keys = [(s not in winners, -scores[s]) for s in range(seats)]
    return [sorted(set(keys)).index(k) + 1 for k in keys]


def standings_by_hand(rounds: list[dict[str, Any]], results: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Points (pairs: win 1, shared first place ½ each, loss 0; a bye 1), Buchholz (the
    opponents' final points), Sonneborn–Berger (each game's points times the opponent's final
    points), for tables of two, worked from the games' results alone."""
    points: dict[str, Fraction] = {}
    games: list[tuple[str, str, Fraction]] = []
    for round_ in rounds:
        for bye in round_["byes"]:
            points[bye] = points.get(bye, Fraction(0)) + 1
        for table in round_["tables"]:
            a, b = (s["player_id"] for s in table["seats"])
            ranks = results[table["game_id"]]
            earned_a = (
                Fraction(1) if ranks[0] < ranks[1] else Fraction(0) if ranks[0] > ranks[1] else Fraction(1, 2)
            )
            games += [(a, b, earned_a), (b, a, 1 - earned_a)]
            points[a] = points.get(a, Fraction(0)) + earned_a
            points[b] = points.get(b, Fraction(0)) + 1 - earned_a
    rows = []
    for player, total in points.items():
        mine = [(opponent, earned) for who, opponent, earned in games if who == player]
        rows.append(
            {
                "player_id": player,
                "points": float(total),
                "buchholz": float(sum((points[o] for o, _ in mine), Fraction(0))),
                "sonneborn_berger": float(sum((e * points[o] for o, e in mine), Fraction(0))),
                "games": len(mine),
            }
        )
    return rows
