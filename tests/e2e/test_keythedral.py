"""Keythedral end to end: a whole 4-player game over REST, with its events also followed over the
GraphQL websocket, never shows a viewer another seat's cubes or law cards, a face-down law card,
or a face-down building tile (its id names its cost) — not in views, choices, events, nor in the
refusal of an illegal choice.

The truth is read where only the server may read it: the stored engine state in the server's own
SQLite file, before every decision. A response recorded since the previous read reflects the
state now stored, so it is checked against what that state hides from its viewer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.support.http import auth
from tests.support.live import BackgroundSubscribers
from tests.support.play import SPECTATOR, PlayedGame, play_over_rest
from tests.support.servers import ServerWithDatabase, stored_state

SLUG = "keythedral"
PLAYERS = 4
SEED = "keythedral-e2e-191"  # a 4-player random game: random seats play many law cards, so
# many law windows (a random 4-player game takes about 1,400 submits, 2.3 times as many as
# before law windows were put to every seat holding a card)
COLOURS = ("black", "brown", "blue", "green", "red", "white", "purple", "yellow")
REFUSALS = 8


def law_id(card: int) -> str:
    return f"L{card:02d}"


def tile_ids() -> list[str]:
    from domain.games.keythedral.data import TILES

    return [t.id for t in TILES]


TILE_IDS = tile_ids()


def holdings_text(counts: list[int]) -> str:
    """A seat's cubes exactly as a view would carry them (``json.dumps`` with sorted keys)."""
    return json.dumps({"cubes": dict(zip(COLOURS, counts, strict=True))}, sort_keys=True)[1:-1]


def current_row(state: dict[str, Any]) -> int:
    return next((r for r, row in enumerate(state["rows"]) if row), len(state["rows"]))


def hidden_ids(state: dict[str, Any], viewer: int | None) -> set[str]:
    """Law cards and building tiles whose identity ``viewer`` cannot see in ``state``."""
    ids = {law_id(c) for seat, hand in enumerate(state["hands"]) if seat != viewer for c in hand}
    ids |= {law_id(c) for c in state["deck"]}
    if not state["law_cards_face_up"]:
        ids |= {law_id(c) for c in state["spaces"] if c}
    ids |= {TILE_IDS[t] for pool in state["pools"] for t in pool}
    if not state["face_up_tiles"]:
        up = current_row(state) if state["round"] > 0 else -1  # none during the tile laying
        ids |= {TILE_IDS[t] for r, row in enumerate(state["rows"]) if r != up for t in row}
    return ids


def visible_ids(state: dict[str, Any], viewer: int | None) -> set[str]:
    everything = {law_id(c) for c in range(1, 21)} | set(TILE_IDS)
    return everything - hidden_ids(state, viewer)


VIEWERS: list[int | None] = [None, *range(PLAYERS)]


def key(viewer: int | None) -> str:
    return SPECTATOR if viewer is None else str(viewer)


@dataclass
class Watch:
    """Checks, before every decision, what each viewer was sent since the previous one."""

    server: ServerWithDatabase
    checked: dict[str, int] = field(default_factory=dict)
    ever_seen: dict[str, set[str]] = field(default_factory=dict)
    """Per viewer: ids it could see at some earlier point (a swapped-out tile stays known)."""
    secrets_checked: int = 0
    holdings_checked: int = 0
    refusals: list[tuple[dict[str, Any], int, httpx.Response]] = field(default_factory=list)
    ws_events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    subscribers: BackgroundSubscribers | None = None

    def before_submit(self, http: httpx.Client, game: PlayedGame, pending: dict[str, Any]) -> None:
        if self.subscribers is None:
            self.start_subscribers(game)
        state = stored_state(self.server.db, game.game_id)
        self.check(game, state)
        if len(self.refusals) < REFUSALS and game.decisions % 7 == 0:
            self.try_illegal_choices(http, game, pending, state)

    def check(self, game: PlayedGame, state: dict[str, Any]) -> None:
        for viewer in VIEWERS:
            name = key(viewer)
            seen = self.ever_seen.setdefault(name, set())
            secrets = hidden_ids(state, viewer) - seen
            bodies = game.seen.get(name, [])[self.checked.get(name, 0) :]
            self.checked[name] = len(game.seen.get(name, []))
            text = "\n".join(bodies)
            for secret in secrets:
                assert f'"{secret}"' not in text, f"{name} was sent hidden {secret}"
                self.secrets_checked += 1
            for other in range(PLAYERS):
                if other == viewer or state["cubes"][other] == (
                    state["cubes"][viewer] if viewer is not None else None
                ):
                    continue
                assert holdings_text(state["cubes"][other]) not in text, (
                    f"{name} was sent seat {other}'s cubes"
                )
                self.holdings_checked += 1
            for body in bodies:
                assert_view_shape(json.loads(body), viewer)
            seen |= visible_ids(state, viewer)

    def try_illegal_choices(
        self, http: httpx.Client, game: PlayedGame, pending: dict[str, Any], state: dict[str, Any]
    ) -> None:
        seat = pending["seat"]
        legal = pending["choices"]
        tweaked = dict(legal[0])
        name, value = next(iter(tweaked.items()))
        tweaked[name] = f"{value}-x" if isinstance(value, str) else 99
        for illegal in ({"action": "buy", "tile": "T99-9"}, tweaked, {"nonsense": True}):
            if illegal in legal:
                continue
            refused = http.post(
                f"/v1/games/{game.game_id}/choices",
                json={"choice": illegal, "version": pending["version"]},
                headers=auth(game.tokens[seat]),
            )
            self.refusals.append((state, seat, refused))

    def start_subscribers(self, game: PlayedGame) -> None:
        viewers = {SPECTATOR: None, "1": game.tokens[1], "2": game.tokens[2]}
        self.subscribers = BackgroundSubscribers(self.server.base, game.game_id, viewers)


