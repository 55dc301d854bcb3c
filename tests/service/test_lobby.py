"""The lobby against squatters (issue 10 item 11, issue 13 "leaving"): private games joined only
with their invite code and never listed; the host removes a seat; a seat leaves by itself.
Seat names are normalised, and control, bidi and zero-width characters refused (item 17)."""

from __future__ import annotations

import pytest

from domain.errors import Forbidden, GameNotInLobby, InvalidName, InviteRequired, Unauthorized
from domain.model.lobby import LobbyFilter
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, FixedClock


@pytest.fixture
def service() -> Services:
    store = FakeRepository()
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), FixedClock()
    )


def test_a_private_game_is_not_listed_and_is_joined_only_with_its_invite_code(
    service: Services,
) -> None:
    public = service.lobby.create_game("duel", None, None, creator_id="p-ann")
    private = service.lobby.create_game("duel", None, None, private=True, creator_id="p-ann")
    assert public.invite_code is None and private.invite_code
    game_id = private.match.id
    assert [s.id for s in service.lobby.list_games(LobbyFilter("lobby"), 50).items] == [public.match.id]
    with pytest.raises(InviteRequired):
        service.seats.join(game_id, "squatter")
    with pytest.raises(InviteRequired):
        service.seats.join(game_id, "squatter", invite_code="guess")
    joined = service.seats.join(game_id, "friend", invite_code=private.invite_code)
    assert joined.seat == 0 and joined.token
    # the host seats a bot without the invite code; the invite code alone seats no bot
    service.seats.join(game_id, "bot", bot="random", token=private.host_token)
    with pytest.raises(Unauthorized):
        service.seats.join(game_id, "bot", bot="random", invite_code=private.invite_code)
    assert service.core.load(game_id).private


def test_the_host_removes_any_seat_in_the_lobby_and_later_seats_move_up(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    game_id = created.match.id
    tokens = [service.seats.join(game_id, name).token for name in ("ann", "squatter", "bob")]
    with pytest.raises(Unauthorized):
        service.seats.remove_seat(game_id, 1, None)
    with pytest.raises(Forbidden):
        service.seats.remove_seat(game_id, 1, tokens[0])  # a seat removes only itself
    service.seats.remove_seat(game_id, 1, created.host_token)
    match = service.core.load(game_id)
    assert [(s.index, s.name) for s in match.seats] == [(0, "ann"), (1, "bob")]
    with pytest.raises(Unauthorized):
        service.play.pending(game_id, tokens[1])  # the removed seat's token is gone
    assert service.core.viewer(match, tokens[2]).seat == 1
    _, events = service.reads.events(game_id, None, 0, 100)
    left = [e for e in events if e["type"] == "seat_left"]
    assert left == [
        {"seq": 4, "type": "seat_left", "data": {"seat": 1, "name": "squatter", "removed_by": "host"}}
    ]


def test_a_seat_leaves_the_lobby_by_itself_but_not_a_started_game(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    game_id = created.match.id
    tokens = [service.seats.join(game_id, name).token for name in ("ann", "bob", "cy")]
    service.seats.remove_seat(game_id, 0, tokens[0])
    assert [s.name for s in service.core.load(game_id).seats] == ["bob", "cy"]
    _, events = service.reads.events(game_id, None, 0, 100)
    assert events[-1]["data"] == {"seat": 0, "name": "ann", "removed_by": "self"}
    service.seats.start(game_id, created.host_token)
    with pytest.raises(GameNotInLobby):
        service.seats.remove_seat(game_id, 0, tokens[1])
    with pytest.raises(GameNotInLobby):
        service.seats.remove_seat(game_id, 0, created.host_token)


@pytest.mark.parametrize(
    "name",
    [
        "ann\u202eevil",  # right-to-left override
        "a\u200bb",  # zero-width space
        "a\u200db",  # zero-width joiner
        "\u2066ann\u2069",  # bidi isolate
        "ann\x00",  # NUL
        "ann\nbob",  # newline (forges log and chat lines)
        "ann\x1b[31m",  # terminal escape
        "\ufeffann",  # byte order mark
        "   ",  # nothing left after trimming
        "\u3164",  # Hangul filler: renders as nothing
    ],
)
def test_seat_names_with_invisible_or_control_characters_are_refused(service: Services, name: str) -> None:
    game_id = service.lobby.create_game("duel", None, None).match.id
    with pytest.raises(InvalidName):
        service.seats.join(game_id, name)
    assert service.core.load(game_id).seats == []


def test_seat_names_are_normalised(service: Services) -> None:
    game_id = service.lobby.create_game("duel", None, None).match.id
    service.seats.join(game_id, "  Zoe\u0301   Smith ")  # combining accent, runs of spaces
    service.seats.join(game_id, "Ｆｕｌｌ\u3000width")  # full-width letters and ideographic space
    names = [s.name for s in service.core.load(game_id).seats]
    assert names == ["Zoé Smith", "Full width"]
