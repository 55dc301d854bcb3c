"""Games over the real HTTP API: started, played to the end with random legal choices (recording
everything each viewer, every seat and a spectator, was sent, so tests can check outcomes and
leaks), and read back."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.support.http import auth

SPECTATOR = "spectator"


@dataclass
class PlayedGame:
    game_id: str
    host_token: str
    tokens: list[str]
    seed_commitment: str
    decisions: int = 0
    seen: dict[str, list[str]] = field(default_factory=dict)
    """Per viewer ("0", "1", …, "spectator"): every response body it received, as JSON text."""
    final: dict[str, Any] = field(default_factory=dict)

    def record(self, viewer: str, body: Any) -> None:
        self.seen.setdefault(viewer, []).append(json.dumps(body, sort_keys=True))


Hook = Callable[[httpx.Client, PlayedGame, dict[str, Any]], None]


def start_game(
    http: httpx.Client,
    slug: str,
    players: int,
    options: dict[str, Any] | None = None,
    seed: str | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """Create a game, seat ``players`` humans and start it: the creation answer and the seat tokens."""
    request: dict[str, Any] = {"type": slug, "options": options or {}}
    if seed is not None:
        request["seed"] = seed
    created = http.post("/v1/games", json=request)
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    tokens = []
    for seat in range(players):
        joined = http.post(f"/v1/games/{body['id']}/seats", json={"name": f"player {seat}"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    started = http.post(f"/v1/games/{body['id']}/start", headers=auth(body["host_token"]))
    assert started.status_code == 200, started.text
    return body, tokens


def play_over_rest(
    http: httpx.Client,
    slug: str,
    players: int,
    options: dict[str, Any] | None = None,
    seed: str = "e2e",
    max_decisions: int = 20_000,
    watch_every: int = 1,
    before_submit: Hook | None = None,
    started: Callable[[PlayedGame], None] | None = None,
) -> PlayedGame:
    """Create, seat, start and play to the end; every ``watch_every`` decisions every viewer reads
    the game, its choices and the new events. ``before_submit`` sees each pending decision;
    ``started`` sees the game (its id and tokens) once it has started, before any decision."""
    body, tokens = start_game(http, slug, players, options, seed)
    game = PlayedGame(body["id"], body["host_token"], tokens, body["seed_commitment"])
    if started is not None:
        started(game)
    chooser = random.Random(seed)
    after = {str(s): 0 for s in range(players)} | {SPECTATOR: 0}
    while True:
        if game.decisions % watch_every == 0:
            _watch(http, game, after)
        state = http.get(f"/v1/games/{game.game_id}").json()
        if state["status"] != "in_progress":
            break
        game.decisions += 1
        assert game.decisions <= max_decisions, f"{slug} did not end within {max_decisions} decisions"
        decision = state["decision"]
        for seat in decision["seats"]:
            if seat in decision["sealed"]:
                continue
            pending = http.get(f"/v1/games/{game.game_id}/choices", headers=auth(game.tokens[seat]))
            assert pending.status_code == 200, pending.text
            pending_body = pending.json()
            game.record(str(seat), pending_body)
            assert pending_body["choices"], f"seat {seat} asked to decide {decision['kind']} without choices"
            if before_submit is not None:
                before_submit(http, game, pending_body | {"seat": seat})
            choice = chooser.choice(pending_body["choices"])
            submitted = http.post(
                f"/v1/games/{game.game_id}/choices",
                json={"choice": choice, "version": pending_body["version"]},
                headers=auth(game.tokens[seat]),
            )
            assert submitted.status_code == 200, submitted.text
            game.record(str(seat), submitted.json())
    _watch(http, game, after)
    game.final = http.get(f"/v1/games/{game.game_id}").json()
    return game


def _watch(http: httpx.Client, game: PlayedGame, after: dict[str, int]) -> None:
    for viewer, last in after.items():
        headers = {} if viewer == SPECTATOR else auth(game.tokens[int(viewer)])
        view = http.get(f"/v1/games/{game.game_id}", headers=headers).json()
        events = http.get(f"/v1/games/{game.game_id}/events", params={"after": last}, headers=headers).json()
        game.record(viewer, view)
        game.record(viewer, events)
        after[viewer] = events["last_seq"]


def new_duel(http: httpx.Client, rounds: int = 1, seats: int = 2) -> tuple[str, list[str]]:
    """Create, seat and start a duel; its id and the seat tokens."""
    game, tokens = start_game(http, "duel", seats, {"rounds": rounds})
    return game["id"], tokens


def all_events(http: httpx.Client, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
    """The whole history as ``token``'s seat (or a spectator) sees it."""
    headers = auth(token) if token else {}
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        page = http.get(f"/v1/games/{game_id}/events", params={"after": after}, headers=headers)
        assert page.status_code == 200, page.text
        body = page.json()
        events.extend(body["events"])
        if not body["events"]:
            return events
        after = body["last_seq"]


def game_as(http: httpx.Client, game_id: str, token: str | None) -> dict[str, Any]:
    """The game as ``token``'s seat (or a spectator) sees it."""
    answer = http.get(f"/v1/games/{game_id}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def play_first_choice(http: httpx.Client, game_id: str, tokens: list[str]) -> int:
    """The first listed choice of a seat asked now (not yet sealed); returns that seat."""
    decision = game_as(http, game_id, None)["decision"]
    for seat in decision["seats"]:
        if seat in decision["sealed"]:
            continue
        offer = http.get(f"/v1/games/{game_id}/choices", headers=auth(tokens[seat])).json()
        submitted = http.post(
            f"/v1/games/{game_id}/choices",
            json={"choice": offer["choices"][0], "decision_version": offer["decision_version"]},
            headers=auth(tokens[seat]),
        )
        assert submitted.status_code == 200, submitted.text
        return int(seat)
    raise AssertionError("nobody is asked")
