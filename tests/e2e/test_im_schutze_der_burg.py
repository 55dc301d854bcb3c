"""End to end on the real server: whole games of Im Schutze der Burg over REST while GraphQL
subscribers receive each round's reveal, and a seat's sealed pick never reaches anyone else.

Secrecy is checked as non-interference: with a seat's pick sealed as A, and then replaced by B,
every other viewer (spectator and seats) must receive exactly the same game, choices and events,
version and sequence numbers aside.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from typing import Any

import httpx

from tests.support.http import auth
from tests.support.live import GAME_EVENTS, graphql_socket
from tests.support.play import SPECTATOR, PlayedGame, play_over_rest, start_game

SLUG = "im-schutze-der-burg"
COUNTERS = ("version", "seq", "last_seq", "remaining_seconds")  # the last ticks by itself (inactivity)


class Subscribers:
    """GraphQL subscribers (``None`` = spectator, else a seat token) collecting a game's events
    until ``game_over``, on their own event loop in a background thread."""

    def __init__(self, base: str, game_id: str, tokens: list[str | None]) -> None:
        self.base, self.game_id, self.tokens = base, game_id, tokens
        self.events: list[list[dict[str, Any]]] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def join(self, timeout: float = 30) -> list[list[dict[str, Any]]]:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "subscribers did not see game_over"
        if self.error is not None:
            raise self.error
        return self.events

    def _run(self) -> None:
        async def all_of() -> list[list[dict[str, Any]]]:
            return list(await asyncio.gather(*(self._collect(token) for token in self.tokens)))

        try:
            self.events = asyncio.run(all_of())
        except BaseException as exc:  # reported by join
            self.error = exc

    async def _collect(self, token: str | None) -> list[dict[str, Any]]:
        async with graphql_socket(self.base, token) as socket:
            op = await socket.subscribe(GAME_EVENTS, {"gameId": self.game_id, "after": 0})
            events: list[dict[str, Any]] = []
            while True:
                message = await socket.receive(timeout=30)
                assert message["type"] == "next" and message["id"] == op, message
                event = message["payload"]["data"]["gameEvents"]
                events.append(event)
                if event["type"] == "game_over":
                    return events


def _headers(tokens: list[str], viewer: int | None) -> dict[str, str]:
    return {} if viewer is None else auth(tokens[viewer])


def _without_counters(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_counters(v) for k, v in value.items() if k not in COUNTERS}
    if isinstance(value, list):
        return [_without_counters(v) for v in value]
    return value


def _all_events(http: httpx.Client, game_id: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = http.get(f"/v1/games/{game_id}/events", params={"after": len(events)}, headers=headers)
        assert page.status_code == 200, page.text
        batch = page.json()["events"]
        if not batch:
            return events
        events += batch


def _assert_no_foreign_sealed_choice(events: list[dict[str, Any]], viewer: int | None) -> None:
    for event in events:
        if event["type"] == "choice_sealed" and event["data"]["seat"] != viewer:
            assert "choice" not in event["data"] and "replaced" not in event["data"], (viewer, event)


class NonInterference:
    """Seal a pick A for seat ``w``, snapshot every other viewer, replace it by B, snapshot again."""

    def __init__(self, http: httpx.Client, game_id: str, tokens: list[str]) -> None:
        self.http, self.game_id, self.tokens = http, game_id, tokens
        self.last = {viewer: 0 for viewer in (None, *range(len(tokens)))}
        self.checked: list[int] = []

    def check(self, w: int, rng: random.Random) -> dict[str, Any]:
        """Run the check; w stays sealed with its pick B, which is returned."""
        others = [v for v in self.last if v != w]
        for viewer in others:
            self._events(viewer)  # catch up: snapshots below only hold what the seals caused
        pending = self._get("/choices", w).json()
        a, b = rng.sample(pending["choices"], 2)
        version = pending["version"]
        first_seal = self._seal(w, a, version)
        assert first_seal["replaced"] is False
        first = {viewer: self._snapshot(viewer) for viewer in others}
        second_seal = self._seal(w, b, version + 1)
        assert second_seal["replaced"] is True
        second = {viewer: self._snapshot(viewer) for viewer in others}
        assert first == second, f"seat {w}'s sealed pick changed what another viewer receives"
        for viewer, snapshot in first.items():
            decision = snapshot["game"]["decision"]
            assert decision["kind"] == "pick_cards" and w in decision["sealed"]
            assert decision["your_sealed_choice"] is None, viewer
            assert "picks" not in snapshot["game"]["state"] and "my_picks" not in snapshot["game"]["state"]
            (event,) = snapshot["events"]
            assert event["type"] == "choice_sealed" and event["data"]["seat"] == w
            _assert_no_foreign_sealed_choice(snapshot["events"], viewer)
        own = self._get("", w).json()
        assert own["decision"]["your_sealed_choice"] == b
        self.checked.append(w)
        return dict(b)

    def _get(self, path: str, viewer: int | None, **params: Any) -> httpx.Response:
        response = self.http.get(
            f"/v1/games/{self.game_id}{path}", params=params, headers=_headers(self.tokens, viewer)
        )
        assert response.status_code == 200, response.text
        return response

    def _events(self, viewer: int | None) -> list[dict[str, Any]]:
        page = self._get("/events", viewer, after=self.last[viewer]).json()
        self.last[viewer] = page["last_seq"]
        events: list[dict[str, Any]] = page["events"]
        return events

    def _snapshot(self, viewer: int | None) -> Any:
        return _without_counters(
            {
                "game": self._get("", viewer).json(),
                "choices": self._get("/choices", viewer).json(),
                "events": self._events(viewer),
            }
        )

    def _seal(self, seat: int, choice: dict[str, Any], version: int) -> dict[str, Any]:
        response = self.http.post(
            f"/v1/games/{self.game_id}/choices",
            json={"choice": choice, "version": version},
            headers=auth(self.tokens[seat]),
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["status"] == "sealed", body
        (event,) = body["events"]
        data: dict[str, Any] = event["data"]
        return data


def test_three_player_game_over_rest_pushes_every_reveal_and_never_leaks_a_sealed_pick(
    server: str,
) -> None:
    chooser = random.Random("burg-e2e-3")
    with httpx.Client(base_url=server, timeout=10) as http:
        game, tokens = start_game(http, SLUG, 3, seed="burg-e2e-3")
        game_id = game["id"]
        subscribers = Subscribers(server, game_id, [None, tokens[0]])
        subscribers.start()
        probe = NonInterference(http, game_id, tokens)
        submitted: dict[int, dict[str, dict[str, Any]]] = {}  # round -> seat -> pick
        decisions = 0
        while True:
            game = http.get(f"/v1/games/{game_id}").json()
            if game["status"] != "in_progress":
                break
            decisions += 1
            assert decisions < 500
            decision = game["decision"]
            waiting = [s for s in decision["seats"] if s not in decision["sealed"]]
            round_no = game["state"]["round"]
            if decision["kind"] == "pick_cards" and len(waiting) >= 2:
                w = waiting[round_no % len(waiting)]
                submitted.setdefault(round_no, {})[str(w)] = probe.check(w, chooser)
                waiting.remove(w)
            for seat in waiting:
                pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(tokens[seat])).json()
                choice = chooser.choice(pending["choices"])
                if decision["kind"] == "pick_cards":
                    submitted.setdefault(round_no, {})[str(seat)] = choice
                posted = http.post(
                    f"/v1/games/{game_id}/choices",
                    json={"choice": choice, "version": pending["version"]},
                    headers=auth(tokens[seat]),
                )
                assert posted.status_code == 200, posted.text
        assert game["status"] == "finished" and len(game["result"]["scores"]) == 3
        rounds = game["state"]["round"]
        assert len(probe.checked) >= rounds - 2 and set(probe.checked) == {0, 1, 2}
        spectator, seat0 = subscribers.join()
        rest = {None: _all_events(http, game_id, {}), 0: _all_events(http, game_id, auth(tokens[0]))}
        for viewer in (None, 1, 2):
            _assert_no_foreign_sealed_choice(_all_events(http, game_id, _headers(tokens, viewer)), viewer)

    for viewer, pushed in ((None, spectator), (0, seat0)):
        assert [e["seq"] for e in pushed] == list(range(1, len(pushed) + 1))
        assert pushed == rest[viewer]
        _assert_no_foreign_sealed_choice(pushed, viewer)
        current, revealed = 0, []
        for event in pushed:
            if event["type"] == "round_started":
                current = event["data"]["round"]
            elif event["type"] == "reveal":
                data = event["data"]
                assert data["round"] == current
                assert sorted(data["choices"]) == ["0", "1", "2"]
                assert all(set(pick) == {"card"} for pick in data["choices"].values())
                for seat, pick in submitted.get(current, {}).items():
                    assert data["choices"][seat] == pick
                revealed.append(current)
        assert revealed == list(range(1, rounds + 1))
        assert pushed[-1]["type"] == "game_over"


def _scan_for_leaks(game: PlayedGame, players: int) -> None:
    """Every body a viewer got: no other seat's sealed choice, no picks before the reveal."""
    for viewer, bodies in game.seen.items():
        seat = None if viewer == SPECTATOR else int(viewer)
        for text in bodies:
            body = json.loads(text)
            if "events" in body and isinstance(body["events"], list):
                _assert_no_foreign_sealed_choice(body["events"], seat)
            decision = body.get("decision")
            if isinstance(decision, dict) and decision.get("your_sealed_choice") is not None:
                assert seat in decision["sealed"]
            state = body.get("state")
            if isinstance(state, dict) and "my_picks" in state:
                assert seat is not None and "picks" not in state
    assert set(game.seen) == {SPECTATOR, *map(str, range(players))}


def test_two_player_game_is_played_to_the_end_over_rest(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        game = play_over_rest(http, SLUG, 2, seed="burg-e2e-2", watch_every=3)
    assert game.final["status"] == "finished"
    assert len(game.final["result"]["scores"]) == 2 and game.final["result"]["winners"]
    assert game.final["state"]["rounds"] == 12 and game.final["state"]["round"] <= 12
    _scan_for_leaks(game, 2)


def test_winter_game_is_played_to_the_end_over_rest(server: str) -> None:
    with httpx.Client(base_url=server, timeout=10) as http:
        game = play_over_rest(http, SLUG, 4, {"winter": True}, seed="burg-e2e-winter", watch_every=3)
        events = _all_events(http, game.game_id, {})
    assert game.final["status"] == "finished" and game.final["options"] == {"winter": True}
    winter = game.final["state"]["winter"]
    shown = [e["data"]["card"] for e in events if e["type"] == "winter_card"]
    assert [c["card"] for c in winter["revealed"]] == shown and shown
    assert len(shown) + winter["cards_left"] == 6
    _scan_for_leaks(game, 4)