def assert_view_shape(body: dict[str, Any], viewer: int | None) -> None:
    """Structurally: only the viewer's own screen is shown; others are counts; face-down tiles
    and law cards show no identity; a law card procured by another seat is not named."""
    state = body.get("state")
    if isinstance(state, dict) and "players" in state:
        you = state.get("you")
        if viewer is None:
            assert you is None
        else:
            assert you is not None and you["seat"] == viewer
        for player in state["players"]:
            assert "cubes" not in player and isinstance(player["law_cards"], int)
        for row in state["rows"]:
            if not row["face_up"]:
                assert all(set(tile) == {"value"} for tile in row["tiles"]), row
        if not state["options"]["law_cards_face_up"]:
            assert all(space["card"] is None for space in state["laws"]["spaces"])
    for event in body.get("events", []):
        if event["type"] == "law_procured":
            assert ("card" in event["data"]) == (event["data"]["seat"] == viewer), (viewer, event)


def rest_events(http: httpx.Client, game: PlayedGame, viewer: int | None) -> list[dict[str, Any]]:
    headers = {} if viewer is None else auth(game.tokens[viewer])
    events: list[dict[str, Any]] = []
    while True:
        page = http.get(f"/v1/games/{game.game_id}/events", params={"after": len(events)}, headers=headers)
        assert page.status_code == 200, page.text
        batch = page.json()["events"]
        if not batch:
            return events
        events += batch


@pytest.mark.timeout(900)
def test_four_players_never_see_each_others_screens_or_face_down_cards(
    server_with_db: ServerWithDatabase,
) -> None:
    watch = Watch(server_with_db)
    with httpx.Client(base_url=server_with_db.base, timeout=30) as http:
        game = play_over_rest(
            http, SLUG, PLAYERS, {}, seed=SEED, watch_every=8, before_submit=watch.before_submit
        )
        watch.check(game, stored_state(server_with_db.db, game.game_id))
        assert watch.subscribers is not None
        watch.ws_events = watch.subscribers.join(timeout=30)
        for name, events in watch.ws_events.items():
            viewer = None if name == SPECTATOR else int(name)
            over = [e for e in events if e["type"] != "game_over"]
            rest = [{k: e[k] for k in ("seq", "type", "data")} for e in rest_events(http, game, viewer)]
            assert over == [e for e in rest if e["type"] != "game_over"], name
            assert_view_shape({"events": events}, viewer)

    assert game.final["status"] == "finished"
    result = game.final["result"]
    assert len(result["scores"]) == PLAYERS and result["winners"]
    assert not result["details"]["abnormal_end"]
    assert watch.secrets_checked > 10_000 and watch.holdings_checked > 1_000
    procured = [e for e in watch.ws_events["1"] if e["type"] == "law_procured"]
    assert any("card" in e["data"] for e in procured), "seat 1 never procured a law card"
    assert any("card" not in e["data"] for e in procured), "no other seat procured a law card"

    assert len(watch.refusals) >= REFUSALS
    for state, seat, refused in watch.refusals:
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "illegal_choice"
        for secret in hidden_ids(state, seat):
            assert f"{secret}" not in refused.text, f"a refusal named hidden {secret}"
        for other in range(PLAYERS):
            if other != seat:
                assert holdings_text(state["cubes"][other]) not in refused.text
