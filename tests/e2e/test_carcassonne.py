"""Carcassonne end to end: whole games over REST (and the event stream over the websocket) never
disclose the order of the face-down pile, not even in the refusal of an illegal placement.

The true order is read where only the server may read it: the stored state in the server's own
SQLite file, at several points of each game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.support.http import auth
from tests.support.live import BackgroundSubscribers
from tests.support.play import PlayedGame, play_over_rest
from tests.support.servers import ServerWithDatabase, stored_state

SNAPSHOT_EVERY = 12
"""Decisions between two reads of the true pile order from the database."""
WINDOW = 4
"""Consecutive upcoming tiles that must never appear together in anything a viewer receives."""


@dataclass
class Watch:
    """What the test gathers while ``play_over_rest`` plays: true pile orders, refusals, events."""

    server: ServerWithDatabase
    piles: list[list[str]] = field(default_factory=list)
    """The upcoming tiles in draw order, at several points."""
    refusals: list[tuple[list[str], httpx.Response]] = field(default_factory=list)
    events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    subscribers: BackgroundSubscribers | None = None

    def before_submit(self, http: httpx.Client, game: PlayedGame, pending: dict[str, Any]) -> None:
        if self.subscribers is None:
            self.start_subscribers(game)
        if game.decisions % SNAPSHOT_EVERY == 1:
            state = stored_state(self.server.db, game.game_id)
            upcoming = list(reversed(state["pile"]))  # the pile is drawn from its end
            view = http.get(f"/v1/games/{game.game_id}").json()["state"]
            assert view["pile_count"] == len(upcoming)
            assert "pile" not in view
            self.piles.append(upcoming)
        if pending["decision"]["kind"] == "place_tile" and len(self.refusals) < 6:
            self.try_illegal_placements(http, game, pending)

    def try_illegal_placements(self, http: httpx.Client, game: PlayedGame, pending: dict[str, Any]) -> None:
        upcoming = list(reversed(stored_state(self.server.db, game.game_id)["pile"]))
        legal = pending["choices"]
        wrong_rotation = legal[0] | {"rotation": 45}
        for illegal in ({"action": "place", "x": 60, "y": -60, "rotation": 0}, wrong_rotation):
            assert illegal not in legal
            refused = http.post(
                f"/v1/games/{game.game_id}/choices",
                json={"choice": illegal, "version": pending["version"]},
                headers=auth(game.tokens[pending["seat"]]),
            )
            self.refusals.append((upcoming, refused))

    def start_subscribers(self, game: PlayedGame) -> None:
        viewers = {"spectator": None, "0": game.tokens[0]}
        self.subscribers = BackgroundSubscribers(self.server.base, game.game_id, viewers)


def sequences(upcoming: list[str]) -> set[str]:
    """Every way a run of upcoming tiles could be written in JSON, in draw or stored order."""
    out = set()
    for order in (upcoming, upcoming[::-1]):
        for start in range(len(order) - WINDOW + 1):
            window = order[start : start + WINDOW]
            for separator in (", ", ","):
                out.add(separator.join(json.dumps(tile) for tile in window))
    return out


def play_and_watch(
    server: ServerWithDatabase, players: int, options: dict[str, Any], seed: str, watch_every: int
) -> tuple[PlayedGame, Watch]:
    """Play a whole game with random choices; every viewer reads everything every few decisions."""
    watch = Watch(server)
    with httpx.Client(base_url=server.base, timeout=30) as http:
        game = play_over_rest(
            http,
            "carcassonne",
            players,
            options,
            seed=seed,
            watch_every=watch_every,
            before_submit=watch.before_submit,
        )
    assert watch.subscribers is not None
    watch.events = watch.subscribers.join(timeout=30)
    return game, watch


def assert_pile_order_never_shown(game: PlayedGame, watch: Watch) -> None:
    assert len(watch.piles) >= 5
    forbidden = set().union(*(sequences(upcoming) for upcoming in watch.piles))
    stored_pile = json.dumps({"pile": watch.piles[0][::-1]})
    assert any(sequence in stored_pile for sequence in forbidden), "the leak check would miss a leak"
    texts = {viewer: "\n".join(bodies) for viewer, bodies in game.seen.items()}
    texts |= {f"ws:{viewer}": json.dumps(events) for viewer, events in watch.events.items()}
    texts["refusals"] = "\n".join(response.text for _, response in watch.refusals)
    for viewer, text in texts.items():
        assert '"pile": [' not in text and '"pile":[' not in text, viewer
        leaked = [sequence for sequence in forbidden if sequence in text]
        assert not leaked, f"{viewer} was sent the upcoming tiles {leaked[0]}"


def assert_refusals_say_nothing_of_the_pile(watch: Watch) -> None:
    assert watch.refusals
    for upcoming, response in watch.refusals:
        assert response.status_code == 422, response.text
        problem = response.json()
        assert problem["code"] == "illegal_choice"
        assert "pile" not in response.text
        # No tile is named at all: a refusal describes the posted choice and the legal fields only.
        assert "BA/" not in response.text and "AM/" not in response.text, response.text
        assert upcoming, "refusals were tried while tiles were still to come"


def assert_finished_with_scores_and_winners(game: PlayedGame, players: int, watch: Watch) -> None:
    final = game.final
    assert final["status"] == "finished"
    scores, winners = final["result"]["scores"], final["result"]["winners"]
    assert len(scores) == players and all(isinstance(s, int) and s >= 0 for s in scores)
    assert winners and set(winners) == {s for s in range(players) if scores[s] == max(scores)}
    assert final["state"]["pile_count"] == 0
    assert sum(p["score"] for p in final["state"]["players"]) == sum(scores)
    for events in watch.events.values():
        over = events[-1]
        assert over["type"] == "game_over" and over["data"]["scores"] == scores
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_three_players_with_abbey_and_mayor_never_see_the_pile_order(
    server_with_db: ServerWithDatabase,
) -> None:
    game, watch = play_and_watch(
        server_with_db, 3, {"abbey_and_mayor": True}, "carcassonne-e2e-3", watch_every=2
    )
    assert_pile_order_never_shown(game, watch)
    assert_refusals_say_nothing_of_the_pile(watch)
    assert_finished_with_scores_and_winners(game, 3, watch)


def test_base_game_never_shows_the_pile_order(server_with_db: ServerWithDatabase) -> None:
    game, watch = play_and_watch(
        server_with_db, 2, {"abbey_and_mayor": False}, "carcassonne-e2e-2", watch_every=3
    )
    assert_pile_order_never_shown(game, watch)
    assert_refusals_say_nothing_of_the_pile(watch)
    assert_finished_with_scores_and_winners(game, 2, watch)
